/** Sparkworks: the public API, the same in Node and the browser. */
export * from './core/layout';
export * from './core/variants';
export * from './core/errors';
export * from './core/particles';
export type { ParticleSystemApi, ParticleSystemOptions } from './core/api';
export { CpuParticleSystem, type CpuParticleSystemOptions, type Precision } from './core/cpuParticleSystem';
export { ParticleSystem, DEFAULT_WORKGROUP_SIZE, type GpuParticleSystemOptions } from './gpu/particleSystem';
export {
  acquireDevice,
  NoAdapterError,
  SWIFTSHADER_ICD,
  type AdapterDescription,
  type AcquiredDevice,
} from './gpu/device';
export { GpuValidationError, DeviceLostError } from './gpu/errors';
