/**
 * Systems with emitters, as the benchmark harness (src/bench/harness.ts, the
 * `emitters-*pct-live` cases) and scripts/bench-emitters.ts both measure them:
 * the emitters that hold a pool at a live fraction from its first step, and
 * the counters read back around the timed frames. No Node API
 * here: the bench page runs it too.
 *
 * Churning (the harness's cases): a rate that replaces the particles that
 * die, so every frame has births, deaths and recycling, at a realistic churn
 * (lifetimes of 1 to 2 s: about 1.1% of the live particles die a step at
 * 60 Hz). A particle emitted at the end of a step is live at the end of the
 * next floor(lifetime / dt) + 1 steps, on average lifetime / dt + 1/2, so a
 * rate of target / (mean lifetime + dt / 2) holds about `target` live.
 *
 * Started empty, that pool would need the longest lifetime (120 steps) to
 * settle, far too long for a benchmark on a software adapter. So it starts at
 * its steady state instead: the first step also bursts the particles that
 * would be live then, with the lifetimes they would have left. In a steady
 * pool the time a particle has left is distributed as P(lifetime > r) / mean
 * lifetime (the equilibrium distribution of renewal theory): uniform over
 * [0, min] for lifetimes uniform over [min, max], then falling linearly to 0
 * at max. Bursts of uniform lifetimes give the first part exactly and the
 * second in BURST_SLICES slices, so deaths a step are the steady rate's from
 * the first step on (and within 1/(2 BURST_SLICES) of it between min and max
 * seconds). The rate emitter comes first, so each emission finds its emitter
 * at once, as in a one-emitter system.
 *
 * The slots, too, start where a long-running pool has them. A new pool hands
 * out its slots in order (0, 1, 2...), and its free list is a stack: a birth
 * takes the slot that died last. So a pool keeps its live particles in the
 * lowest slots, as many as it has ever held at once, and after a few
 * lifetimes of churn the live list visits those in no particular order
 * (scripts/profile-churned-slots.ts: at 10% of 2^20 slots, after 720 steps
 * of churn from an empty pool, every live slot was below 105,386, 0.5% past
 * the live count). That costs: on SwiftShader at 2^18 slots a frame took 1.4x
 * (100% live) and 2.8x (10%) longer after 150 steps of churn than fresh
 * (medians of 5, a busy machine). So the churning pools start with the
 * slots they will hold shuffled (shuffleFreeList, a seeded permutation of
 * the first `target` slots), and their first bursts land in scattered slots
 * among them. A pool that was once fuller than it is now (filled by a burst,
 * then thinned out) has its live particles spread over every slot it has
 * used: the `-spread` case starts with the whole free list shuffled.
 *
 * At 100% the rate is 10% more than the pool holds, so the pool stays full
 * (live = capacity after nearly every step) and the excess is counted as
 * shortfall.
 *
 * Steady (scripts/bench-emitters.ts only): one burst of particles that outlive
 * the run; nothing is born or dies after the first step.
 */
import type { EmitterInit } from '../core/emitters/types';
import type { LifecycleStats } from '../core/emitters/stats';
import type { Variant } from '../core/variants';
import { ParticleSystem } from '../gpu/particleSystem';
import { seededRandom } from '../core/random';
import { SHOWER_FORCES } from './typicalEffect';

/** Where emitted particles start, and how they move: a sphere of radius 10, speeds in [0, 1] in every direction. */
export const EMITTER_SHAPE = {
  shape: { type: 'sphere', radius: 10 },
  velocity: { spread: Math.PI, speed: [0, 1] },
} as const;

/** Seconds a churning particle lives. */
export const CHURN_LIFETIME = [1, 2] as const;

/** Bursts that approximate the falling part of the equilibrium distribution of the lifetimes left. */
export const BURST_SLICES = 8;

/** At 100% the rate asks for this much more than the pool holds, so it stays full. */
export const FULL_POOL_OVERSHOOT = 1.1;

/**
 * How far from its target a churning pool's live count may be before the
 * timed runs: the bursts are exact counts and the rate carries its fractions,
 * so what is left is the lifetimes drawn at random and, at 100%, a step whose
 * deaths outnumber the requests; 5% leaves room for the smallest pools.
 */
export const LIVE_TOLERANCE = 0.05;

/**
 * The live fractions the harness measures, with the names of their cases;
 * `spread`: the live particles spread over the whole pool, as in a pool that
 * was once full (the module comment), instead of over the slots the pool holds.
 */
export const LIVE_FRACTIONS = [
  { fraction: 0.1, name: 'emitters-10pct-live', spread: false },
  { fraction: 1, name: 'emitters-100pct-live', spread: false },
  { fraction: 0.1, name: 'emitters-10pct-live-spread', spread: true },
] as const;

