/// <reference types="@webgpu/types" preserve="true" />
/**
 * `sparkworks`: the GPU particle system, with everything in `sparkworks/core`
 * (the CPU reference, forces, colliders, emitters, the scene format and the
 * input errors). The same in Node and the browser; the device is yours
 * (`acquireDevice()`, `sparkworks/node`, or any `GPUDevice` you already have).
 *
 * @packageDocumentation
 */
export * from './core';
export { ParticleSystem, DEFAULT_WORKGROUP_SIZE, type GpuParticleSystemOptions } from './gpu/particleSystem';
export { STORAGE_BESIDE_PARTICLES, type ParticleStore } from './gpu/shared/particleBuffer';
export {
  acquireDevice,
  isSoftwareAdapter,
  chooseDispatchMode,
  NoAdapterError,
  type DispatchMode,
  type AcquireOptions,
  type AdapterDescription,
  type AcquiredDevice,
} from './gpu/device/device';
export { GpuValidationError, GpuOutOfMemoryError, DeviceLostError } from './gpu/device/errors';
export { UniformRingFullError } from './gpu/shared/uniformRing';
export type { LiveSource } from './gpu/lifecycle/lifeBuffers';
export { ENTRIES_BELOW, type ContactOrder } from './gpu/collisions/contactOrder';
