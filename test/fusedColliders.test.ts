/**
 * The colliders fused into the step (shaders/collisions/fusedColliders.wgsl, compiled
 * for the collider set's composition) against the colliders pass after the
 * step (shaders/collisions/collide.wgsl), on the same adapter from the same state: both
 * paths do the same float32 operations in the same order (the fused
 * functions repeat collide.wgsl's arithmetic for their kind, and both share
 * shaders/collisions/worldContact.wgsl), so they agree bit for bit on an adapter that
 * rounds each operation, as SwiftShader does; the CPU twin's agreement with
 * the fused path, within the carried bound, is test/colliders.test.ts's (the
 * fused path is the default). Also: the pipeline follows setColliders and
 * links, and the step that skips the force accumulator still applies forces
 * added after it.
 */
import { describe, expect, it } from 'vitest';
import { prepareColliders, type ColliderInit } from '../src/core/collisions/colliders';
import { colliderComposition, colliderCompositionKey } from '../src/core/collisions/colliderComposition';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import type { ParticleInit } from '../src/core/particles';
import { ParticleSystem, type GpuParticleSystemOptions } from '../src/gpu/particleSystem';
import { useDevice } from './support/gpu';
import { seededRandom } from './support/random';

const gpu = useDevice();
const DT = 1 / 60;
const SKIN = 1e-4;

/** Particles in a cube around the origin, thrown in random directions under gravity; some immovable. */
function cloud(count: number, seed: number, spread = 3): ParticleInit[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => ({
    position: [0, 1, 2].map(() => (random() * 2 - 1) * spread),
    velocity: [0, 1, 2].map(() => (random() * 2 - 1) * 8),
    acceleration: [0, -9.81, 0],
    damping: 0.99,
    radius: 0.02 + random() * 0.3,
    ...(i % 13 === 7 ? { inverseMass: 0 } : { mass: 0.2 + random() * 3 }),
  }));
}

const SCENES: Record<string, ColliderInit[]> = {
  // Restitution and friction 0 (the bench's plane): compiled without the resting test and the friction's arithmetic.
  'an inelastic, frictionless ground': [{ type: 'plane', normal: [0, 1, 0], offset: -1 }],
  // Restitution -0 is packed as +0, which the fused step takes a collider without restitution to hold.
  'a ground with restitution -0 and friction': [
    { type: 'plane', normal: [0, 1, 0], offset: -1, restitution: -0, friction: 0.3 },
  ],
  // Axis-aligned planes (the normal written into the fused step as a constant), a ceiling among them.
  'walls along each axis': [
    { type: 'plane', normal: [1, 0, 0], offset: -2, restitution: 0.5 },
    { type: 'plane', normal: [0, 0, -1], offset: -2, friction: 0.5 },
    { type: 'plane', normal: [0, -1, 0], offset: -3, restitution: 0.2, friction: 0.1 },
  ],
  'a ground plane with friction': [{ type: 'plane', normal: [0, 1, 0], offset: -1, restitution: 0.5, friction: 0.4 }],
  'a tilted plane': [{ type: 'plane', normal: [0.3, 1, -0.2], offset: 0.5, restitution: 0.8 }],
  'a sphere, outside': [{ type: 'sphere', center: [0.5, 0, 0], radius: 1.5, restitution: 0.6, friction: 0.2 }],
  'a sphere, inside': [{ type: 'sphere', center: [0, 0, 0], radius: 4, inside: true, restitution: 0.3 }],
  'a box, outside': [{ type: 'box', center: [0, 0, 0], halfExtents: [1, 0.7, 1.2], restitution: 0.4, friction: 0.3 }],
  'an oriented box, inside': [
    {
      type: 'orientedBox',
      center: [0, 0, 0],
      halfExtents: [4, 3.5, 4.5],
      rotation: [0.1, 0.3, -0.2, 0.9],
      inside: true,
      restitution: 0.7,
    },
  ],
  'a kill plane under a sphere': [
    { type: 'sphere', center: [0, 0, 0], radius: 1, restitution: 0.5 },
    { type: 'plane', normal: [0, 1, 0], offset: -1.5, kill: true },
  ],
  'every kind at once': [
    { type: 'plane', normal: [0, 1, 0], offset: -2, restitution: 0.5, friction: 0.5 },
    { type: 'sphere', center: [1, 0, 0], radius: 1, restitution: 0.9 },
    { type: 'box', center: [-1, 1, 0], halfExtents: [0.5, 0.5, 0.5], friction: 1 },
    { type: 'sphere', center: [0, 0, 0], radius: 5, inside: true, restitution: 0.2 },
    { type: 'box', center: [0, 0, 0], halfExtents: [4, 4, 4], inside: true, kill: true },
  ],
};