/**
 * A fountain: the churning pool with gravity and drag from the force
 * registry (SHOWER_FORCES, src/bench/typicalEffect.ts) and a ground plane 2
 * below the emitter's centre that the particles bounce on, all fused into the
 * step over the live particles; the ageing in the same invocation makes the
 * collision events (shaders/step/liveAge.wgsl). The `emitters-fountain-*` cases,
 * against the pool without them at the same fraction, and
 * scripts/profile-emitter-colliders.ts.
 */
export const FOUNTAIN_PLANE = { type: 'plane', normal: [0, 1, 0], offset: -2, restitution: 0.4 } as const;

/** The live fractions of the fountain cases (their particles in the slots the pool holds). */
export const FOUNTAIN_FRACTIONS = [
  { fraction: 0.1, name: 'emitters-fountain-10pct-live' },
  { fraction: 1, name: 'emitters-fountain-100pct-live' },
] as const;

/** A pool the benchmarks time: its case's name, its live fraction, where its particles sit, whether it is a fountain. */
export interface BenchPool {
  name: string;
  fraction: number;
  spread: boolean;
  fountain: boolean;
}

/** Every churning pool of the harness's emitter cases and of its alternating rounds (src/bench/emitterRatio.ts), in order. */
export const BENCH_POOLS: readonly BenchPool[] = [
  ...LIVE_FRACTIONS.map((f) => ({ ...f, fountain: false })),
  ...FOUNTAIN_FRACTIONS.map((f) => ({ ...f, spread: false, fountain: true })),
];

/** The step pass of a fountain (ParticleSystem.stepPasses): the registry's forces and the colliders fused in. */
export const FOUNTAIN_STEP_PASS = 'integrate+forces+colliders';

/** A churning pool as the benchmarks open it (openChurningPool). */
export interface ChurningPool {
  capacity: number;
  fraction: number;
  /** Its live particles spread over every slot (a pool once full), else in the slots it holds. */
  spread: boolean;
  /** With a fountain's forces and plane fused into the step. */
  fountain: boolean;
  dt: number;
  /** Steps before it is handed back: the bursts' step, and those to see the level hold. */
  steps: number;
  /** The integration variant; the system's default when absent. */
  variant?: Variant;
}

/**
 * A churning pool at `fraction` live of `capacity` slots, started at its
 * steady state by bursts into shuffled slots (the slots it holds, or with
 * `spread` any slot of the pool) and stepped `steps` times; a fountain's has
 * SHOWER_FORCES and FOUNTAIN_PLANE, and fails unless they run fused into one
 * step pass, the path it is meant to time.
 */
export async function openChurningPool(device: GPUDevice, pool: ChurningPool): Promise<ParticleSystem> {
  const target = liveTarget(pool.capacity, pool.fraction);
  const system = await ParticleSystem.create(device, {
    capacity: pool.capacity,
    ...(pool.variant ?? {}),
    emitters: churningEmitters(target, pool.capacity, pool.dt),
    ...(pool.fountain ? { collisions: { colliders: [FOUNTAIN_PLANE] } } : {}),
  });
  try {
    if (pool.fountain) {
      for (const generator of SHOWER_FORCES) system.forces.add(generator);
      if (!system.stepPasses.includes(FOUNTAIN_STEP_PASS)) {
        throw new Error(`a fountain's step passes are ${system.stepPasses.join(', ')}, not ${FOUNTAIN_STEP_PASS}`);
      }
    }
    shuffleFreeList(system, undefined, pool.spread ? pool.capacity : target);
    await advance(system, pool.dt, pool.steps);
    return system;
  } catch (error) {
    system.destroy();
    throw error;
  }
}

/** Particles a churning pool of `capacity` slots is filled to at `fraction` live. */
export function liveTarget(capacity: number, fraction: number): number {
  return Math.min(capacity, Math.max(1, Math.round(capacity * fraction)));
}

const MEAN_LIFETIME = (CHURN_LIFETIME[0] + CHURN_LIFETIME[1]) / 2;

/** Particles a second that hold about `target` live at steps of `dt`, before the overshoot at 100%. */
export function steadyRate(target: number, dt: number): number {
  return target / (MEAN_LIFETIME + dt / 2);
}

/** Particles a second the churning emitter asks for (see the module comment). */
export function churnRate(target: number, capacity: number, dt: number): number {
  const rate = steadyRate(target, dt);
  return target >= capacity ? rate * FULL_POOL_OVERSHOOT : rate;
}

/** `total` split in proportion to `weights`, as integers that sum to it (largest remainders). */
function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, c) => a + c, 0);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest);
  for (const { i } of order) {
    if (left-- <= 0) break;
    counts[i] = (counts[i] as number) + 1;
  }
  return counts;
}

