/**
 * The step over a pool with emitters (src/gpu/step/liveIntegratePass.ts): every
 * slot in slot order, the slots that are not live skipped
 * (shaders/step/denseDispatch.wgsl), stopping at the high-water mark: every live
 * slot lies below it (the fill raises it past each birth's slot, the host
 * writes it with the lists). Every pass of the lifecycle is dispatched over a
 * bound the host knows, its invocations past the GPU's counts returning at
 * once, the scan's blocks past the live words returning before their
 * barriers. A churning pool must give the same state byte for byte (no
 * tolerance) over chunked state (the walk once per chunk over that chunk's
 * slots), with its colliders fused into the step or as a pass of their own,
 * with the deprecated `dispatch` option or without, and across a snapshot
 * and restore (which rebuilds the inverse map on the host).
 */
import { describe, expect, it } from 'vitest';
import type { EmitterInit } from '../src/core/emitters/types';
import { chooseDispatchMode } from '../src/gpu/device/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { LIFE_COUNTERS } from '../src/core/emitters/gpuRecords';
import { readBuffer } from '../src/bench/soaPass';
import { expectSameBytes } from './support/galleryScenes';
import { useDevice } from './support/gpu';

const gpu = useDevice();
const DT = 1 / 60;
// Not a power of two: chunks of 256 leave a short last chunk.
const CAPACITY = 1000;
const HIGH_RATE = 6000;
const LOW_RATE = 150;

/** Lifetimes of 0.1-0.4 s and a floor: at HIGH_RATE the pool is full (shortfall), at LOW_RATE about 5% live. */
const EMITTERS: EmitterInit[] = [
  {
    rate: HIGH_RATE,
    burst: 900,
    lifetime: [0.1, 0.4],
    shape: { type: 'sphere', radius: 1 },
    velocity: { spread: 0.7, speed: [1, 4] },
    acceleration: [0, -9.81, 0],
    damping: [0.9, 1],
    floor: -1.5,
  },
];

/** The words of `buffer`, one of `system`'s, as the GPU holds them once what was submitted has run. */
async function readWords(system: ParticleSystem, buffer: GPUBuffer): Promise<Uint32Array> {
  return new Uint32Array((await readBuffer(system.device, buffer)).buffer);
}

/** The high-water mark the step's walk stops at, and one past the highest slot in the live list now (0: none). */
async function walkBound(system: ParticleSystem): Promise<{ highWater: number; pastHighestLive: number }> {
  const buffers = system.lifecycle!.buffers;
  const highWater = (await readWords(system, buffers.highWater))[0] as number;
  const counters = await readWords(system, buffers.counters);
  const lists = await readWords(system, buffers.lists);
  const F = LIFE_COUNTERS.wordOffsets;
  const list = (counters[F.parity] as number) * system.capacity;
  let pastHighestLive = 0;
  for (let k = 0; k < (counters[F.live] as number); k++) {
    pastHighestLive = Math.max(pastHighestLive, (lists[list + k] as number) + 1);
  }
  return { highWater, pastHighestLive };
}

/**
 * A floor the particles bounce on and a sphere that kills what enters it: fused into the step
 * (shaders/collisions/fusedColliders.wgsl, the touches made collision events by shaders/step/liveAge.wgsl), or as the colliders
 * pass over every slot (src/gpu/collisions/collidePass.ts, then the deaths and the events judged again), and both ways must
 * give the same.
 */
const COLLIDERS = [
  {
    type: 'plane' as const,
    normal: [0, 1, 0] as [number, number, number],
    offset: -1,
    restitution: 0.5,
    friction: 0.3,
  },
  { type: 'sphere' as const, center: [0.8, 0, 0] as [number, number, number], radius: 0.4, kill: true },
];

