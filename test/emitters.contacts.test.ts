/**
 * Particle contacts in a pool with emitters. On a software adapter (indirect
 * dispatch) the contact resolver keeps its tables by grid entry and runs its
 * counts and resolves over the grid's entries alone, dispatched with
 * arguments its candidate lists write (src/gpu/contactPass.ts, ContactOrder
 * 'entries'): the free slots, out of the grid, then cost it no invocation.
 * With direct dispatch (a GPU's way) it keeps them by particle and walks
 * every slot ('particles'), as a pool without emitters does. The iterations'
 * apply passes walk as the step did: the live list or every slot (indirect),
 * every slot (direct). By default ('auto') a software adapter's steps take
 * the entries while the live count last read back is below ENTRIES_BELOW of
 * the slots, and the particle order above. Every order visits the same pairs
 * in the same order, so a churning pool stepped any way (the entries always,
 * the order switching with the live count, every slot directly) must give the
 * same state byte for byte: no tolerance. With links between permanent
 * particles too (then the entries' passes also visit, past the entries, the
 * particles out of the grid for their links).
 */
import { describe, expect, it } from 'vitest';
import type { EmitterInit } from '../src/core/emitters/types';
import type { LinkInit } from '../src/core/collisions/links';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { contactOrderFor, contactOrdersFor, ENTRIES_BELOW, type ContactOrder } from '../src/gpu/contactPass';
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
    'give the same state byte for byte over the grid entries, in the order the live count chooses (indirect dispatch) and over every slot (direct)%s',
    async (_, withLinks) => {
      const { device, adapterInfo } = gpu.get();
      const make = async (
        dispatch: 'indirect' | 'direct',
        contactOrder: ContactOrder | 'auto',
        particleCollisions = true,
      ) => {
        const system = await ParticleSystem.create(device, {
          capacity: CAPACITY,
          permanent: PERMANENT,
          emitters: EMITTERS,
          dispatch,
          contactOrder,
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
      const entries = await make('indirect', 'entries');
      const chosen = await make('indirect', 'auto');
      const particles = await make('direct', 'auto');
      const without = await make('indirect', 'auto', false);
      const all = [entries, chosen, particles, without];
      try {
        let sawLow = false;
        let sawHigh = false;
        // The order each of the chosen system's steps took, and whether the live count said so.
        const chosenOrders = new Set<string>();
        let estimate = PERMANENT;
        for (const [rate, frames] of [
          [HIGH_RATE, 12],
          [LOW_RATE, 24],
          [HIGH_RATE, 8],
        ] as const) {
          for (const system of all) system.emitters!.set(0, { rate });
          for (let frame = 0; frame < frames; frame++) {
            for (const system of all) await system.stepMany(DT, 1);
            const order = chosen.collisionPasses!.contacts!.order;
            chosenOrders.add(order);
            if (adapterInfo.software) expect(order).toBe(estimate < ENTRIES_BELOW * CAPACITY ? 'entries' : 'particles');
            const reference = await particles.snapshot();
            expectSameBytes(await entries.snapshot(), reference, `rate ${rate}, frame ${frame}, entries`);
            expectSameBytes(await chosen.snapshot(), reference, `rate ${rate}, frame ${frame}, ${order}`);
            const live = (await entries.readStats()).live;
            // Read back, so the chosen system's next step orders by this frame's count.
            estimate = (await chosen.readStats()).live;
            expect(estimate).toBe(live);
            sawLow ||= live < CAPACITY / 4;
            sawHigh ||= live > ENTRIES_BELOW * CAPACITY;
          }
        }
        // The resolver walked the entries where the adapter is a software one, every slot under direct dispatch;
        // by default a software adapter's steps took both orders, by the live count.
        expect(entries.collisionPasses!.contacts!.order).toBe(adapterInfo.software ? 'entries' : 'particles');
        expect(particles.collisionPasses!.contacts!.order).toBe('particles');
        expect([...chosenOrders].sort()).toEqual(adapterInfo.software ? ['entries', 'particles'] : ['particles']);
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

  it('take the orders the contactOrder option allows, and refuse an unknown one before building anything', async () => {
    expect(contactOrdersFor(undefined, true, 'indirect')).toEqual(['entries', 'particles']);
    expect(contactOrdersFor('auto', true, 'direct')).toEqual(['particles']);
    expect(contactOrdersFor('auto', false, 'indirect')).toEqual(['particles']);
    expect(contactOrdersFor('entries', false, 'direct')).toEqual(['entries']);
    expect(contactOrdersFor('particles', true, 'indirect')).toEqual(['particles']);
    expect(contactOrderFor(Math.ceil(ENTRIES_BELOW * CAPACITY) - 1, CAPACITY)).toBe('entries');
    expect(contactOrderFor(Math.ceil(ENTRIES_BELOW * CAPACITY), CAPACITY)).toBe('particles');
    const { device } = gpu.get();
    await expect(
      ParticleSystem.create(device, {
        capacity: CAPACITY,
        emitters: EMITTERS,
        collisions: { particleCollisions: true },
        contactOrder: 'cells' as 'auto',
      }),
    ).rejects.toThrow(/contactOrder = "cells" must be 'auto', 'particles' or 'entries'/);
  });

  it('read the live count back after each step (and a restore) by themselves, and order the next step by it', async () => {
    const { device, adapterInfo } = gpu.get();
    // One burst that outlives the test: past ENTRIES_BELOW of the pool live from the first step on.
    const burst = Math.ceil(0.8 * CAPACITY);
    const system = await ParticleSystem.create(device, {
      capacity: CAPACITY,
      emitters: [{ ...EMITTERS[0], rate: 0, burst, lifetime: 1e6 }],
      collisions: { particleCollisions: true, iterations: 2 },
    });
    try {
      const lifecycle = system.lifecycle!;
      expect(lifecycle.liveEstimate).toBe(0);
      await system.stepMany(DT, 1);
      expect(system.collisionPasses!.contacts!.order).toBe(adapterInfo.software ? 'entries' : 'particles');
      // No readStats: the step's own read of the count, which resolves after the GPU has done the step.
      await device.queue.onSubmittedWorkDone();
      for (let wait = 0; wait < 200 && lifecycle.liveEstimate !== burst; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(lifecycle.liveEstimate).toBe(burst);
      await system.stepMany(DT, 1);
      expect(system.collisionPasses!.contacts!.order).toBe('particles');
      // A restored system reads its restored count back the same way, before its first step.
      const restored = await ParticleSystem.restore(device, await system.snapshot());
      try {
        await device.queue.onSubmittedWorkDone();
        for (let wait = 0; wait < 200 && restored.lifecycle!.liveEstimate !== burst; wait++) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        expect(restored.lifecycle!.liveEstimate).toBe(burst);
        await restored.stepMany(DT, 1);
        expect(restored.collisionPasses!.contacts!.order).toBe('particles');
        expectSameBytes(await restored.snapshot(), (await system.stepMany(DT, 1), await system.snapshot()), 'restored');
      } finally {
        restored.destroy();
      }
      expect((await system.readStats()).live).toBe(burst);
    } finally {
      system.destroy();
    }
  });
});