async function system(
  particles: ParticleInit[],
  colliders: ColliderInit[],
  options: Partial<GpuParticleSystemOptions> = {},
): Promise<ParticleSystem> {
  const created = await ParticleSystem.create(gpu.get().device, {
    capacity: particles.length,
    collisions: { colliders, skin: SKIN },
    ...options,
  });
  await created.writeParticles(0, particles);
  return created;
}

/** The first word where two packed states differ, named, or null when they are the same bits. */
function firstDifference(a: Float32Array, b: Float32Array): string | null {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) return `word ${i} (particle ${i >> 4}, float ${i & 15}): ${a[i]} fused, ${b[i]} separate`;
  }
  return null;
}

describe('colliders fused into the step', () => {
  it.each(Object.entries(SCENES))(
    '%s: the same bits as the colliders pass, after 1 and 60 steps',
    async (_, colliders) => {
      const particles = cloud(500, 7);
      const fused = await system(particles, colliders);
      const separate = await system(particles, colliders, { fuseColliders: false });
      const free = await system(particles, []);
      try {
        expect(fused.stepPasses).toEqual(['integrate+colliders']);
        expect(separate.stepPasses).toEqual(['integrate', 'collisions']);
        for (const steps of [1, 59]) {
          await fused.stepMany(DT, steps);
          await separate.stepMany(DT, steps);
          expect(firstDifference(await fused.readPacked(), await separate.readPacked())).toBeNull();
        }
        // The colliders did something: the same particles without them end elsewhere.
        await free.stepMany(DT, 60);
        expect(firstDifference(await fused.readPacked(), await free.readPacked())).not.toBeNull();
      } finally {
        fused.destroy();
        separate.destroy();
        free.destroy();
      }
    },
  );

  it('semi-implicit with per-step damping, and with fused forces: the same bits', async () => {
    const particles = cloud(300, 11);
    const colliders = SCENES['every kind at once'] as ColliderInit[];
    const variant = { integrator: 'semi-implicit', damping: 'per-step' } as const;
    const fused = await system(particles, colliders, variant);
    const separate = await system(particles, colliders, { ...variant, fuseColliders: false });
    try {
      for (const s of [fused, separate]) s.forces.add({ type: 'drag', k1: 0.1, k2: 0.02 });
      expect(fused.stepPasses).toEqual(['integrate+forces+colliders']);
      expect(separate.stepPasses).toEqual(['integrate+forces', 'collisions']);
      await fused.stepMany(DT, 30);
      await separate.stepMany(DT, 30);
      expect(firstDifference(await fused.readPacked(), await separate.readPacked())).toBeNull();
    } finally {
      fused.destroy();
      separate.destroy();
    }
  });

  it('follows the collider set: a new composition, links (the colliders pass), none', async () => {
    const particles = cloud(200, 3);
    const first = SCENES['a ground plane with friction'] as ColliderInit[];
    const fused = await system(particles, first);
    const separate = await system(particles, first, { fuseColliders: false });
    const same = async () => {
      await fused.stepMany(DT, 5);
      await separate.stepMany(DT, 5);
      expect(firstDifference(await fused.readPacked(), await separate.readPacked())).toBeNull();
    };
    try {
      await same();
      for (const colliders of [SCENES['a sphere, inside'], SCENES['every kind at once']] as ColliderInit[][]) {
        await fused.setColliders(colliders);
        await separate.setColliders(colliders);
        expect(fused.stepPasses).toEqual(['integrate+colliders']);
        await same();
      }
      // Moved, same kinds: the same pipeline, the new table.
      const moved: ColliderInit[] = [
        { type: 'sphere', center: [0, 1, 0], radius: 3.5, inside: true, restitution: 0.9 },
      ];
      await fused.setColliders(moved);
      await separate.setColliders(moved);
      await same();
      // Restitution and friction turned to 0 and back: each a composition of its own.
      for (const surface of [{}, { restitution: 0.4 }, { friction: 0.7 }, { restitution: 0.9, friction: 0.1 }]) {
        const colliders: ColliderInit[] = [
          { type: 'sphere', center: [0, 1, 0], radius: 3.5, inside: true, ...surface },
        ];
        await fused.setColliders(colliders);
        await separate.setColliders(colliders);
        await same();
      }
      // A link brings the contact resolver: the colliders run as a pass again, in its iterations.
      const links = [{ a: 0, b: 1, type: 'cable' as const, maxLength: 2 }];
      await fused.setLinks(links);
      await separate.setLinks(links);
      expect(fused.stepPasses).toEqual(['integrate', 'collisions']);
      await same();
      await fused.setColliders([]);
      await fused.setLinks([]);
      expect(fused.stepPasses).toEqual(['integrate']);
    } finally {
      fused.destroy();
      separate.destroy();
    }
  });
});

