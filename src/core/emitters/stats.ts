/**
 * What the host learns of the lifecycle: the counters, read back without
 * stalling a frame on the GPU (src/gpu/lifecycle/lifecycle.ts), or read directly on
 * the CPU reference. The same decoding for both.
 */
import type { LifeRecords } from '../layout';
import { COUNTER_HEADER_WORDS, LIFE_COUNTERS, MAX_SPAWN_RULES } from './gpuRecords';
import type { PreparedSpawnRules } from './spawnRules';

/** Births, deaths and collision events under one emitter or one firework type, since creation. */
export interface RuleStats {
  /** Particles born with this rule (an emitter's, or a firework type's: launched and spawned as payload). */
  born: number;
  /** Particles that died with it. */
  died: number;
  /** Its collision events: contact starts (a particle touching a collider it touched none of the step before). */
  hits: number;
}

/** The counts `readStats()` returns: live, free, emitted, killed, shortfall, steps, and per rule. */
export interface LifecycleStats {
  /** Live particles now (permanent ones included). */
  live: number;
  /** Slots on the free list: live + free = capacity. */
  free: number;
  /** Particles emitted since creation. */
  emitted: number;
  /** Particles that died since creation (age, floor, or a kill collider). */
  killed: number;
  /** Particles asked for that did not fit in the pool, since creation. */
  shortfall: number;
  /** Steps taken since creation (modulo 2^32). */
  steps: number;
  /** Per emitter, in order. */
  emitters: RuleStats[];
  /** Per firework type. */
  fireworks: Record<number, RuleStats>;
}

/** The lifecycle's lists and records as read back (tests, the CLI). */
export interface LifecycleSnapshot {
  /** The live slots, in live-list order. */
  live: Uint32Array;
  /** The free list, bottom to top (the top is taken first). */
  free: Uint32Array;
  /** Every slot's life record (age, lifetime, size, colour, rule, alive, generation), packed as on the GPU. */
  life: LifeRecords;
  /** The counts, as `readStats()` gives them. */
  stats: LifecycleStats;
}

/** The stats of a system without emitters: every slot live, nothing ever born or killed. */
export function staticStats(capacity: number): LifecycleStats {
  return { live: capacity, free: 0, emitted: 0, killed: 0, shortfall: 0, steps: 0, emitters: [], fireworks: {} };
}

const pair = (words: ArrayLike<number>, at: number) => (words[at] as number) + (words[at + 1] as number) * 2 ** 32;

/** Decodes the counters' header and the per-rule births and deaths. */
export function lifecycleStats(
  header: ArrayLike<number>,
  ruleStats: ArrayLike<number>,
  rules: PreparedSpawnRules,
): LifecycleStats {
  if (header.length < COUNTER_HEADER_WORDS) throw new RangeError('lifecycleStats: a short counter header');
  const F = LIFE_COUNTERS.wordOffsets;
  const rule = (index: number): RuleStats => ({
    born: ruleStats[index] as number,
    died: ruleStats[MAX_SPAWN_RULES + index] as number,
    hits: (ruleStats[2 * MAX_SPAWN_RULES + index] as number | undefined) ?? 0,
  });
  const fireworks: Record<number, RuleStats> = {};
  for (const [type, index] of rules.ruleIndex) fireworks[type] = rule(index);
  return {
    live: header[F.live] as number,
    free: header[F.free] as number,
    emitted: pair(header, F.emitted),
    killed: pair(header, F.killed),
    shortfall: pair(header, F.shortfall),
    steps: header[F.steps] as number,
    emitters: Array.from({ length: rules.emitterCount }, (_, e) => rule(e)),
    fireworks,
  };
}
