/**
 * The lifecycle's GPU records, declared once (src/core/emitters/records.ts
 * generates their WGSL structs and packs them): the spawn rules (one per
 * emitter and per firework rule), the per-step emitter frame, the counters
 * and the deaths handed from the compaction to the emission.
 */
import { defineRecord, wgslRecord } from './records';

/** Emitters a system may have (the frame's array length). */
export const MAX_EMITTERS = 32;
/** Firework rules a system may have. */
export const MAX_FIREWORK_RULES = 32;
/** Spawn rules in the table: the emitters, then the firework rules. */
export const MAX_SPAWN_RULES = MAX_EMITTERS + MAX_FIREWORK_RULES;
/** Payload entries of one firework rule (Cyclone's rules have at most 2). */
export const MAX_PAYLOADS = 4;
/**
 * Children one dying particle may spawn in all. With at most 2^24 slots, the
 * children of one step sum below 2^32, so the u32 prefix sums cannot wrap.
 */
export const MAX_PAYLOAD_TOTAL = 255;
/** Slots a system with emitters may have (see MAX_PAYLOAD_TOTAL). */
export const MAX_LIFECYCLE_CAPACITY = 1 << 24;

export const SHAPE = { point: 0, sphere: 1, sphereSurface: 2, box: 3, disc: 4, cone: 5 } as const;
export const VELOCITY_MODE = { cone: 0, box: 1 } as const;

/**
 * One spawn rule: how a particle is made (shape, velocity, ranges) and what it
 * does at death (floor, payload). Ranges are stored as (min, span, max): the
 * value is min(min + span * u, max), the clamp keeping a rounded-up span from
 * stepping past max (a damping of 1 must never become 1 + ulp).
 */
export const SPAWN_RULE = defineRecord({
  name: 'SpawnRule',
  words: 68,
  fields: {
    shapeX: { at: 0, type: 'vec3f' },
    shape: { at: 3, type: 'u32' },
    shapeY: { at: 4, type: 'vec3f' },
    radius: { at: 7, type: 'f32' },
    /** Disc normal, cone axis: the shape's local z, in world space. */
    shapeZ: { at: 8, type: 'vec3f' },
    height: { at: 11, type: 'f32' },
    halfExtents: { at: 12, type: 'vec3f' },
    tanAngle: { at: 15, type: 'f32' },
    /** The velocity's basis: velocityZ is the direction, X and Y span the spread. */
    velocityX: { at: 16, type: 'vec3f' },
    velocityMode: { at: 19, type: 'u32' },
    velocityY: { at: 20, type: 'vec3f' },
    oneMinusCosSpread: { at: 23, type: 'f32' },
    velocityZ: { at: 24, type: 'vec3f' },
    speedMin: { at: 27, type: 'f32' },
    boxMin: { at: 28, type: 'vec3f' },
    speedSpan: { at: 31, type: 'f32' },
    boxSpan: { at: 32, type: 'vec3f' },
    speedMax: { at: 35, type: 'f32' },
    boxMax: { at: 36, type: 'vec3f' },
    /** Share of the emitter's (or the parent's) velocity a particle starts with. */
    inherit: { at: 39, type: 'f32' },
    acceleration: { at: 40, type: 'vec3f' },
    collisionRadius: { at: 43, type: 'f32' },
    lifetimeMin: { at: 44, type: 'f32' },
    lifetimeSpan: { at: 45, type: 'f32' },
    lifetimeMax: { at: 46, type: 'f32' },
    massMin: { at: 47, type: 'f32' },
    massSpan: { at: 48, type: 'f32' },
    massMax: { at: 49, type: 'f32' },
    dampingMin: { at: 50, type: 'f32' },
    dampingSpan: { at: 51, type: 'f32' },
    dampingMax: { at: 52, type: 'f32' },
    sizeMin: { at: 53, type: 'f32' },
    sizeSpan: { at: 54, type: 'f32' },
    sizeMax: { at: 55, type: 'f32' },
    color: { at: 56, type: 'u32' },
    seed: { at: 57, type: 'u32' },
    /** The rule its particles obey at death (their life record's `rule`). */
    tag: { at: 58, type: 'u32' },
    /** A particle below this height dies (Cyclone's fireworks: y < 0); -FLT_MAX: no floor. */
    floor: { at: 59, type: 'f32' },
    payloadRules: { at: 60, type: 'vec4u' },
    payloadCounts: { at: 64, type: 'vec4u' },
  },
});

/** What the host sets for one emitter, per step: the rate as a 32.32 fixed-point increment, bursts, motion. */
export const EMITTER_FRAME = defineRecord({
  name: 'EmitterFrame',
  words: 12,
  fields: {
    center: { at: 0, type: 'vec3f' },
    /** Whole particles of rate * dt. */
    incrementWhole: { at: 3, type: 'u32' },
    velocity: { at: 4, type: 'vec3f' },
    /** The fraction of rate * dt, in units of 2^-32. */
    incrementFraction: { at: 7, type: 'u32' },
    /** Burst particles requested since creation, cumulative (so a repeated frame never repeats a burst). */
    burstTotal: { at: 8, type: 'u32' },
    pad0: { at: 9, type: 'u32' },
    pad1: { at: 10, type: 'u32' },
    pad2: { at: 11, type: 'u32' },
  },
});

