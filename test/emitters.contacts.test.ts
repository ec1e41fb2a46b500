/**
 * Particle contacts in a pool with emitters. On a software adapter (indirect
 * dispatch) the contact resolver keeps its tables by grid entry and runs its
 * counts and resolves over the grid's entries alone, dispatched with
 * arguments its candidate lists write (src/gpu/contactPass.ts, ContactOrder
 * 'entries'): the free slots, out of the grid, then cost it no invocation.
 * With direct dispatch (a GPU's way) it keeps them by particle and walks
 * every slot ('particles'), as a pool without emitters does. The iterations'
 * apply passes walk as the step did: the live list or every slot (indirect),
 * every slot (direct). Both visit the
 * same pairs in the same order, so a churning pool stepped either way must
 * give the same state byte for byte: no tolerance. With links between
 * permanent particles too (then the entries' passes also visit, past the
 * entries, the particles out of the grid for their links).
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
  ])(
    'give the same state byte for byte over the grid entries (indirect dispatch) and over every slot (direct)%s',
    async (_, withLinks) => {
      const { device, adapterInfo } = gpu.get();
      const make = async (dispatch: 'indirect' | 'direct', particleCollisions = true) => {
        const system = await ParticleSystem.create(device, {
          capacity: CAPACITY,
          permanent: PERMANENT,
          emitters: EMITTERS,
          dispatch,
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
      const entries = await make('indirect');
      const particles = await make('direct');
      const without = await make('indirect', false);
      const all = [entries, particles, without];
      try {
        let sawLow = false;
        let sawHigh = false;
        for (const [rate, frames] of [
          [HIGH_RATE, 12],
          [LOW_RATE, 24],
          [HIGH_RATE, 8],
        ] as const) {
          for (const system of all) system.emitters!.set(0, { rate });
          for (let frame = 0; frame < frames; frame++) {
            for (const system of all) await system.stepMany(DT, 1);
            expectSameBytes(await entries.snapshot(), await particles.snapshot(), `rate ${rate}, frame ${frame}`);
            const live = (await entries.readStats()).live;
            sawLow ||= live < CAPACITY / 4;
            sawHigh ||= live > CAPACITY / 2;
          }
        }
        // The resolver walked the entries where the adapter is a software one, every slot under direct dispatch.
        expect(entries.collisionPasses!.contacts!.order).toBe(adapterInfo.software ? 'entries' : 'particles');
        expect(particles.collisionPasses!.contacts!.order).toBe('particles');
        // The pool was mostly free slots for a while, and full for a while; contacts and deaths happened.
        expect(sawLow && sawHigh).toBe(true);
        const withContacts = await entries.readPacked();
        const withoutContacts = await without.readPacked();
        expect(Buffer.from(withContacts.buffer).equals(Buffer.from(withoutContacts.buffer))).toBe(false);
        expect((await entries.readStats()).killed).toBeGreaterThan(CAPACITY);
      } finally {
        for (const system of all) system.destroy();
      }
    },
  );
});
