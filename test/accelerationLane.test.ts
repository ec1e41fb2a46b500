/**
 * The step without the acceleration|radius lane (ACCELERATION_LANE of
 * shaders/step/integrate.wgsl): chosen when every movable particle's acceleration
 * is +0 (gravity from the registry), and its radius too with the colliders
 * fused in, and left as soon as a write may put anything else there. The
 * lane it skips holds the +0 it uses instead, so the results are the same
 * bits: against the CPU reference for the plain step (the same float32
 * operations in the same order, bit for bit on an adapter that rounds each
 * one, as SwiftShader does), and against the same system made to read the
 * lane for the fused colliders (whose CPU twin agrees within a bound,
 * test/colliders.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ColliderInit } from '../src/core/collisions/colliders';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { FLOATS_PER_PARTICLE, OFFSET } from '../src/core/layout';
import type { ParticleInit } from '../src/core/particles';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { useDevice } from './support/gpu';
import { seededRandom } from './support/random';

const gpu = useDevice();
const DT = 1 / 60;
const GRAVITY = { type: 'gravity', g: [0, -9.81, 0] } as const;

/** Particles thrown in random directions with no acceleration of their own (gravity from the registry); some immovable. */
function cloud(count: number, seed: number, radius = 0): ParticleInit[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => ({
    position: [0, 1, 2].map(() => (random() * 2 - 1) * 3),
    velocity: [0, 1, 2].map(() => (random() * 2 - 1) * 8),
    damping: 0.99,
    radius,
    ...(i % 13 === 7 ? { inverseMass: 0 } : { mass: 0.2 + random() * 3 }),
  }));
}

function firstDifference(a: Float32Array, b: Float32Array): string | null {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) return `word ${i} (particle ${i >> 4}, float ${i & 15}): ${a[i]} against ${b[i]}`;
  }
  return null;
}

/** What one system does to both: steps and writes, noting after each step whether the GPU one reads the lane. */
type Script = (s: ParticleSystem | CpuParticleSystem, lane: () => void) => Promise<void>;

/** Runs `script` on a GPU system and the CPU reference; the GPU state must match bit for bit. */
async function againstReference(count: number, script: Script, chunkParticles?: number): Promise<boolean[]> {
  const gpuSystem = await ParticleSystem.create(gpu.get().device, { capacity: count, chunkParticles });
  const cpu = new CpuParticleSystem({ capacity: count, precision: 'float32' });
  const reads: boolean[] = [];
  try {
    await script(gpuSystem, () => reads.push(gpuSystem.stepReadsAccelerationLane));
    await script(cpu, () => undefined);
    expect(firstDifference(await gpuSystem.readPacked(), await cpu.readPacked())).toBeNull();
  } finally {
    gpuSystem.destroy();
    cpu.destroy();
  }
  return reads;
}

