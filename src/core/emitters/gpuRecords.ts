/**
 * The lifecycle's GPU records, declared once with the struct schema
 * (src/core/schema.ts: their WGSL structs and host views come from here): the spawn rules (one per
 * emitter and per firework rule), the per-step emitter frame, the counters
 * and the deaths handed from the compaction to the emission.
 */
import { arrayOf, defineStruct } from '../schema';
import { CONTACT_TRACKED } from '../collisions/colliders';

/** Emitters a system may have (the frame's array length). */
export const MAX_EMITTERS = 32;
/** Firework rules a system may have. */
export const MAX_FIREWORK_RULES = 32;
/** Spawn rules in the table: the emitters, then the firework rules. */
export const MAX_SPAWN_RULES = MAX_EMITTERS + MAX_FIREWORK_RULES;
/** Payload entries of one firework rule (Cyclone's rules have at most 2). */
export const MAX_PAYLOADS = 4;
/**
 * Children one dying particle may spawn in all. A large pool's step may ask
 * for more than 2^32 children: their sums saturate (addCount below) rather
 * than wrap, past anything the pool can grant.
 */
export const MAX_PAYLOAD_TOTAL = 255;
/**
 * Slots a system with emitters may have: the live list's two halves are
 * indexed in u32 (parity * capacity + live index), and the requests of a step,
 * children and emitters' each capped at the capacity, sum in u32.
 */
export const MAX_LIFECYCLE_CAPACITY = 2 ** 31 - 1;

export const SHAPE = { point: 0, sphere: 1, sphereSurface: 2, box: 3, disc: 4, cone: 5 } as const;
export const VELOCITY_MODE = { cone: 0, box: 1 } as const;

/**
 * One spawn rule: how a particle is made (shape, velocity, ranges) and what it
 * does at death (floor, payload). Ranges are stored as (min, span, max): the
 * value is min(min + span * u, max), the clamp keeping a rounded-up span from
 * stepping past max (a damping of 1 must never become 1 + ulp).
 */
export const SPAWN_RULE = defineStruct('SpawnRule', {
  shapeX: 'vec3f',
  shape: 'u32',
  shapeY: 'vec3f',
  radius: 'f32',
  /** Disc normal, cone axis: the shape's local z, in world space. */
  shapeZ: 'vec3f',
  height: 'f32',
  halfExtents: 'vec3f',
  tanAngle: 'f32',
  /** The velocity's basis: velocityZ is the direction, X and Y span the spread. */
  velocityX: 'vec3f',
  velocityMode: 'u32',
  velocityY: 'vec3f',
  oneMinusCosSpread: 'f32',
  velocityZ: 'vec3f',
  speedMin: 'f32',
  boxMin: 'vec3f',
  speedSpan: 'f32',
  boxSpan: 'vec3f',
  speedMax: 'f32',
  boxMax: 'vec3f',
  /** Share of the emitter's (or the parent's) velocity a particle starts with. */
  inherit: 'f32',
  acceleration: 'vec3f',
  collisionRadius: 'f32',
  lifetimeMin: 'f32',
  lifetimeSpan: 'f32',
  lifetimeMax: 'f32',
  massMin: 'f32',
  massSpan: 'f32',
  massMax: 'f32',
  dampingMin: 'f32',
  dampingSpan: 'f32',
  dampingMax: 'f32',
  sizeMin: 'f32',
  sizeSpan: 'f32',
  sizeMax: 'f32',
  color: 'u32',
  seed: 'u32',
  /** The rule its particles obey at death (their life record's `rule`). */
  tag: 'u32',
  /** A particle below this height dies (Cyclone's fireworks: y < 0); -FLT_MAX: no floor. */
  floor: 'f32',
  payloadRules: 'vec4u',
  payloadCounts: 'vec4u',
  /** The payload of a collision event (onCollision), as payloadRules and payloadCounts are a death's. */
  hitPayloadRules: 'vec4u',
  hitPayloadCounts: 'vec4u',
});

/** What the host sets for one emitter, per step: the rate as a 32.32 fixed-point increment, bursts, motion. */
export const EMITTER_FRAME = defineStruct('EmitterFrame', {
  center: 'vec3f',
  /** Whole particles of rate * dt. */
  incrementWhole: 'u32',
  velocity: 'vec3f',
  /** The fraction of rate * dt, in units of 2^-32. */
  incrementFraction: 'u32',
  /** Burst particles requested since creation, cumulative (so a repeated frame never repeats a burst). */
  burstTotal: 'u32',
  pad0: 'u32',
  pad1: 'u32',
  pad2: 'u32',
});

/** The per-step uniform: dt and every emitter's frame. */
export const FRAME_PARAMS = defineStruct('FrameParams', {
  dt: 'f32',
  emitterCount: 'u32',
  pad0: 'u32',
  pad1: 'u32',
  emitters: arrayOf(EMITTER_FRAME, MAX_EMITTERS),
});

