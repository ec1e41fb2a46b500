/**
 * `sparkworks/core`: the CPU reference integrator and the scene format.
 *
 * Nothing here touches the GPU or the DOM: it runs in plain Node, in a worker,
 * or in a test with no adapter. The GPU system in `sparkworks` has the same
 * semantics and is checked against this one.
 *
 * @packageDocumentation
 */
export {
  SparkworksInputError,
  CollisionInputError,
  EmitterInputError,
  ForceInputError,
  LookInputError,
  SnapshotError,
} from './core/errors';
export type { LifeRecords } from './core/layout';
export {
  ATTRIBUTES,
  ATTRIBUTE_NAMES,
  BYTES_PER_PARTICLE,
  FLOATS_PER_PARTICLE,
  floatIndex,
  wgslParticleStore,
  type AttributeName,
  type AttributeSpec,
  type ParticleChunking,
  type ParticleStoreBindings,
} from './core/layout';
export {
  ALL_VARIANTS,
  DAMPING_MODES,
  DEFAULT_VARIANT,
  INTEGRATION_ORDERS,
  variantName,
  type DampingMode,
  type IntegrationOrder,
  type Variant,
} from './core/variants';
export {
  SETTABLE_FIELDS,
  type FloatArray,
  type ParticleArrays,
  type ParticleInit,
  type ParticleSnapshot,
  type SettableField,
  type Vec3Like,
} from './core/particles';
export type { ParticleSystemApi, ParticleSystemOptions, SystemStats } from './core/api';
export {
  NON_FINITE_POLICIES,
  DEFAULT_NON_FINITE_POLICY,
  NonFiniteStateError,
  type NonFinitePolicy,
  type NonFiniteStats,
} from './core/nonFinite';
export { CpuParticleSystem, type CpuParticleSystemOptions, type Precision } from './core/cpuParticleSystem';
export {
  ForceRegistry,
  ForceHandle,
  SpringNetwork,
  FORCE_TYPES,
  MAX_FORCE_GENERATORS,
  MAX_SPRING_LINKS,
  type AnchoredBungeeForce,
  type AnchoredSpringForce,
  type AttractorForce,
  type BuoyancyForce,
  type DragForce,
  type ForceGenerator,
  type ForceTarget,
  type ForceType,
  type GravityForce,
  type SpringLink,
  type StiffSpringForce,
  type StoredGenerator,
  type TurbulenceForce,
  type VortexForce,
  type WindForce,
} from './core/forces';
export {
  COLLIDER_HITS,
  COLLIDER_TYPES,
  DEAD_RADIUS,
  MAX_COLLIDERS,
  type ColliderHit,
  type ColliderInit,
  type ColliderCommon,
  type PlaneCollider,
  type SphereCollider,
  type BoxCollider,
  type OrientedBoxCollider,
} from './core/collisions/colliders';
export { LINK_TYPES, MAX_LINKS, type LinkInit, type CableLink, type RodLink } from './core/collisions/links';
export type { CollisionEventInit } from './core/emitters/types';
export type { EmitterRuntime } from './core/emitters/params';
export { DEFAULT_CONTACT_SETTINGS, type CollisionOptions, type ContactSettings } from './core/collisions/world';
export {
  GRAVITY,
  MAX_BURST,
  MAX_RATE,
  MAX_EMITTERS,
  MAX_FIREWORK_RULES,
  MAX_LIFECYCLE_CAPACITY,
  MAX_PAYLOADS,
  MAX_PAYLOAD_TOTAL,
  CYCLONE_FIREWORK_RULES,
  cycloneLaunchers,
  EmitterSet,
  type EmitterInit,
  type EmitterUpdate,
  type FireworkRuleInit,
  type LifecycleOptions,
  type LifecycleStats,
  type LifecycleSnapshot,
  type PayloadInit,
  type RangeInit,
  type RuleStats,
  type ShapeInit,
  type SpawnInit,
  type VelocityInit,
} from './core/emitters';
export {
  parseScene,
  sceneObject,
  sceneCapacity,
  sceneToCollisions,
  sceneToForces,
  sceneToLifecycle,
  sceneToParticles,
  type Scene,
} from './scene/scene';
export type { SceneForces } from './scene/forces';
export { sceneToLook } from './scene/scene';
export {
  SCENE_BLEND_MODES,
  SCENE_COLOR_MODES,
  SCENE_DRAW_MODES,
  SCENE_LOOK_KEYS,
  sceneLook,
  type SceneDrawLook,
  type SceneLayer,
  type SceneLook,
  type SceneTrails,
} from './scene/look';
export {
  BUILT_IN_SHAPES,
  FLIPBOOK_MODES,
  LOOK_CURVE_KEYS,
  MAX_CURVE_STOPS,
  MAX_FLIPBOOK_SIDE,
  SPRITE_ORIENTATIONS,
  SPRITE_SHAPES,
  evaluateCurve,
  evaluateGradient,
  shapePixels,
  validateLookCurves,
  validateSprite,
  type BuiltInShape,
  type ColorBySpeed,
  type ColorStop,
  type CurveStop,
  type Flipbook,
  type FlipbookMode,
  type LookCurves,
  type SpriteLook,
  type SpriteOrientation,
  type SpriteShape,
} from './core/look';
export {
  DEFAULT_TRAIL_CURVES,
  MAX_TRAIL_LENGTH,
  MIN_TRAIL_LENGTH,
  CpuTrailRings,
  validateTrailCurves,
  type TrailCurves,
} from './core/look/trails';
export { SORT_ORDERS, backToFront, depthKey, depthKeys, type SortOrder } from './core/depthSort';
export {
  OLDEST_SNAPSHOT_VERSION,
  SNAPSHOT_VERSION,
  type SnapshotBytes,
  type SnapshotHeader,
} from './core/snapshot/format';
export {
  decodeSnapshot,
  type LifecycleWords,
  type SnapshotConfig,
  type SystemState,
} from './core/snapshot/systemSnapshot';
