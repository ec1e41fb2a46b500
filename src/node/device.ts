/**
 * Device acquisition in Node through Dawn's bindings (the `webgpu` package, an
 * optional peer dependency of Sparkworks): a hardware adapter first, then
 * SwiftShader, the software Vulkan that Debian's `chromium` package ships, when
 * no hardware adapter exists.
 */
import { create, globals } from 'webgpu';
import {
  NoAdapterError,
  describeAdapter,
  requestDevice,
  type AcquireOptions,
  type AcquiredDevice,
} from '../gpu/device';

/** Where Debian's `chromium` package puts SwiftShader's Vulkan ICD, tried when no hardware adapter exists. */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

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
  // Dawn's objects (GPUBufferUsage and friends) become globals, as in a browser.
  Object.assign(globalThis, globals);
  const request = { powerPreference: options.powerPreference ?? 'high-performance' } as const;
  let software: GPUAdapter | null = null;
  if (!options.forceSoftware) {
    const adapter = await keep(create([])).requestAdapter(request);
    if (adapter && !describeAdapter(adapter, '').software)
      return { adapter, source: 'webgpu (Dawn), hardware adapter' };
    software = adapter;
  }
  if (software) return { adapter: software, source: 'webgpu (Dawn), software adapter (no hardware adapter found)' };
  // The Vulkan loader reads VK_ICD_FILENAMES when Dawn opens a new instance.
  const previous = process.env.VK_ICD_FILENAMES;
  process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  try {
    const adapter = await keep(create([])).requestAdapter(request);
    if (adapter) return { adapter, source: `webgpu (Dawn), SwiftShader fallback (${SWIFTSHADER_ICD})` };
  } finally {
    if (previous === undefined) delete process.env.VK_ICD_FILENAMES;
    else process.env.VK_ICD_FILENAMES = previous;
  }
  throw new NoAdapterError(
    `no WebGPU adapter: no hardware adapter, and SwiftShader's ICD at ${SWIFTSHADER_ICD} did not load ` +
      '(install Debian packages chromium and libvulkan1)',
  );
}

/**
 * Acquires a device in Node with the adapter's largest buffer and compute
 * limits: a hardware adapter when Dawn finds one (unless `forceSoftware`),
 * else SwiftShader. Throws `NoAdapterError` when neither exists.
 */
export async function acquireDevice(options: AcquireOptions = {}): Promise<AcquiredDevice> {
  const { adapter, source } = await nodeAdapter(options);
  return requestDevice(adapter, source);
}