/** What the GPU keeps per emitter between steps. */
export const EMITTER_STATE = defineStruct('EmitterState', {
  /** The fraction carried over between steps, in units of 2^-32. */
  carry: 'u32',
  /** Particles requested so far: the next particle's number in the emitter's random stream. */
  sequence: 'u32',
  burstServed: 'u32',
  /** This step: particles requested (clamped to the capacity), where they start among the host requests, their first number. */
  requests: 'u32',
  start: 'u32',
  sequenceBase: 'u32',
  pad0: 'u32',
  pad1: 'u32',
});

/**
 * The lifecycle's counters. 64-bit totals are (low, high) word pairs, carried
 * by the one-invocation plan kernel, so they never wrap in a long run.
 */
export const LIFE_COUNTERS = defineStruct('LifeCounters', {
  live: 'u32',
  free: 'u32',
  /** Which half of the live-list buffer holds the current list. */
  parity: 'u32',
  steps: 'u32',
  emitted: 'vec2u',
  killed: 'vec2u',
  shortfall: 'vec2u',
  /** Children requested before this step: the first child's number in the firework streams. */
  childSequence: 'u32',
  // This step's emission plan (planEmit writes it, emit reads it).
  childRequests: 'u32',
  hostRequests: 'u32',
  granted: 'u32',
  /** The free list's length before emission: emission j takes freeList[freeTop - 1 - j]. */
  freeTop: 'u32',
  /** Survivors of this step: emission j is appended at live index liveBase + j. */
  liveBase: 'u32',
  deaths: 'u32',
  childSequenceBase: 'u32',
  /** This step's records in `deaths` (DEATH): one a particle that died or had a collision event (or both). */
  records: 'u32',
  pad1: 'u32',
  pad2: 'u32',
  pad3: 'u32',
  pad4: 'u32',
  pad5: 'u32',
  emitters: arrayOf(EMITTER_STATE, MAX_EMITTERS),
});

/** Words of the counters before the per-emitter states: what a stats readback copies. */
export const COUNTER_HEADER_WORDS = LIFE_COUNTERS.wordOffsets.emitters;

/**
 * A particle that died this step, or had a collision event (with payloads):
 * where its children start and what they inherit. `rule` carries the flags
 * RECORD_DIED and RECORD_HIT above the rule's table index: the children are
 * its death payload if it died, then its collision payload if it hit.
 */
export const DEATH = defineStruct('Death', {
  position: 'vec3f',
  /** Exclusive prefix sum of the children of this step's deaths, in death order. */
  childStart: 'u32',
  velocity: 'vec3f',
  rule: 'u32',
});

/**
 * Per spawn rule (by table index): particles born and died with that rule,
 * then its collision events (contact starts),
 * counted with atomics (a sum does not depend on the order of the adds).
 */
/** Death.rule's flags (above any table index < MAX_SPAWN_RULES or NO_RULE's masked value). */
export const RECORD_DIED = 0x80000000;
export const RECORD_HIT = 0x40000000;
export const RECORD_RULE_MASK = 0x3fffffff;
export const RULE_STATS_WORDS = 3 * MAX_SPAWN_RULES;

/** Every lifecycle struct, for the shaders. */
export function wgslLifecycleRecords(): string {
  return [
    SPAWN_RULE.wgsl(),
    EMITTER_FRAME.wgsl(),
    FRAME_PARAMS.wgsl(),
    EMITTER_STATE.wgsl(),
    LIFE_COUNTERS.wgsl(),
    DEATH.wgsl(),
    `const MAX_EMITTERS: u32 = ${MAX_EMITTERS}u;`,
    `const MAX_SPAWN_RULES: u32 = ${MAX_SPAWN_RULES}u;`,
    `const MAX_PAYLOADS: u32 = ${MAX_PAYLOADS}u;`,
    `const RECORD_DIED: u32 = ${RECORD_DIED}u;`,
    `const RECORD_HIT: u32 = ${RECORD_HIT}u;`,
    `const RECORD_RULE_MASK: u32 = ${RECORD_RULE_MASK}u;`,
    `const CONTACT_TRACKED: f32 = ${CONTACT_TRACKED.toFixed(1)};`,
    // A step's children (up to MAX_PAYLOAD_TOTAL a death) may pass 2^32 in a large pool: their sums stop at
    // 2^32 - 1 (MAX_COUNT), past anything the pool can grant, instead of wrapping. Saturating addition of
    // non-negative counts is associative, so the scan's blocks give the serial sums.
    'const MAX_COUNT: u32 = 0xffffffffu;',
    'fn addCount(a: u32, b: u32) -> u32 { return select(a + b, MAX_COUNT, a + b < a); }',
    'fn addCounts(a: vec4u, b: vec4u) -> vec4u { return select(a + b, vec4u(MAX_COUNT), a + b < a); }',
    ...Object.entries(SHAPE).map(([name, value]) => `const SHAPE_${name.toUpperCase()}: u32 = ${value}u;`),
    ...Object.entries(VELOCITY_MODE).map(([name, value]) => `const VELOCITY_${name.toUpperCase()}: u32 = ${value}u;`),
  ].join('\n');
}
