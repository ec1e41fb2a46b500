/**
 * Acquires a GPUDevice in the browser (`navigator.gpu`); `sparkworks/node`
 * (src/node/device.ts) does the same through Dawn's `webgpu` package. Either
 * way the device asks for the adapter's largest buffer and compute limits, so
 * the capacity is the device's, not WebGPU's defaults. A device you bring
 * yourself works too; its limits then cap the capacity.
 */

export interface AdapterDescription {
  /** The adapter's vendor, as GPUAdapterInfo names it (may be empty). */
  vendor: string;
  /** Its architecture (may be empty). */
  architecture: string;
  /** Its device name (may be empty). */
  device: string;
  /** A readable name, e.g. `SwiftShader driver 5.0.0`: the adapter's description, else vendor, architecture and device. */
  description: string;
  /** True for a software rasterizer such as SwiftShader. */
  software: boolean;
  /** `navigator.gpu` or `webgpu (Dawn)`, and how the adapter was found. */
  source: string;
  /** The adapter's largest storage binding, bytes: with 64 bytes a particle, it caps a system's capacity. */
  maxStorageBufferBindingSize: number;
  /** The adapter's largest buffer, bytes. */
  maxBufferSize: number;
  /** Whether the adapter has `timestamp-query` (the device is requested with it when it does). */
  timestampQuery: boolean;
}

/** What `acquireDevice()` returns: the device (yours to destroy), its adapter, and what the adapter is. */
export interface AcquiredDevice {
  /** The device, requested with the adapter's largest buffer and compute limits. */
  device: GPUDevice;
  /** The adapter it came from. */
  adapter: GPUAdapter;
  /** What the adapter is, for reports and for defaults on software adapters. */
  adapterInfo: AdapterDescription;
}

/** Thrown by `acquireDevice()` when there is no WebGPU or no adapter; the message says what to do. */
export class NoAdapterError extends Error {
  /** `'NoAdapterError'`. */
  override readonly name = 'NoAdapterError';
}

/** How `acquireDevice()` picks an adapter. */
export interface AcquireOptions {
  /** Passed to `requestAdapter`: `high-performance` or `low-power`. */
  powerPreference?: GPUPowerPreference;
  /** `sparkworks/node` only: skip hardware adapters and use SwiftShader. */
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

/**
 * How the passes whose size the GPU decides are dispatched. Always
 * `'direct'`: fixed dispatches over a bound, whose invocations past the
 * GPU's count return at once.
 *
 * @deprecated A system has one dispatch mode, `'direct'`; this type will be removed.
 */
export type DispatchMode = 'indirect' | 'direct';

/**
 * The dispatch mode a system uses on `device`: always `'direct'`, whatever
 * `chosen` says.
 *
 * @deprecated A system has one dispatch mode, `'direct'`; this function will be removed.
 */
export function chooseDispatchMode(_device: GPUDevice, _chosen?: DispatchMode | 'auto'): DispatchMode {
  return 'direct';
}

/** What `adapter` is, for reports and for choosing defaults on software adapters. */
export function describeAdapter(adapter: GPUAdapter, source: string): AdapterDescription {
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
 * Requests a device from `adapter` with its largest buffer and compute limits
 * (and `timestamp-query` where the adapter has it). `source` says where the
 * adapter came from, for reports.
 */
export async function requestDevice(adapter: GPUAdapter, source: string): Promise<AcquiredDevice> {
  const requiredFeatures: GPUFeatureName[] = adapter.features.has('timestamp-query') ? ['timestamp-query'] : [];
  const device = await adapter.requestDevice({
    label: 'Sparkworks device',
    requiredFeatures,
    requiredLimits: {
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      maxBufferSize: adapter.limits.maxBufferSize,
      // Beyond one binding's worth of particles, each chunk is a storage binding of every pass.
      maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage,
      maxComputeWorkgroupsPerDimension: adapter.limits.maxComputeWorkgroupsPerDimension,
      maxComputeInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: adapter.limits.maxComputeWorkgroupSizeX,
    },
  });
  return { device, adapter, adapterInfo: describeAdapter(adapter, source) };
}

/**
 * Acquires a device from the browser's `navigator.gpu` with the adapter's
 * largest limits. In Node, use `acquireDevice` from `sparkworks/node`.
 */
export async function acquireDevice(options: AcquireOptions = {}): Promise<AcquiredDevice> {
  const browserGpu = typeof navigator !== 'undefined' ? (navigator as { gpu?: GPU }).gpu : undefined;
  if (!browserGpu) {
    const inNode = typeof process !== 'undefined' && process.versions?.node !== undefined;
    throw new NoAdapterError(
      inNode
        ? "WebGPU is not available here: navigator.gpu is missing; in Node, import { acquireDevice } from 'sparkworks/node' (it needs the webgpu package)"
        : 'WebGPU is not available here: navigator.gpu is missing',
    );
  }
  const adapter = await browserGpu.requestAdapter({ powerPreference: options.powerPreference ?? 'high-performance' });
  if (!adapter) throw new NoAdapterError('navigator.gpu exists but requestAdapter() returned no adapter');
  return requestDevice(adapter, 'navigator.gpu');
}
