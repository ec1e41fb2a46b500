/**
 * The speed issue's emitter targets (item 2) timed in alternating rounds, as
 * src/bench/colliderRatio.ts times the colliders': the plain step (a system
 * without emitters, every slot stepped) and the churning pools of the
 * harness's emitter cases (src/bench/emitters.ts: 10% and 100% live, 10%
 * spread over the pool, and the fountains), each timed once a round, so
 * every ratio compares frames taken moments apart on a loaded machine. The
 * harness's emitter cases are timed minutes from the step they are divided
 * by; its report judges the targets from these rounds where it has them.
 * Used by `npm run bench` (at the size the targets are stated at) and
 * `npm run bench:emitters`.
 */
import { withHeldErrorScopes } from '../gpu/device/errors';
import { ParticleSystem } from '../gpu/particleSystem';
import type { LifecycleStats } from '../core/emitters/stats';
import {
  advance,
  BENCH_POOLS,
  FILL_STEPS,
  frameCounts,
  openChurningPool,
  type BenchPool,
  type FrameCounts,
} from './emitters';
import { median } from './timing';

export interface EmitterRatioOptions {
  /** Frames submitted together in one timed run. Default 5. */
  frames?: number;
  /** Timed rounds after one warm-up round; medians are reported. Default 7. */
  rounds?: number;
  dt?: number;
  /** Also time the fountains. Default true. */
  fountains?: boolean;
}

/** The median of the rounds' ratios of two timings, with every round's. */
export interface RoundRatio {
  ratio: number;
  ratios: number[];
  /** The fastest rounds' ratio (the least of one over the least of the other): load only ever slows a run. */
  fastestRatio: number;
}

/** One churning pool (its `name` is the harness's case of the same pool): its frame time, its ratio to the plain step, and what its timed frames did. */
export interface EmitterPoolTiming extends BenchPool {
  /** Median milliseconds a frame. */
  ms: number;
  /** Its frame over the plain step, round by round. */
  overStep: RoundRatio;
  /** From the counters around the timed rounds. */
  counts: FrameCounts;
}

export interface EmitterRatioResult {
  count: number;
  frames: number;
  rounds: number;
  /** Median milliseconds of one plain step. */
  stepMs: number;
  pools: EmitterPoolTiming[];
  /** The 10% frame over the 100% frame (the second target), round by round. */
  tenthOverFull: RoundRatio;
  /** The 10% frame spread over the pool over the 100% frame (quoted, not judged). */
  spreadOverFull: RoundRatio;
  /** Each fountain's frame over the pool without its forces and plane at the same fraction; empty without fountains. */
  fountainOverPool: (RoundRatio & { name: string })[];
}

function roundRatio(over: readonly number[], under: readonly number[]): RoundRatio {
  const ratios = over.map((t, r) => t / (under[r] as number));
  return { ratio: median(ratios), ratios, fastestRatio: Math.min(...over) / Math.min(...under) };
}

/**
 * Times the plain step and the churning pools on `count` slots, alternating
 * every round. Each pool is its own system; the device stays the caller's.
 */
export async function measureEmitterRatio(
  device: GPUDevice,
  count: number,
  options: EmitterRatioOptions = {},
): Promise<EmitterRatioResult> {
  const frames = options.frames ?? 5;
  const rounds = options.rounds ?? 7;
  const dt = options.dt ?? 1 / 60;
  const pools = BENCH_POOLS.filter((pool) => options.fountains !== false || !pool.fountain);
  const timeRun = (system: ParticleSystem) =>
    withHeldErrorScopes(device, 'timing the emitters against the step', async () => {
      const started = performance.now();
      await advance(system, dt, frames, frames);
      return (performance.now() - started) / frames;
    });
  const systems: ParticleSystem[] = [];
  try {
    const plain = await ParticleSystem.create(device, { capacity: count });
    systems.push(plain);
    await advance(plain, dt, 2);
    for (const pool of pools) {
      const spec = { capacity: count, fraction: pool.fraction, spread: pool.spread, fountain: pool.fountain };
      systems.push(await openChurningPool(device, { ...spec, dt, steps: FILL_STEPS }));
    }
    const churning = systems.slice(1);
    const times = systems.map(() => [] as number[]);
    let before: LifecycleStats[] = [];
    // Round 0 warms up, then the counters are read: the counts are the timed rounds'.
    for (let round = 0; round <= rounds; round++) {
      if (round === 1) before = await Promise.all(churning.map((system) => system.readStats()));
      for (const [k, system] of systems.entries()) {
        const time = await timeRun(system);
        if (round > 0) (times[k] as number[]).push(time);
      }
    }
    const after = await Promise.all(churning.map((system) => system.readStats()));
    const step = times[0] as number[];
    const timings: EmitterPoolTiming[] = pools.map((pool, k) => ({
      ...pool,
      ms: median(times[k + 1] as number[]),
      overStep: roundRatio(times[k + 1] as number[], step),
      counts: frameCounts(before[k] as LifecycleStats, after[k] as LifecycleStats),
    }));
    const timesOf = (fraction: number, spread: boolean, fountain: boolean) => {
      const k = pools.findIndex((p) => p.fraction === fraction && p.spread === spread && p.fountain === fountain);
      if (k < 0)
        throw new Error(`measureEmitterRatio: no pool at ${fraction} live (spread ${spread}, fountain ${fountain})`);
      return times[k + 1] as number[];
    };
    const full = timesOf(1, false, false);
    return {
      count,
      frames,
      rounds,
      stepMs: median(step),
      pools: timings,
      tenthOverFull: roundRatio(timesOf(0.1, false, false), full),
      spreadOverFull: roundRatio(timesOf(0.1, true, false), full),
      fountainOverPool: pools
        .filter((p) => p.fountain)
        .map((p) => ({
          name: p.name,
          ...roundRatio(timesOf(p.fraction, false, true), timesOf(p.fraction, false, false)),
        })),
    };
  } finally {
    for (const system of systems) system.destroy();
  }
}
