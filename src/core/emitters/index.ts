/** Emitters, lifetimes, recycling and Cyclone's fireworks: the host-side API (no GPU here). */
export {
  GRAVITY,
  MAX_BURST,
  MAX_RATE,
  type EmitterInit,
  type FireworkRuleInit,
  type PayloadInit,
  type RangeInit,
  type ShapeInit,
  type SpawnInit,
  type VelocityInit,
} from './types';
export { prepareSpawnRules } from './spawnRules';
export { EmitterSet, type EmitterUpdate } from './emitterSet';
export { prepareLifecycle, type LifecycleOptions, type PreparedLifecycle } from './options';
export { CpuLifecycle, type Emission } from './lifecycle';
export type { LifecycleSnapshot, LifecycleStats, RuleStats } from './stats';
export { CYCLONE_FIREWORK_RULES, cycloneLaunchers } from './cyclone';
export {
  MAX_EMITTERS,
  MAX_FIREWORK_RULES,
  MAX_LIFECYCLE_CAPACITY,
  MAX_PAYLOADS,
  MAX_PAYLOAD_TOTAL,
} from './gpuRecords';
export { pcg, streamKey } from './random';
