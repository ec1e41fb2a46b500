/// <reference types="@webgpu/types" preserve="true" />
/**
 * `sparkworks/node`: a WebGPU device in Node through Dawn's `webgpu` package
 * (install it beside Sparkworks). Hardware first, SwiftShader when there is no
 * hardware adapter.
 *
 * @packageDocumentation
 */
export { acquireDevice, SWIFTSHADER_ICD, SWIFTSHADER_ICDS } from './node/device';
export {
  NoAdapterError,
  isSoftwareAdapter,
  chooseDispatchMode,
  type DispatchMode,
  type AcquireOptions,
  type AcquiredDevice,
  type AdapterDescription,
} from './gpu/device/device';
