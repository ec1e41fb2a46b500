/**
 * profileFrame (src/bench/profileFrame.ts), which scripts/profile-lifecycle.ts times pass by
 * pass: its passes, recorded in order, are the frame the system steps, so a
 * profile times the real work (a fountain's forces and plane fused into the
 * step, the collision events, the lifecycle) and not a stand-in.
 */
import { describe, expect, it } from 'vitest';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { profileFrame } from '../src/bench/profileFrame';
import { FOUNTAIN_PLANE, FOUNTAIN_STEP_PASS } from '../src/bench/emitters';
import { SHOWER_FORCES } from '../src/bench/typicalEffect';
import { useDevice } from './support/gpu';

const gpu = useDevice();
const DT = 1 / 60;

async function fountain(): Promise<ParticleSystem> {
  const system = await ParticleSystem.create(gpu.get().device, {
    capacity: 4096,
    emitters: [
      {
        rate: 3000,
        burst: 1500,
        lifetime: [0.8, 1.6],
        shape: { type: 'disc', radius: 0.2 },
        velocity: { direction: [0, 1, 0], spread: 0.3, speed: [0.5, 1] },
        seed: 9,
      },
    ],
    collisions: { colliders: [FOUNTAIN_PLANE] },
  });
  for (const generator of SHOWER_FORCES) system.forces.add(generator);
  return system;
}

describe('profileFrame', () => {
  it("a fountain's frame as passes: the same bits, lists and counts as the step", async () => {
    const stepped = await fountain();
    const profiled = await fountain();
    const device = gpu.get().device;
    try {
      expect(stepped.stepPasses).toEqual([FOUNTAIN_STEP_PASS, 'lifecycle']);
      // Long enough for deaths and for bounces on the plane 2 below (collision events): about 44 steps to fall there.
      await stepped.stepMany(DT, 60);
      await profiled.stepMany(DT, 60);
      const passes = profileFrame(profiled, DT);
      expect(passes.map((p) => p.name)).toEqual([
        `step+age (${FOUNTAIN_STEP_PASS})`,
        'deathWords+scan0',
        'scan',
        'scan top+planEmit',
        'compact',
        'fill',
        'emit',
      ]);
      await stepped.stepMany(DT, 1);
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      for (const p of passes) p.record(pass);
      pass.end();
      device.queue.submit([encoder.finish()]);
      profiled.submitted();
      const [a, b] = await Promise.all([stepped.readStats(), profiled.readStats()]);
      expect(b).toEqual(a);
      // The frame did what a fountain's frames do: deaths, births and collision events.
      expect(a.killed).toBeGreaterThan(0);
      expect(a.emitters[0]?.hits).toBeGreaterThan(0);
      expect(await profiled.readPacked()).toEqual(await stepped.readPacked());
      expect(await profiled.readLifecycle()).toEqual(await stepped.readLifecycle());
    } finally {
      stepped.destroy();
      profiled.destroy();
    }
  });

  it('refuses a system without emitters, and a bad dt, by name', async () => {
    const plain = await ParticleSystem.create(gpu.get().device, { capacity: 8 });
    const pool = await fountain();
    try {
      expect(() => profileFrame(plain, DT)).toThrow(/emitters/);
      expect(() => profileFrame(pool, 0)).toThrow(/dt/);
    } finally {
      plain.destroy();
      pool.destroy();
    }
  });
});
