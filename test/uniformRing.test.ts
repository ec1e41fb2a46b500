/**
 * The one uniform ring (src/gpu/shared/uniformRing.ts) at its limit and past it.
 *
 * The scene is exact in float32, so no tolerance is needed: one particle at
 * rest at x = 0 moving at 1 m/s with no acceleration and damping 1 (pow(1, dt)
 * is exactly 1), stepped with dt_i = i / 1024 for i = 1..n. Every dt and every
 * partial sum of them, n(n + 1) / 2048, has at most 17 significant bits, so x
 * after the steps is exactly n(n + 1) / 2048 on any adapter. A step that read
 * another step's dt from a reused slot would land elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { DEFAULT_RING_SLOTS, UniformRingFullError } from '../src/gpu/shared/uniformRing';
import { useDevice } from './support/gpu';

const gpu = useDevice();
const dtAt = (i: number) => i / 1024;
const exactX = (first: number, last: number) => (last * (last + 1) - (first - 1) * first) / 2 / 1024;

async function movingParticle(): Promise<ParticleSystem> {
  const system = await ParticleSystem.create(gpu.get().device, { capacity: 1 });
  await system.writeParticles(0, [{ position: [0, 0, 0], velocity: [1, 0, 0], damping: 1 }]);
  return system;
}

/** Records steps with dt_first .. dt_last into one encoder, one call each, and submits it. */
function recordDistinctSteps(system: ParticleSystem, first: number, last: number): GPUCommandEncoder {
  const encoder = gpu.get().device.createCommandEncoder();
  for (let i = first; i <= last; i++) system.encodeSteps(encoder, dtAt(i));
  return encoder;
}

describe('uniform ring', () => {
  it(`holds ${DEFAULT_RING_SLOTS} distinct dt values recorded into one encoder, each step reading its own`, async () => {
    const system = await movingParticle();
    try {
      const { device } = gpu.get();
      device.queue.submit([recordDistinctSteps(system, 1, DEFAULT_RING_SLOTS).finish()]);
      system.submitted();
      expect((await system.read()).position[0]).toBe(exactX(1, DEFAULT_RING_SLOTS));
      // Once submitted, the slots are reclaimed: another full ring of new values, still exact.
      device.queue.submit([recordDistinctSteps(system, DEFAULT_RING_SLOTS + 1, 2 * DEFAULT_RING_SLOTS).finish()]);
      system.submitted();
      expect((await system.read()).position[0]).toBe(exactX(1, 2 * DEFAULT_RING_SLOTS));
    } finally {
      system.destroy();
    }
  });

  it('throws naming the limit on the first distinct value past it, before anything is submitted, and stays usable', async () => {
    const system = await movingParticle();
    try {
      let caught: unknown;
      try {
        recordDistinctSteps(system, 1, DEFAULT_RING_SLOTS + 1);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UniformRingFullError);
      expect((caught as Error).message).toMatch(new RegExp(`the limit is ${DEFAULT_RING_SLOTS}`));
      expect((caught as Error).message).toMatch(/^IntegratePass\.params:/);
      // Nothing was submitted: the particle has not moved. Its abandoned encoder is never finished.
      expect((await system.read()).position[0]).toBe(0);
      // After submitted() the system steps again, exactly.
      system.submitted();
      await system.step(dtAt(3));
      expect((await system.read()).position[0]).toBe(dtAt(3));
    } finally {
      system.destroy();
    }
  });

  it('never fills when every call submits its own steps (stepMany), however many distinct dt values', async () => {
    const system = await movingParticle();
    try {
      const calls = DEFAULT_RING_SLOTS + 44; // the 300
      for (let i = 1; i <= calls; i++) await system.stepMany(dtAt(i), 1);
      expect((await system.read()).position[0]).toBe(exactX(1, calls));
    } finally {
      system.destroy();
    }
  });

  it('reuses a slot for repeated contents without counting it again', async () => {
    const system = await movingParticle();
    try {
      const { device } = gpu.get();
      const encoder = device.createCommandEncoder();
      // 10 times the ring's size in steps, but only 2 distinct dt values: never full.
      for (let k = 0; k < 10 * DEFAULT_RING_SLOTS; k++) system.encodeSteps(encoder, dtAt(1 + (k % 2)));
      device.queue.submit([encoder.finish()]);
      system.submitted();
      expect((await system.read()).position[0]).toBe(5 * DEFAULT_RING_SLOTS * (dtAt(1) + dtAt(2)));
    } finally {
      system.destroy();
    }
  });

  // planEmit counts the steps.
  it("gives each step recorded into one encoder the emitters' frame as they were when it was recorded", async () => {
    // dt = 1/64 and a rate of 128 a second: exactly 2 births a step (the 32.32 increment has no fraction).
    const dt = 1 / 64;
    const system = await ParticleSystem.create(gpu.get().device, {
      capacity: 64,
      emitters: [{ rate: 0, lifetime: [10, 10] }],
    });
    try {
      const { device } = gpu.get();
      const emitters = system.emitters;
      if (!emitters) throw new Error('the system has no emitters');
      const encoder = device.createCommandEncoder();
      system.encodeSteps(encoder, dt); // nothing asked for
      emitters.burst(0, 5);
      system.encodeSteps(encoder, dt); // the burst: 5
      emitters.set(0, { rate: 128 });
      system.encodeSteps(encoder, dt, 2); // 2 a step
      emitters.set(0, { rate: 0 });
      system.encodeSteps(encoder, dt); // nothing again: the frame of the first step's contents
      emitters.set(0, { rate: 128 });
      system.encodeSteps(encoder, 2 * dt); // twice the dt: 4
      system.encodeSteps(encoder, dt); // the same emitters, dt again: 2
      device.queue.submit([encoder.finish()]);
      system.submitted();
      const stats = await system.readStats();
      expect(stats.steps).toBe(7);
      expect(stats.emitted).toBe(5 + 2 * 2 + 4 + 2);
    } finally {
      system.destroy();
    }
  });
});