/**
 * The churning rate emitter, then the bursts that start the pool at its
 * steady state of about `target` live out of `capacity` (the module comment).
 */
export function churningEmitters(target: number, capacity: number, dt: number): EmitterInit[] {
  const [min, max] = CHURN_LIFETIME;
  const rate = churnRate(target, capacity, dt);
  // The rate's own first step is the youngest cohort; the bursts are the older ones.
  const bursts = Math.max(0, target - Math.round(steadyRate(target, dt) * dt));
  const width = (max - min) / BURST_SLICES;
  // Lifetimes left in [0, min]: density 1 (in units of 1 / mean); in slice j of [min, max]: 1 - (j + 1/2) / slices.
  const slices = [
    { lifetime: [0, min] as [number, number], weight: min },
    ...Array.from({ length: BURST_SLICES }, (_, j) => ({
      lifetime: [min + j * width, min + (j + 1) * width] as [number, number],
      weight: width * (1 - (j + 0.5) / BURST_SLICES),
    })),
  ];
  const counts = apportion(
    bursts,
    slices.map((s) => s.weight),
  );
  return [
    { rate, lifetime: [min, max], ...EMITTER_SHAPE },
    ...slices.flatMap((s, i) =>
      (counts[i] as number) > 0 ? [{ burst: counts[i] as number, lifetime: s.lifetime, ...EMITTER_SHAPE }] : [],
    ),
  ];
}

/** One burst of `count` particles that outlive any run: a fixed live count, no births or deaths after the first step. */
export function steadyEmitters(count: number): EmitterInit[] {
  return [{ burst: count, lifetime: 1e6, ...EMITTER_SHAPE }];
}

/** Steps before a churning pool is read back and timed: the bursts' step, and two to see the level hold. */
export const FILL_STEPS = 3;

/**
 * Shuffles the free list of a new system with emitters, before its first
 * step, when every slot is free: the first `slots` slots it hands out are
 * slots 0 to `slots` - 1 in a seeded random order (Fisher-Yates), then the
 * rest in order, as a free list is after long enough churn with at most
 * `slots` live (see the module comment). `slots` = the capacity (the default)
 * shuffles the whole free list.
 */
export function shuffleFreeList(system: ParticleSystem, seed = 3, slots = system.capacity): void {
  const lifecycle = system.lifecycle;
  if (!lifecycle) throw new Error('shuffleFreeList: this system has no emitters');
  if (!Number.isInteger(slots) || slots < 0 || slots > system.capacity) {
    throw new RangeError(`shuffleFreeList: slots = ${slots} must be an integer in [0, ${system.capacity}]`);
  }
  const shuffled = new Uint32Array(slots);
  for (let i = 0; i < slots; i++) shuffled[i] = i;
  const random = seededRandom(seed);
  for (let i = slots - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const swap = shuffled[i] as number;
    shuffled[i] = shuffled[j] as number;
    shuffled[j] = swap;
  }
  // The top of the stack (the end) is handed out first: the shuffled slots there, the rest below, highest deepest.
  const freeList = new Uint32Array(system.capacity);
  const rest = system.capacity - slots;
  for (let i = 0; i < rest; i++) freeList[i] = system.capacity - 1 - i;
  freeList.set(shuffled, rest);
  system.device.queue.writeBuffer(lifecycle.buffers.freeList, 0, freeList);
}

/** Steps `system` `steps` times, a few steps a submission, and waits for the GPU. */
export async function advance(system: ParticleSystem, dt: number, steps: number, perSubmit = 10): Promise<void> {
  for (let done = 0; done < steps; done += perSubmit) await system.stepMany(dt, Math.min(perSubmit, steps - done));
  await system.device.queue.onSubmittedWorkDone();
}

/** What the counters say happened between two readbacks, a step on average. */
export interface FrameCounts {
  /** Steps between the readbacks. */
  steps: number;
  /** Live particles at the two readbacks. */
  liveBefore: number;
  liveAfter: number;
  births: number;
  deaths: number;
  shortfall: number;
  /** Collision events (contact starts, every rule's `hits`). */
  hits: number;
}

const hitsOf = (stats: LifecycleStats) => stats.emitters.reduce((sum, rule) => sum + rule.hits, 0);

export function frameCounts(before: LifecycleStats, after: LifecycleStats): FrameCounts {
  // `steps` is a u32 counter on the GPU.
  const steps = (after.steps - before.steps + 2 ** 32) % 2 ** 32;
  const perStep = (n: number) => (steps > 0 ? n / steps : 0);
  return {
    steps,
    liveBefore: before.live,
    liveAfter: after.live,
    births: perStep(after.emitted - before.emitted),
    deaths: perStep(after.killed - before.killed),
    shortfall: perStep(after.shortfall - before.shortfall),
    hits: perStep(hitsOf(after) - hitsOf(before)),
  };
}
