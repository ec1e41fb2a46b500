/**
 * The emitter cases: a pool of slots churning at a live fraction (with a
 * fountain's forces and plane or without), timed a whole frame at a time,
 * its live count and churn read back around the timed runs.
 */
import type { LifecycleStats } from '../core/emitters/stats';
import { BYTES_PER_LIFE, BYTES_PER_PARTICLE } from '../core/layout';
import { DEFAULT_VARIANT } from '../core/variants';
import { DEFAULT_WORKGROUP_SIZE } from '../gpu/particleSystem';
import { PACKED_LAYOUT, type CaseSpec } from './caseSpec';
import {
  CHURN_LIFETIME,
  churnRate,
  FILL_STEPS,
  FOUNTAIN_PLANE,
  frameCounts,
  liveTarget,
  openChurningPool,
  steadyRate,
  type BenchPool,
} from './emitters';
import { WARM_UP_RUNS } from './options';
import { lifecycleBytes } from './roofline';
import type { GpuTimer } from './timing';
import { SHOWER_FORCES } from './typicalEffect';

/**
 * A system with emitters churning at `fraction` live of `particles` slots
 * (src/bench/emitters.ts): started at its steady state by bursts on the
 * first step, into slots in shuffled order (the slots it holds, or with
 * `spread` any slot of the pool), its counters read back after FILL_STEPS steps, right before
 * the timed runs, and after them. A particle-step is a live particle's: the
 * rate counts the live particles (the mean of the two readbacks), and the
 * bytes are a whole frame's (LIFECYCLE_BYTES in src/bench/roofline.ts) over
 * that live count, with the births and deaths a step the counters saw
 * during the timed runs. `fountain`: with gravity, drag and a ground plane
 * fused into the step (src/bench/emitters.ts FOUNTAIN_PLANE), checked in the
 * system's step passes, and the collision events' bytes counted.
 */
export function emitterCase(
  device: GPUDevice,
  timer: GpuTimer,
  dt: number,
  particles: number,
  { name, fraction, spread, fountain }: BenchPool,
): CaseSpec {
  const targetLive = liveTarget(particles, fraction);
  const slots = spread ? particles : targetLive;
  const rate = churnRate(targetLive, particles, dt);
  // The warm-up's steps are the fill's last ones.
  const steps = Math.max(0, FILL_STEPS - WARM_UP_RUNS);
  // Expected before measuring: deaths (= births) a step at the steady state.
  const expectedDeaths = steadyRate(targetLive, dt) * dt;
  return {
    name,
    particles,
    group: 'emitters',
    backend: 'gpu',
    variant: DEFAULT_VARIANT,
    layout: `${PACKED_LAYOUT}, life records, live and free lists`,
    workgroupSize: DEFAULT_WORKGROUP_SIZE,
    // A fountain's events are not known before it runs: counted from its counters after.
    bytes: lifecycleBytes(targetLive, expectedDeaths, expectedDeaths, fountain ? 0 : null),
    particleStep: 'live particle',
    // Particles 64, life 32, two live lists 8, free list 4, the deaths' and events' bits and indices about 4.25,
    // the words' sums and their scan about 1 (bytes a slot, rounded up).
    memoryBytes: particles * (BYTES_PER_PARTICLE + BYTES_PER_LIFE + 18),
    note:
      `an emitter of ${rate.toFixed(0)} particles/s living ${CHURN_LIFETIME.join('-')} s, started at its ` +
      `steady state by bursts into shuffled slots (${spread ? 'any of the pool' : `the lowest ${slots}`}), ` +
      `${steps + WARM_UP_RUNS} steps before timing; ` +
      'a frame: the step over every slot, age, scan, compact, planEmit, fill, emit (direct dispatches over fixed bounds)' +
      (fountain
        ? `; a fountain: ${SHOWER_FORCES.map((f) => f.type).join(' and ')} from the registry and a plane ` +
          `(y = ${FOUNTAIN_PLANE.offset}, restitution ${FOUNTAIN_PLANE.restitution}) fused into the step`
        : ''),
    open: async () => {
      const pool = { capacity: particles, fraction, spread, fountain, dt, steps, variant: DEFAULT_VARIANT };
      const system = await openChurningPool(device, pool);
      let before: LifecycleStats | null = null;
      return {
        run: (units) => timer.time((encoder) => system.encodeSteps(encoder, dt, units), name),
        beforeTiming: async () => {
          before = await system.readStats();
        },
        afterTiming: async () => {
          if (!before) throw new Error(`${name}: no readback before the timed runs`);
          const counts = frameCounts(before, await system.readStats());
          const live = (counts.liveBefore + counts.liveAfter) / 2;
          return {
            particlesPerStep: live,
            bytes: lifecycleBytes(live, counts.births, counts.deaths, fountain ? counts.hits : null),
            lifecycle: {
              capacity: particles,
              targetFraction: fraction,
              targetLive,
              liveSpreadOverPool: spread,
              rate,
              lifetime: CHURN_LIFETIME,
              fillSteps: steps + WARM_UP_RUNS,
              liveBeforeTiming: counts.liveBefore,
              liveAfterTiming: counts.liveAfter,
              liveError: (counts.liveBefore - targetLive) / targetLive,
              timedSteps: counts.steps,
              birthsPerStep: counts.births,
              deathsPerStep: counts.deaths,
              shortfallPerStep: counts.shortfall,
              ...(fountain
                ? {
                    fountain: {
                      forces: system.forces.handles.map((handle) => handle.generator.type),
                      colliders: [FOUNTAIN_PLANE.type],
                      stepPasses: system.stepPasses,
                      hitsPerStep: counts.hits,
                    },
                  }
                : {}),
            },
          };
        },
        close: () => system.destroy(),
      };
    },
  };
}
