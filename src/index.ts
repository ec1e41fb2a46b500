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
export { UniformRingFullError } from './gpu/uniformRing';
export {
  ForceRegistry,
  ForceHandle,
  SpringNetwork,
  ForceInputError,
  FORCE_TYPES,
  MAX_FORCE_GENERATORS,
  type ForceGenerator,
  type ForceType,
  type ForceTarget,
  type SpringLink,
  type StoredGenerator,
} from './core/forces';
export {
  COLLIDER_TYPES,
  DEAD_RADIUS,
  MAX_COLLIDERS,
  type ColliderInit,
  type PlaneCollider,
  type SphereCollider,
  type BoxCollider,
  type OrientedBoxCollider,
} from './core/collisions/colliders';
export { LINK_TYPES, MAX_LINKS, type LinkInit, type CableLink, type RodLink } from './core/collisions/links';
export { DEFAULT_CONTACT_SETTINGS, type CollisionOptions, type ContactSettings } from './core/collisions/world';
export { CollisionInputError } from './core/collisions/check';
export * from './core/emitters';
export { GpuLifecycle } from './gpu/lifecycle';
export { ARGS as LIFECYCLE_ARGS } from './gpu/indirectArgs';
