/**
 * The forces of a typical effect (gravity, drag, one attractor, turbulence)
 * against the integration step, timed in one run on one device: the cost the
 * force registry adds to a frame, as a ratio. The rounds alternate the three
 * (force pass, fused step, bare step), so a ratio compares timings taken
 * moments apart, not minutes apart as the harness's separate cases are.
 * Used by `npm run bench:forces` (scripts/bench-forces.ts) and by the main
 * benchmark for the forces issue's target.
 */
import type { ParticleInit } from '../core/particles';
import { withHeldErrorScopes } from '../gpu/device/errors';
import { ParticleSystem } from '../gpu/particleSystem';
import { TYPICAL_EFFECT } from './typicalEffect';
import { median, ratioDefaults, type RatioOptions } from './timing';

/** Each round times the forces, then the step. */
export type ForceRatioOptions = RatioOptions;

export interface ForceRatioResult {
  count: number;
  /** Median milliseconds of one force pass (all four generators, one dispatch). */
  forceMs: number;
  /** Median milliseconds of one integration step (explicit, per-second damping: the default). */
  stepMs: number;
  /** Median over rounds of (force pass time / step time), each round timing both back to back. */
  ratio: number;
  /** Every round's ratio, to show the spread. */
  ratios: number[];
  /** Median milliseconds of one step with the same forces fused into it (the default, shaders/forces/integrateForces.wgsl). */
  fusedMs: number;
  /** Median over rounds of (fused step time - step time) / step time: what the forces add when fused. */
  fusedRatio: number;
  fusedRatios: number[];
}

/** Spread-out particles in motion, so drag, the attractor and the turbulence see varied input. */
function particles(count: number): ParticleInit[] {
  let seed = 12345;
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296;
  };
  return Array.from({ length: count }, () => ({
    position: [random() * 20 - 10, random() * 20 - 10, random() * 20 - 10],
    velocity: [random() * 4 - 2, random() * 4 - 2, random() * 4 - 2],
    mass: 0.5 + random(),
    damping: 0.99,
  }));
}

/**
 * Wall-clock of `passesPerSubmit` passes in one command buffer, submit to
 * onSubmittedWorkDone, per pass. Wall-clock rather than timestamp queries
 * because the system records its own compute passes; with several passes a
 * submit, the submit overhead is shared out.
 */
async function timePasses(
  device: GPUDevice,
  passes: number,
  record: (encoder: GPUCommandEncoder) => void,
): Promise<number> {
  const encoder = device.createCommandEncoder({ label: 'measureForceToStepRatio' });
  for (let k = 0; k < passes; k++) record(encoder);
  const commands = encoder.finish();
  const started = performance.now();
  device.queue.submit([commands]);
  await device.queue.onSubmittedWorkDone();
  return (performance.now() - started) / passes;
}

/**
 * Times the typical effect's force pass and the integration step on `count`
 * particles, alternating the two every round. The device stays the caller's.
 */
export async function measureForceToStepRatio(
  device: GPUDevice,
  count: number,
  options: ForceRatioOptions = {},
): Promise<ForceRatioResult> {
  const system = await ParticleSystem.create(device, { capacity: count });
  const { passes, rounds, dt } = ratioDefaults(options);
  try {
    await system.writeParticles(0, particles(count));
    const forceTimes: number[] = [];
    const stepTimes: number[] = [];
    const fusedTimes: number[] = [];
    const ratios: number[] = [];
    const fusedRatios: number[] = [];
    // Round 0 warms up: pipelines, the table upload, the driver's first dispatches.
    for (let round = 0; round <= rounds; round++) {
      for (const generator of TYPICAL_EFFECT) system.forces.add(generator);
      const force = await withHeldErrorScopes(device, 'timing the force pass', () =>
        timePasses(device, passes, (encoder) => system.encodeForces(encoder, dt)),
      );
      // With field forces only, encodeSteps runs them fused into the step.
      const fused = await withHeldErrorScopes(device, 'timing the fused step', () =>
        timePasses(device, passes, (encoder) => system.encodeSteps(encoder, dt, 1)),
      );
      // The same system without generators: encodeSteps records the bare step.
      system.forces.clear();
      const step = await withHeldErrorScopes(device, 'timing the step', () =>
        timePasses(device, passes, (encoder) => system.encodeSteps(encoder, dt, 1)),
      );
      if (round === 0) continue;
      forceTimes.push(force);
      stepTimes.push(step);
      fusedTimes.push(fused);
      ratios.push(force / step);
      fusedRatios.push((fused - step) / step);
    }
    return {
      count,
      forceMs: median(forceTimes),
      stepMs: median(stepTimes),
      ratio: median(ratios),
      ratios,
      fusedMs: median(fusedTimes),
      fusedRatio: median(fusedRatios),
      fusedRatios,
    };
  } finally {
    system.destroy();
  }
}