describe('the step over every slot of a pool with emitters', () => {
  it.each([
    ['', false, false],
    [', with a floor and a kill sphere (fused into the step, against the colliders pass)', true, false],
    [', with a wind and a drag as a pass of their own over the live list', false, true],
    [
      ', with the floor, the sphere, the wind and the drag, all fused into the step (against the colliders pass)',
      true,
      true,
    ],
  ])(
    'gives the same state byte for byte over a churning pool, chunked or not%s',
    async (_, withColliders, withForces) => {
      const { device } = gpu.get();
      const make = async (chunkParticles?: number, fuseColliders = true, deprecatedDispatch = false) => {
        const system = await ParticleSystem.create(device, {
          capacity: CAPACITY,
          emitters: EMITTERS,
          fuseColliders,
          ...(deprecatedDispatch ? { dispatch: 'indirect' as const } : {}),
          ...(chunkParticles ? { chunkParticles } : {}),
          ...(withColliders ? { collisions: { colliders: COLLIDERS } } : {}),
          // With colliders the forces are fused into the step, with or without them: only the colliders differ.
          ...(withForces && !withColliders ? { fuseForces: false } : {}),
        });
        if (withForces) {
          system.forces.add({ type: 'wind', force: [3, 0, -1] });
          system.forces.add({ type: 'drag', k1: 0.5, k2: 0.1 });
        }
        const step = `integrate${withForces && withColliders ? '+forces' : ''}`;
        const expected = [
          ...(withForces && !withColliders ? ['forces'] : []),
          ...(withColliders && fuseColliders ? [`${step}+colliders`] : [step]),
          ...(withColliders && !fuseColliders ? ['collisions'] : []),
          'lifecycle',
        ];
        expect(system.stepPasses).toEqual(expected);
        return system;
      };
      const systems = {
        // The reference: with colliders, their pass after the step.
        reference: await make(undefined, false),
        ...(withColliders ? { fused: await make(), chunkedUnfused: await make(256, false) } : {}),
        chunked: await make(256),
        // The deprecated option changes nothing.
        deprecatedDispatch: await make(undefined, !withColliders, true),
      };
      const all = Object.values(systems);
      let sawLow = false;
      let sawFull = false;
      try {
        // Full, then thinning out, then full again.
        for (const [rate, frames] of [
          [HIGH_RATE, 20],
          [LOW_RATE, 40],
          [HIGH_RATE, 20],
        ] as const) {
          for (const system of all) system.emitters!.set(0, { rate });
          for (let frame = 0; frame < frames; frame++) {
            for (const system of all) await system.stepMany(DT, 1);
            const live = (await systems.reference.readStats()).live;
            sawLow ||= live < CAPACITY / 10;
            sawFull ||= live === CAPACITY;
            // Every live slot lies below the mark, for every layout.
            for (const [name, system] of Object.entries(systems)) {
              const bound = await walkBound(system);
              expect(bound.pastHighestLive, name).toBeLessThanOrEqual(bound.highWater);
            }
            const expected = await systems.reference.snapshot();
            for (const [name, system] of Object.entries(systems)) {
              if (name !== 'reference') expectSameBytes(await system.snapshot(), expected, `${name}, rate ${rate}`);
            }
          }
        }
        // The pool was full and nearly empty, and particles died and were born.
        expect(sawLow && sawFull).toBe(true);
        const stats = await systems.reference.readStats();
        expect(stats.killed).toBeGreaterThan(2 * CAPACITY);
      } finally {
        for (const system of all) system.destroy();
      }
    },
  );

  it("chooseDispatchMode, deprecated, says 'direct' whatever the adapter or the choice", () => {
    const software = {
      adapterInfo: { vendor: 'google', architecture: 'swiftshader', device: '', description: 'SwiftShader' },
    };
    const hardware = {
      adapterInfo: { vendor: 'nvidia', architecture: 'hopper', device: '', description: 'NVIDIA H200' },
    };
    expect(chooseDispatchMode(software as unknown as GPUDevice)).toBe('direct');
    expect(chooseDispatchMode(hardware as unknown as GPUDevice)).toBe('direct');
    expect(chooseDispatchMode(hardware as unknown as GPUDevice, 'indirect')).toBe('direct');
    expect(chooseDispatchMode({} as GPUDevice)).toBe('direct');
    expect(chooseDispatchMode(gpu.get().device, 'auto')).toBe('direct');
  });

  it('a restored system steps from the inverse map the restore rebuilt', async () => {
    const { device } = gpu.get();
    const original = await ParticleSystem.create(device, { capacity: CAPACITY, emitters: EMITTERS });
    try {
      await original.stepMany(DT, 12);
      const restored = await ParticleSystem.restore(device, await original.snapshot());
      try {
        // The restore writes the mark from the live list it writes: one past its highest slot.
        const bound = await walkBound(restored);
        expect(bound.pastHighestLive).toBeGreaterThan(0);
        expect(bound.highWater).toBe(bound.pastHighestLive);
        for (let frame = 0; frame < 10; frame++) {
          await original.stepMany(DT, 1);
          await restored.stepMany(DT, 1);
          expectSameBytes(await restored.snapshot(), await original.snapshot(), `frame ${frame} after the restore`);
        }
        expect((await restored.readStats()).killed).toBeGreaterThan(CAPACITY / 2);
      } finally {
        restored.destroy();
      }
    } finally {
      original.destroy();
    }
  });

  it('a pool that never filled keeps its high-water mark one past the highest slot ever live', async () => {
    const { device } = gpu.get();
    // About 4% of the pool live (150 a second, 0.1-0.4 s each), nothing there at the start.
    const { burst: _, ...churn } = { ...EMITTERS[0], rate: LOW_RATE } as EmitterInit & { burst?: number };
    const make = (chunkParticles?: number) =>
      ParticleSystem.create(device, {
        capacity: CAPACITY,
        emitters: [churn],
        ...(chunkParticles ? { chunkParticles } : {}),
      });
    // Every slot dispatched, those past the mark returning before their life record is read.
    const systems = { plain: await make(), chunked: await make(256) };
    const all = Object.values(systems);
    try {
      let ever = 0;
      for (let frame = 0; frame < 60; frame++) {
        for (const system of all) await system.stepMany(DT, 1);
        // Births take the lowest free slots first and the last freed again, so the mark stays near the peak.
        const after = await walkBound(systems.plain);
        ever = Math.max(ever, after.pastHighestLive);
        expect(after.highWater, `frame ${frame}`).toBe(ever);
        expectSameBytes(await systems.chunked.snapshot(), await systems.plain.snapshot(), `chunked, frame ${frame}`);
      }
      // A few slots of the thousand ever live.
      expect(ever).toBeGreaterThan(0);
      expect(ever).toBeLessThan(CAPACITY / 5);
      expect((await systems.plain.readStats()).killed).toBeGreaterThan(100);
    } finally {
      for (const system of all) system.destroy();
    }
  });

  it('steps no slot at or past the high-water mark', async () => {
    const { device } = gpu.get();
    // Every slot live from the start (all permanent), so every slot below the capacity would be stepped: a mark
    // written below the top slots (a white-box probe: the library never writes a mark below a live slot) shows
    // where the walk stops. Emitters at rate 0: nothing is born, so the fill leaves the mark alone.
    const permanent = 300;
    const system = await ParticleSystem.create(device, {
      capacity: permanent,
      permanent,
      emitters: [{ rate: 0, lifetime: [100, 100] }],
    });
    try {
      const mark = 200;
      await system.writeParticles(
        0,
        Array.from({ length: permanent }, () => ({ position: [0, 0, 0], velocity: [1, 0, 0] })),
      );
      device.queue.writeBuffer(system.lifecycle!.buffers.highWater, 0, new Uint32Array([mark]));
      await system.step(0.5);
      const { position } = await system.read();
      for (let slot = 0; slot < permanent; slot++) {
        // Below the mark stepped by 0.5 s at 1 unit a second, exactly; from it on not stepped at all.
        expect(position[slot * 3], `slot ${slot}`).toBe(slot < mark ? 0.5 : 0);
      }
    } finally {
      system.destroy();
    }
  });
});
