/**
 * Particle contacts in a pool with emitters. The contact resolver's passes
 * walk every slot (a free slot, parked out of the grid, has no contacts), as
 * in a pool without emitters; the iterations' apply passes walk as the step
 * did: the live list or every slot (indirect dispatch), every slot (direct).
 * The resolver visits the same pairs in the same order either way, so a
 * churning pool stepped either way must give the same state byte for byte:
 * no tolerance. With links between permanent particles too. The deprecated
 * `contactOrder` option is ignored.
 */
import { describe, expect, it } from 'vitest';
import type { EmitterInit } from '../src/core/emitters/types';
import type { LinkInit } from '../src/core/collisions/links';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { expectSameBytes } from './support/galleryScenes';
import { useDevice } from './support/gpu';

const gpu = useDevice();
const DT = 1 / 60;
const CAPACITY = 1000;
const PERMANENT = 4;
const HIGH_RATE = 3000;
const LOW_RATE = 200;

/** Balls of radius 0.05 born in a sphere of 0.4 (crowded: many touch), falling on a floor; some into a kill sphere. */
const EMITTERS: EmitterInit[] = [
  {
    rate: HIGH_RATE,
    burst: 600,
    lifetime: [0.2, 0.6],
    radius: 0.05,
    shape: { type: 'sphere', radius: 0.4 },
    velocity: { spread: Math.PI, speed: [0.5, 2] },
    acceleration: [0, -9.81, 0],
  },
];
const COLLIDERS = [
  { type: 'plane' as const, normal: [0, 1, 0] as [number, number, number], offset: -0.6, restitution: 0.3 },
  { type: 'sphere' as const, center: [0.5, -0.4, 0] as [number, number, number], radius: 0.2, kill: true },
];
/** Two permanent pairs among the balls: a rod and a cable. */
const LINKS: LinkInit[] = [
  { type: 'rod', a: 0, b: 1, length: 0.2 },
  { type: 'cable', a: 2, b: 3, maxLength: 0.3, restitution: 0.5 },
];
const PERMANENT_PARTICLES = [
  { position: [-0.1, 0, 0], radius: 0.05 },
  { position: [0.1, 0, 0], radius: 0.05 },
  { position: [0, 0.2, 0.1], radius: 0.05 },
  { position: [0, -0.05, 0.1], radius: 0.05 },
] as const;

describe('particle contacts in a pool with emitters', () => {
  it.each([
    ['', false],
    [', with links between permanent particles', true],
  ])('resolve contacts while the pool empties and fills, the apply passes over every slot%s', async (_, withLinks) => {
    const { device } = gpu.get();
    const make = async (particleCollisions = true) => {
      const system = await ParticleSystem.create(device, {
        capacity: CAPACITY,
        permanent: PERMANENT,
        emitters: EMITTERS,
        collisions: {
          particleCollisions,
          iterations: 8,
          colliders: COLLIDERS,
          ...(withLinks ? { links: LINKS } : {}),
        },
      });
      await system.writeParticles(
        0,
        PERMANENT_PARTICLES.map((p) => ({ position: [...p.position] as [number, number, number], radius: p.radius })),
      );
      return system;
    };
    const system = await make();
    const without = await make(false);
    const all = [system, without];
    try {
      let sawLow = false;
      let sawHigh = false;
      for (const [rate, frames] of [
        [HIGH_RATE, 12],
        [LOW_RATE, 24],
        [HIGH_RATE, 8],
      ] as const) {
        for (const each of all) each.emitters!.set(0, { rate });
        for (let frame = 0; frame < frames; frame++) {
          for (const each of all) await each.stepMany(DT, 1);
          const live = (await system.readStats()).live;
          sawLow ||= live < CAPACITY / 4;
          sawHigh ||= live > 0.75 * CAPACITY;
        }
      }
      // The pool was mostly free slots for a while, and full for a while; contacts and deaths happened.
      expect(sawLow && sawHigh).toBe(true);
      const withContacts = await system.readPacked();
      const withoutContacts = await without.readPacked();
      expect(Buffer.from(withContacts.buffer).equals(Buffer.from(withoutContacts.buffer))).toBe(false);
      expect((await system.readStats()).killed).toBeGreaterThan(CAPACITY);
    } finally {
      for (const each of all) each.destroy();
    }
  });

  it('ignore the deprecated contactOrder option, and step a restored pool to the same bytes', async () => {
    const { device } = gpu.get();
    // One burst that outlives the test.
    const burst = Math.ceil(0.8 * CAPACITY);
    const options = {
      capacity: CAPACITY,
      emitters: [{ ...EMITTERS[0]!, rate: 0, burst, lifetime: 1e6 }],
      collisions: { particleCollisions: true, iterations: 2 },
    };
    const system = await ParticleSystem.create(device, options);
    const ordered = await ParticleSystem.create(device, { ...options, contactOrder: 'entries' });
    try {
      for (let step = 0; step < 3; step++) {
        await system.stepMany(DT, 1);
        await ordered.stepMany(DT, 1);
        expectSameBytes(await ordered.snapshot(), await system.snapshot(), `step ${step}, contactOrder 'entries'`);
      }
      const restored = await ParticleSystem.restore(device, await system.snapshot());
      try {
        await restored.stepMany(DT, 1);
        await system.stepMany(DT, 1);
        expectSameBytes(await restored.snapshot(), await system.snapshot(), 'restored');
      } finally {
        restored.destroy();
      }
      expect((await system.readStats()).live).toBe(burst);
    } finally {
      ordered.destroy();
      system.destroy();
    }
  });
});