/** The per-step uniform: dt and every emitter's frame. */
export const FRAME_PARAMS = defineRecord({
  name: 'FrameParams',
  words: 4 + MAX_EMITTERS * EMITTER_FRAME.words,
  fields: {
    dt: { at: 0, type: 'f32' },
    emitterCount: { at: 1, type: 'u32' },
    pad0: { at: 2, type: 'u32' },
    pad1: { at: 3, type: 'u32' },
  },
  tail: [{ at: 4, declaration: `emitters: array<EmitterFrame, ${MAX_EMITTERS}>`, words: MAX_EMITTERS * 12 }],
});

/** What the GPU keeps per emitter between steps. */
export const EMITTER_STATE = defineRecord({
  name: 'EmitterState',
  words: 8,
  fields: {
    /** The fraction carried over between steps, in units of 2^-32. */
    carry: { at: 0, type: 'u32' },
    /** Particles requested so far: the next particle's number in the emitter's random stream. */
    sequence: { at: 1, type: 'u32' },
    burstServed: { at: 2, type: 'u32' },
    /** This step: particles requested (clamped to the capacity), where they start among the host requests, their first number. */
    requests: { at: 3, type: 'u32' },
    start: { at: 4, type: 'u32' },
    sequenceBase: { at: 5, type: 'u32' },
    pad0: { at: 6, type: 'u32' },
    pad1: { at: 7, type: 'u32' },
  },
});

/**
 * The lifecycle's counters. 64-bit totals are (low, high) word pairs, carried
 * by the one-invocation plan kernel, so they never wrap in a long run.
 */
export const LIFE_COUNTERS = defineRecord({
  name: 'LifeCounters',
  words: 24 + MAX_EMITTERS * EMITTER_STATE.words,
  fields: {
    live: { at: 0, type: 'u32' },
    free: { at: 1, type: 'u32' },
    /** Which half of the live-list buffer holds the current list. */
    parity: { at: 2, type: 'u32' },
    steps: { at: 3, type: 'u32' },
    emitted: { at: 4, type: 'vec2u' },
    killed: { at: 6, type: 'vec2u' },
    shortfall: { at: 8, type: 'vec2u' },
    /** Children requested before this step: the first child's number in the firework streams. */
    childSequence: { at: 10, type: 'u32' },
    // This step's emission plan (planEmit writes it, emit reads it).
    childRequests: { at: 11, type: 'u32' },
    hostRequests: { at: 12, type: 'u32' },
    granted: { at: 13, type: 'u32' },
    /** The free list's length before emission: emission j takes freeList[freeTop - 1 - j]. */
    freeTop: { at: 14, type: 'u32' },
    /** Survivors of this step: emission j is appended at live index liveBase + j. */
    liveBase: { at: 15, type: 'u32' },
    deaths: { at: 16, type: 'u32' },
    childSequenceBase: { at: 17, type: 'u32' },
    pad0: { at: 18, type: 'u32' },
    pad1: { at: 19, type: 'u32' },
    pad2: { at: 20, type: 'u32' },
    pad3: { at: 21, type: 'u32' },
    pad4: { at: 22, type: 'u32' },
    pad5: { at: 23, type: 'u32' },
  },
  tail: [{ at: 24, declaration: `emitters: array<EmitterState, ${MAX_EMITTERS}>`, words: MAX_EMITTERS * 8 }],
});

/** Words of the counters before the per-emitter states: what a stats readback copies. */
export const COUNTER_HEADER_WORDS = 24;

/** A particle that died this step with a payload: where its children start and what they inherit. */
export const DEATH = defineRecord({
  name: 'Death',
  words: 8,
  fields: {
    position: { at: 0, type: 'vec3f' },
    /** Exclusive prefix sum of the children of this step's deaths, in death order. */
    childStart: { at: 3, type: 'u32' },
    velocity: { at: 4, type: 'vec3f' },
    rule: { at: 7, type: 'u32' },
  },
});

/**
 * Per spawn rule (by table index): particles born and died with that rule,
 * counted with atomics (a sum does not depend on the order of the adds).
 */
export const RULE_STATS_WORDS = 2 * MAX_SPAWN_RULES;

/** Every lifecycle struct, for the shaders. */
export function wgslLifecycleRecords(): string {
  return [
    wgslRecord(SPAWN_RULE),
    wgslRecord(EMITTER_FRAME),
    wgslRecord(FRAME_PARAMS),
    wgslRecord(EMITTER_STATE),
    wgslRecord(LIFE_COUNTERS),
    wgslRecord(DEATH),
    `const MAX_EMITTERS: u32 = ${MAX_EMITTERS}u;`,
    `const MAX_SPAWN_RULES: u32 = ${MAX_SPAWN_RULES}u;`,
    `const MAX_PAYLOADS: u32 = ${MAX_PAYLOADS}u;`,
    ...Object.entries(SHAPE).map(([name, value]) => `const SHAPE_${name.toUpperCase()}: u32 = ${value}u;`),
    ...Object.entries(VELOCITY_MODE).map(([name, value]) => `const VELOCITY_${name.toUpperCase()}: u32 = ${value}u;`),
  ].join('\n');
}
