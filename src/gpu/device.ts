/**
 * Acquires a GPUDevice the same way in the browser and in Node.
 *
 * Browser: `navigator.gpu`. Node: Dawn's bindings from the `webgpu` package,
 * a hardware adapter first, then SwiftShader (the software Vulkan that Debian's
 * `chromium` package ships) when no hardware adapter exists. The device asks
 * for the adapter's largest buffer limits so the capacity is the device's, not
 * WebGPU's defaults.
 */

export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

export interface AdapterDescription {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** True for a software rasterizer such as SwiftShader. */
  software: boolean;
  /** `navigator.gpu` or `webgpu (Dawn)`, and how the adapter was found. */
  source: string;
  maxStorageBufferBindingSize: number;
  maxBufferSize: number;
  timestampQuery: boolean;
}

export interface AcquiredDevice {
  device: GPUDevice;
  adapter: GPUAdapter;
  adapterInfo: AdapterDescription;
}

export class NoAdapterError extends Error {
  override readonly name = 'NoAdapterError';
}

export interface AcquireOptions {
  powerPreference?: GPUPowerPreference;
  /** Node only: skip hardware adapters and use SwiftShader. */
  forceSoftware?: boolean;
}

/** Whether adapter info names a software rasterizer (SwiftShader, llvmpipe, WARP...) or a fallback adapter. */
export function isSoftwareAdapter(info: GPUAdapterInfo): boolean {
  const text = `${info.vendor} ${info.architecture} ${info.device} ${info.description}`;
  return (
    (info as { isFallbackAdapter?: boolean }).isFallbackAdapter === true ||
    /swiftshader|llvmpipe|lavapipe|software|basic render/i.test(text)
  );
}

function describe(adapter: GPUAdapter, source: string): AdapterDescription {
  const info = adapter.info;
  const description = info.description || [info.vendor, info.architecture, info.device].filter(Boolean).join(' ');
  return {
    vendor: info.vendor,
    architecture: info.architecture,
    device: info.device,
    description,
    software: isSoftwareAdapter(info),
    source,
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
    timestampQuery: adapter.features.has('timestamp-query'),
  };
}

/**
 * Dawn instances live as long as the process: collecting one while its
 * adapter's worker threads still run has crashed Node here (a corrupted mutex).
 */
const dawnInstances: GPU[] = [];
function keep(instance: GPU): GPU {
  dawnInstances.push(instance);
  return instance;
}

async function nodeAdapter(options: AcquireOptions): Promise<{ adapter: GPUAdapter; source: string }> {
  // A variable specifier keeps bundlers from pulling Dawn into browser builds.
  const specifier = 'webgpu';
  const dawn = (await import(/* @vite-ignore */ specifier)) as {
    create: (flags: string[]) => GPU;
    globals: Record<string, unknown>;
  };
  // Dawn's objects (GPUBufferUsage and friends) become globals, as in a browser.
  Object.assign(globalThis, dawn.globals);
  const request = { powerPreference: options.powerPreference ?? 'high-performance' } as const;
  let software: GPUAdapter | null = null;
  if (!options.forceSoftware) {
    const adapter = await keep(dawn.create([])).requestAdapter(request);
    if (adapter && !describe(adapter, '').software) return { adapter, source: 'webgpu (Dawn), hardware adapter' };
    software = adapter;
  }
  if (software) return { adapter: software, source: 'webgpu (Dawn), software adapter (no hardware adapter found)' };
  // The Vulkan loader reads VK_ICD_FILENAMES when Dawn opens a new instance.
  const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
  const previous = env.VK_ICD_FILENAMES;
  env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  try {
    const adapter = await keep(dawn.create([])).requestAdapter(request);
    if (adapter) return { adapter, source: `webgpu (Dawn), SwiftShader fallback (${SWIFTSHADER_ICD})` };
  } finally {
    if (previous === undefined) delete env.VK_ICD_FILENAMES;
    else env.VK_ICD_FILENAMES = previous;
  }
  throw new NoAdapterError(
    `no WebGPU adapter: no hardware adapter, and SwiftShader's ICD at ${SWIFTSHADER_ICD} did not load ` +
      '(install Debian packages chromium and libvulkan1)',
  );
}

/** Requests a device with the adapter's maximum buffer limits. */
export async function acquireDevice(options: AcquireOptions = {}): Promise<AcquiredDevice> {
  let adapter: GPUAdapter | null;
  let source: string;
  const browserGpu = typeof navigator !== 'undefined' ? (navigator as { gpu?: GPU }).gpu : undefined;
  if (browserGpu) {
    adapter = await browserGpu.requestAdapter({ powerPreference: options.powerPreference ?? 'high-performance' });
    source = 'navigator.gpu';
    if (!adapter) throw new NoAdapterError('navigator.gpu exists but requestAdapter() returned no adapter');
  } else if (typeof process !== 'undefined' && process.versions?.node) {
    ({ adapter, source } = await nodeAdapter(options));
  } else {
    throw new NoAdapterError('WebGPU is not available here: navigator.gpu is missing');
  }
  const requiredFeatures: GPUFeatureName[] = adapter.features.has('timestamp-query') ? ['timestamp-query'] : [];
  const device = await adapter.requestDevice({
    label: 'Sparkworks device',
    requiredFeatures,
    requiredLimits: {
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      maxBufferSize: adapter.limits.maxBufferSize,
      maxComputeWorkgroupsPerDimension: adapter.limits.maxComputeWorkgroupsPerDimension,
      maxComputeInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: adapter.limits.maxComputeWorkgroupSizeX,
    },
  });
  return { device, adapter, adapterInfo: describe(adapter, source) };
}