describe('the composition the fused step is compiled for', () => {
  it('says which colliders bounce, which have friction and which planes lie along an axis; restitution -0 is packed as +0', () => {
    const packed = prepareColliders([
      { type: 'plane', normal: [0, 1, 0] },
      { type: 'sphere', center: [0, 0, 0], radius: 1, restitution: 0.5 },
      { type: 'box', center: [0, 0, 0], halfExtents: [1, 1, 1], inside: true, friction: 0.2, kill: true },
      { type: 'plane', normal: [0, 0, -2], restitution: -0, friction: 0 },
      { type: 'plane', normal: [0, 1, 1] },
    ]);
    expect(colliderComposition(packed)).toEqual([
      { kind: 'plane', inside: false, kill: false, bounce: false, friction: false, normal: [0, 1, 0] },
      { kind: 'sphere', inside: false, kill: false, bounce: true, friction: false, normal: null },
      { kind: 'box', inside: true, kill: true, bounce: false, friction: true, normal: null },
      { kind: 'plane', inside: false, kill: false, bounce: false, friction: false, normal: [0, 0, -1] },
      { kind: 'plane', inside: false, kill: false, bounce: false, friction: false, normal: null },
    ]);
    expect(colliderCompositionKey(colliderComposition(packed))).toBe(
      'plane(0,1,0),sphere-bounce,box-inside-kill-friction,plane(0,0,-1),plane',
    );
    expect(Object.is(packed.get(3, 'restitution'), 0)).toBe(true);
  });
});

describe('the step without the force accumulator', () => {
  it('applies forces added, accumulated or written after steps that skipped it, as the CPU reference does', async () => {
    const particles = cloud(64, 5);
    const gpuSystem = await ParticleSystem.create(gpu.get().device, { capacity: particles.length });
    const cpu = new CpuParticleSystem({ capacity: particles.length, precision: 'float32' });
    try {
      const forces = Float32Array.from({ length: particles.length * 3 }, (_, i) => ((i * 7919) % 23) - 11);
      for (const s of [gpuSystem, cpu]) {
        await s.writeParticles(0, particles);
        // The first step reads the written accumulators; the next ones skip them.
        await s.stepMany(DT, 3);
        await s.addForces(0, forces);
        await s.step(DT);
        await s.stepMany(DT, 2);
        s.forces.add({ type: 'gravity', g: [0, -3, 0] });
        await s.accumulateForces(DT);
        s.forces.clear();
        await s.step(DT);
        // Particle 7 is immovable: its steps skipped it, and it still holds the forces added above.
        await s.setField('mass', 7, [2]);
        await s.step(DT);
      }
      // The step's operations, in the same order on both: bit for bit on an adapter that rounds each one.
      const [a, b] = [await gpuSystem.readPacked(), await cpu.readPacked()];
      expect(firstDifference(a, b)).toBeNull();
      // And the forces did something: a state without them differs.
      const without = new CpuParticleSystem({ capacity: particles.length, precision: 'float32' });
      await without.writeParticles(0, particles);
      await without.stepMany(DT, 9);
      expect(firstDifference(a, await without.readPacked())).not.toBeNull();
      without.destroy();
    } finally {
      gpuSystem.destroy();
      cpu.destroy();
    }
  });
});