describe('the step without the acceleration lane', () => {
  it('is chosen under registry gravity and left when a write puts an acceleration there, as the CPU reference steps', async () => {
    const particles = cloud(64, 3);
    const reads = await againstReference(particles.length, async (s, lane) => {
      s.forces.add(GRAVITY);
      await s.writeParticles(0, particles);
      await s.stepMany(DT, 3);
      lane();
      // One particle's own acceleration, written after steps that skipped the lane.
      await s.setField('acceleration', 5, [1, 2, -3]);
      await s.stepMany(DT, 2);
      lane();
      // A write of every slot with no acceleration says so: the lane is skipped again.
      await s.writeParticles(0, particles);
      await s.step(DT);
      lane();
      await s.writeParticles(10, [{ position: [0, 1, 0], acceleration: [0, 0, 4] }]);
      await s.step(DT);
      lane();
    });
    expect(reads).toEqual([false, true, false, true]);
  });

  it('steps particle state in chunks without the lane, chunk by chunk, as the CPU reference does', async () => {
    const particles = cloud(64, 9);
    const reads = await againstReference(
      particles.length,
      async (s, lane) => {
        s.forces.add(GRAVITY);
        await s.writeParticles(0, particles);
        await s.stepMany(DT, 3);
        lane();
        await s.setField('acceleration', 40, [0, 0, 2]);
        await s.stepMany(DT, 2);
        lane();
      },
      16,
    );
    expect(reads).toEqual([false, true]);
  });

  it('follows writeAttributes, writePacked and an immovable particle given a mass', async () => {
    const particles = cloud(40, 4);
    const reads = await againstReference(particles.length, async (s, lane) => {
      s.forces.add(GRAVITY);
      const records = new CpuParticleSystem({ capacity: particles.length, precision: 'float32' });
      await records.writeParticles(0, particles);
      const packed = await records.readPacked();
      records.destroy();
      // Particle 7 is immovable: its acceleration is never read, so the lane is still skipped.
      packed.set([0, 5, 0], 7 * FLOATS_PER_PARTICLE + OFFSET.ACCELERATION);
      await s.writePacked(0, packed);
      await s.stepMany(DT, 2);
      lane();
      // Given a mass, it moves with that acceleration: the lane is read.
      await s.setField('mass', 7, [2]);
      await s.stepMany(DT, 2);
      lane();
      await s.writeAttributes(0, {
        position: particles.flatMap((p) => p.position as number[]),
        mass: particles.map((_, i) => 1 + (i % 3)),
      });
      await s.step(DT);
      lane();
      await s.writeAttributes(3, { position: [1, 1, 1], acceleration: [0, 0, -2] });
      await s.stepMany(DT, 2);
      lane();
    });
    expect(reads).toEqual([false, true, false, true]);
  });

  it('follows a restore from a snapshot', async () => {
    const particles = cloud(32, 6);
    const device = gpu.get().device;
    const cpu = new CpuParticleSystem({ capacity: particles.length, precision: 'float32' });
    const source = await ParticleSystem.create(device, { capacity: particles.length });
    let restored: ParticleSystem | null = null;
    try {
      for (const s of [source, cpu]) {
        s.forces.add(GRAVITY);
        await s.writeParticles(0, particles);
        await s.stepMany(DT, 2);
      }
      restored = await ParticleSystem.restore(device, await source.snapshot());
      expect(restored.stepReadsAccelerationLane).toBe(false);
      for (const s of [restored, cpu]) {
        await s.stepMany(DT, 2);
        await s.setField('acceleration', 0, [0, 3, 0]);
        await s.step(DT);
      }
      expect(restored.stepReadsAccelerationLane).toBe(true);
      expect(firstDifference(await restored.readPacked(), await cpu.readPacked())).toBeNull();
    } finally {
      restored?.destroy();
      source.destroy();
      cpu.destroy();
    }
  });
});

describe('the fused colliders without the acceleration lane', () => {
  const colliders: ColliderInit[] = [
    { type: 'plane', normal: [0, 1, 0], offset: -1, restitution: 0.5, friction: 0.4 },
    { type: 'sphere', center: [0, 0, 0], radius: 5, inside: true, kill: true },
  ];

  it('skips the lane without radii, reads it once a radius is written, and matches the step that reads it', async () => {
    const particles = cloud(300, 8);
    const device = gpu.get().device;
    const open = async () => {
      const s = await ParticleSystem.create(device, { capacity: particles.length, collisions: { colliders } });
      s.forces.add(GRAVITY);
      await s.writeParticles(0, particles);
      return s;
    };
    const skipping = await open();
    const reading = await open();
    try {
      // Whoever holds the buffer may write anything: that system reads the lane.
      void reading.particles;
      const reads: boolean[] = [];
      const both = async (action: (s: ParticleSystem) => Promise<void>) => {
        for (const s of [skipping, reading]) await action(s);
        reads.push(skipping.stepReadsAccelerationLane);
        expect(reading.stepReadsAccelerationLane).toBe(true);
        expect(firstDifference(await skipping.readPacked(), await reading.readPacked())).toBeNull();
      };
      // Long enough for particles to bounce off the plane and leave through the kill sphere.
      await both((s) => s.stepMany(DT, 90));
      // The kill sphere killed some (immovable, radius -1) while the lane was skipped.
      const state = await skipping.readPacked();
      let killed = 0;
      for (let i = 0; i < particles.length; i++)
        if ((state[i * FLOATS_PER_PARTICLE + OFFSET.RADIUS] as number) < 0) killed++;
      expect(killed).toBeGreaterThan(0);
      // A radius the colliders use: read.
      await both(async (s) => {
        await s.setField(
          'radius',
          0,
          Array.from({ length: particles.length }, (_, i) => (i % 4) * 0.05),
        );
        await s.stepMany(DT, 30);
      });
      // Without colliders the step does not use the radius: skipped again.
      await both(async (s) => {
        await s.setColliders([]);
        await s.stepMany(DT, 5);
      });
      expect(reads).toEqual([false, true, false]);
    } finally {
      skipping.destroy();
      reading.destroy();
    }
  });
});
