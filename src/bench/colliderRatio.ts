/**
 * The colliders against the step, timed in one run on one device: the plain
 * step, the step with one plane collider, a typical spark shower's step
 * (registry gravity, drag and the plane) and the step with the plane bouncing
 * with friction (restitution and friction compiled in), alternating every round so each
 * ratio compares timings taken moments apart (src/bench/forceRatio.ts does
 * the same for the forces). Used by the main benchmark for the speed issue's
 * targets and by scripts/profile-colliders.ts, which also times the colliders
 * as a pass of their own (`fuseColliders: false`).
 */
import type { ColliderInit } from '../core/collisions/colliders';
import type { ForceGenerator } from '../core/forces/generators';
import { OFFSET, FLOATS_PER_PARTICLE } from '../core/layout';
import { ParticleSystem, type GpuParticleSystemOptions } from '../gpu/particleSystem';
import { BENCH_BOUNCING_PLANE, BENCH_PLANE, benchState, withoutAcceleration } from './state';
import { SHOWER_FORCES } from './typicalEffect';
import { median, ratioDefaults, timeSteps, type RatioOptions } from './timing';

export interface ColliderRatioOptions extends RatioOptions {
  /** Also time each collider case with the colliders as a pass of their own (`fuseColliders: false`). */
  separate?: boolean;
}

/** One timed configuration: its median milliseconds a step and its ratio to the plain step, round by round. */
export interface ColliderCaseTiming {
  name: string;
  ms: number;
  /** Median over rounds of (this case's time / the plain step's time), each round timing both moments apart. */
  ratio: number;
  ratios: number[];
  /**
   * Fastest round's time over the plain step's fastest: on a machine shared
   * with other work the fastest rounds are the least disturbed ones.
   */
  fastestRatio: number;
}

export interface ColliderRatioResult {
  count: number;
  /** Median milliseconds of one plain step (the default variant, no forces, no colliders). */
  stepMs: number;
  /**
   * 'step+plane', 'gravity+drag+plane', 'step+bouncing plane' (restitution 0.5, friction 0.2), and with
   * `separate` the first two with the colliders as a pass of their own.
   */
  cases: ColliderCaseTiming[];
}

interface Configured {
  name: string;
  system: ParticleSystem;
}

/**
 * Times the plain step, the step with one plane collider and the shower
 * (gravity + drag + plane) on `count` particles, alternating every round.
 * Each configuration is its own system holding the bench state (src/bench/state.ts),
 * the shower's with its acceleration lane zeroed. The device stays the caller's.
 */
export async function measureColliderRatio(
  device: GPUDevice,
  count: number,
  options: ColliderRatioOptions = {},
): Promise<ColliderRatioResult> {
  const { passes, rounds, dt } = ratioDefaults(options);
  const systems: Configured[] = [];
  const open = async (
    name: string,
    init: Omit<GpuParticleSystemOptions, 'capacity'>,
    state: Float32Array<ArrayBuffer>,
    forces: readonly ForceGenerator[],
    plane: ColliderInit = BENCH_PLANE,
  ) => {
    const system = await ParticleSystem.create(device, { capacity: count, ...init });
    systems.push({ name, system });
    // Through the public write, so the system knows what the records hold: the shower's step skips the
    // acceleration|radius lane, as it would for a user who wrote the same records.
    await system.writePacked(0, state);
    for (const generator of forces) system.forces.add(generator);
    if (name !== 'step') await system.setColliders([plane]);
  };
  try {
    const state = benchState(count);
    const shower = withoutAcceleration(state);
    await open('step', {}, state, []);
    await open('step+plane', {}, state, []);
    await open('gravity+drag+plane', {}, shower, SHOWER_FORCES);
    await open('step+bouncing plane', {}, state, [], BENCH_BOUNCING_PLANE);
    if (options.separate) {
      await open('step+plane (separate pass)', { fuseColliders: false }, state, []);
      await open('gravity+drag+plane (separate pass)', { fuseColliders: false }, shower, SHOWER_FORCES);
    }
    const times = systems.map(() => [] as number[]);
    // Round 0 warms up: pipelines, uploads, the driver's first dispatches.
    for (let round = 0; round <= rounds; round++) {
      for (let k = 0; k < systems.length; k++) {
        const time = await timeSteps(device, (systems[k] as Configured).system, dt, passes, {
          label: 'measureColliderRatio',
          scope: 'timing the colliders against the step',
        });
        if (round > 0) (times[k] as number[]).push(time);
      }
    }
    const stepTimes = times[0] as number[];
    return {
      count,
      stepMs: median(stepTimes),
      cases: systems.slice(1).map(({ name }, k) => {
        const own = times[k + 1] as number[];
        const ratios = own.map((t, r) => t / (stepTimes[r] as number));
        const fastestRatio = Math.min(...own) / Math.min(...stepTimes);
        return { name, ms: median(own), ratio: median(ratios), ratios, fastestRatio };
      }),
    };
  } finally {
    for (const { system } of systems) system.destroy();
  }
}
