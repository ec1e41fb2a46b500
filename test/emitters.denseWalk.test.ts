/**
 * The step's two walks over a pool with emitters (src/gpu/liveIntegratePass.ts):
 * over the live list, and the dense walk over every slot in slot order that
 * skips the slots that are not live (shaders/denseDispatch.wgsl), which
 * planStep picks from DENSE_WALK_FROM of the slots below the high-water mark
 * live on (src/gpu/lifecycle.ts), and which stops at that mark: every live
 * slot lies below it (the fill raises it past each birth's slot, the host
 * writes it with the lists). Both step the same particles with the same
 * arithmetic and set the same death bits (the dense walk's live index is the
 * inverse map the fill keeps), so a churning pool stepped either way, or
 * crossing the threshold both ways, must give the same state byte for byte:
 * no tolerance. Also over chunked state (the dense walk once per chunk over
 * that chunk's slots), and across a snapshot and restore (which rebuilds the
 * inverse map on the host). And with direct dispatch (the `dispatch` option,
 * what hardware adapters get): every pass sized by the capacity, its
 * invocations past the GPU's counts returning at once, the step always on the
 * dense walk, the scan's blocks past the live words returning before their
 * barriers; the same bytes again.
 */
import { describe, expect, it } from 'vitest';
import type { EmitterInit } from '../src/core/emitters/types';
import { chooseDispatchMode } from '../src/gpu/device';
import { denseWalkFrom } from '../src/gpu/lifecycle';
import { INDIRECT_ARGS } from '../src/gpu/indirectArgs';
import { DEFAULT_WORKGROUP_SIZE, ParticleSystem } from '../src/gpu/particleSystem';
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

/** The step's two dispatches planStep wrote for the last step: (list walk workgroups, dense walk workgroups). */
async function walks(system: ParticleSystem): Promise<[number, number]> {
  const words = await readWords(system, system.lifecycle!.buffers.args);
  const at = INDIRECT_ARGS.wordOffsets;
  const groups = (offset: number) => (words[offset] as number) * (words[offset + 1] as number);
  return [groups(at.stepList), groups(at.stepDense)];
}

/** The high-water mark the dense walk stops at, and one past the highest slot in the live list now (0: none). */
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
 * A floor the particles bounce on and a sphere that kills what enters it: fused into the step over the live list
 * or the dense walk (shaders/fusedColliders.wgsl, the touches made collision events by shaders/liveAge.wgsl), or
 * as the colliders pass walking the live list or every slot as the step does (src/gpu/collidePass.ts,
 * encodeWalks, then the deaths and the events judged again), and every way must give the same.
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

describe('the dense walk and the walk over the live list', () => {
  it.each([
    ['', false, false],
    [
      ', with a floor and a kill sphere (fused into the step, against the colliders pass walking as the step does)',
      true,
      false,
    ],
    [', with a wind and a drag as a pass of their own over the live list', false, true],
    [
      ', with the floor, the sphere, the wind and the drag, all fused into the step (against the colliders pass)',
      true,
      true,
    ],
  ])(
    'give the same state byte for byte over a churning pool, stepped either way or crossing the threshold both ways, chunked or not, dispatched indirectly or directly%s',
    async (_, withColliders, withForces) => {
      const { device } = gpu.get();
      const make = async (
        denseFrom: number | null,
        chunkParticles?: number,
        dispatch: 'indirect' | 'direct' = 'indirect',
        fuseColliders = true,
      ) => {
        const system = await ParticleSystem.create(device, {
          capacity: CAPACITY,
          emitters: EMITTERS,
          dispatch,
          fuseColliders,
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
          'planStep',
          ...(withForces && !withColliders ? ['forces'] : []),
          ...(withColliders && fuseColliders ? [`${step}+colliders`] : [step]),
          ...(withColliders && !fuseColliders ? ['collisions'] : []),
          'lifecycle',
        ];
        expect(system.stepPasses).toEqual(expected);
        if (denseFrom !== null) system.lifecycle!.setDenseWalkFrom(denseFrom);
        expect(system.lifecycle!.buffers.dispatchMode).toBe(dispatch);
        return system;
      };
      const systems = {
        // The reference: over the live list, and with colliders their pass after the step.
        list: await make(CAPACITY + 1, undefined, 'indirect', false),
        ...(withColliders
          ? {
              listFused: await make(CAPACITY + 1),
              denseUnfused: await make(0, undefined, 'indirect', false),
              directUnfused: await make(null, undefined, 'direct', false),
            }
          : {}),
        dense: await make(0),
        chosen: await make(null),
        chunkedDense: await make(0, 256),
        chunkedChosen: await make(null, 256),
        direct: await make(null, undefined, 'direct'),
        chunkedDirect: await make(null, 256, 'direct'),
      };
      const all = Object.values(systems);
      const seen = { dense: 0, list: 0, down: 0, up: 0 };
      let wasDense: boolean | null = null;
      try {
        // Full, then thinning out below the threshold, then full again.
        for (const [rate, frames] of [
          [HIGH_RATE, 20],
          [LOW_RATE, 40],
          [HIGH_RATE, 20],
        ] as const) {
          for (const system of all) system.emitters!.set(0, { rate });
          for (let frame = 0; frame < frames; frame++) {
            const live = (await systems.chosen.readStats()).live;
            const { highWater } = await walkBound(systems.chosen);
            for (const system of all) await system.stepMany(DT, 1);
            // planStep chose by the live count and the high-water mark before the step.
            const [list, dense] = await walks(systems.chosen);
            const isDense = live >= denseWalkFrom(highWater);
            const span = Math.min(highWater, CAPACITY);
            expect(dense, `dense walk at ${live} live`).toBe(isDense ? Math.ceil(span / DEFAULT_WORKGROUP_SIZE) : 0);
            expect(list > 0, `list walk at ${live} live`).toBe(!isDense && live > 0);
            // Every live slot lies below the mark, for every walk and layout.
            for (const [name, system] of Object.entries(systems)) {
              const bound = await walkBound(system);
              expect(bound.pastHighestLive, name).toBeLessThanOrEqual(bound.highWater);
            }
            seen[isDense ? 'dense' : 'list']++;
            if (wasDense === true && !isDense) seen.down++;
            if (wasDense === false && isDense) seen.up++;
            wasDense = isDense;
            const expected = await systems.list.snapshot();
            for (const [name, system] of Object.entries(systems)) {
              if (name !== 'list') expectSameBytes(await system.snapshot(), expected, `${name}, rate ${rate}`);
            }
          }
        }
        // The scenario took both walks and crossed the threshold both ways, and particles died and were born.
        expect(seen.dense).toBeGreaterThan(10);
        expect(seen.list).toBeGreaterThan(10);
        expect(seen.down).toBeGreaterThanOrEqual(1);
        expect(seen.up).toBeGreaterThanOrEqual(1);
        const stats = await systems.dense.readStats();
        expect(stats.killed).toBeGreaterThan(2 * CAPACITY);
      } finally {
        for (const system of all) system.destroy();
      }
    },
  );

  it('dispatches indirectly by default on a software adapter, directly on any other, and refuses an unknown mode, naming it', async () => {
    const { device } = gpu.get();
    const software = {
      adapterInfo: { vendor: 'google', architecture: 'swiftshader', device: '', description: 'SwiftShader' },
    };
    const hardware = {
      adapterInfo: { vendor: 'nvidia', architecture: 'hopper', device: '', description: 'NVIDIA H200' },
    };
    expect(chooseDispatchMode(software as unknown as GPUDevice)).toBe('indirect');
    expect(chooseDispatchMode(hardware as unknown as GPUDevice)).toBe('direct');
    expect(chooseDispatchMode(hardware as unknown as GPUDevice, 'indirect')).toBe('indirect');
    // Without adapterInfo (older browsers): indirect, which is correct everywhere.
    expect(chooseDispatchMode({} as GPUDevice)).toBe('indirect');
    // This suite's adapter is the one the tests run on: SwiftShader here, where 'auto' means indirect.
    const system = await ParticleSystem.create(device, { capacity: CAPACITY, emitters: EMITTERS });
    expect(system.lifecycle!.buffers.dispatchMode).toBe(chooseDispatchMode(device));
    system.destroy();
    await expect(
      ParticleSystem.create(device, { capacity: 4, emitters: EMITTERS, dispatch: 'sometimes' as 'auto' }),
    ).rejects.toThrow(/dispatch = "sometimes" must be 'auto', 'indirect' or 'direct'/);
  });

  it('a restored system takes the dense walk from the inverse map the restore rebuilt', async () => {
    const { device } = gpu.get();
    const original = await ParticleSystem.create(device, { capacity: CAPACITY, emitters: EMITTERS });
    original.lifecycle!.setDenseWalkFrom(CAPACITY + 1);
    try {
      await original.stepMany(DT, 12);
      const restored = await ParticleSystem.restore(device, await original.snapshot());
      try {
        // The restore writes the mark from the live list it writes: one past its highest slot.
        const bound = await walkBound(restored);
        expect(bound.pastHighestLive).toBeGreaterThan(0);
        expect(bound.highWater).toBe(bound.pastHighestLive);
        restored.lifecycle!.setDenseWalkFrom(0);
        for (let frame = 0; frame < 10; frame++) {
          await original.stepMany(DT, 1);
          await restored.stepMany(DT, 1);
          expect((await walks(restored))[1], 'dense walk').toBeGreaterThan(0);
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

  it('a pool that never filled walks only the slots below its high-water mark: one past the highest slot ever live', async () => {
    const { device } = gpu.get();
    // About 4% of the pool live (150 a second, 0.1-0.4 s each), nothing there at the start.
    const { burst: _, ...churn } = { ...EMITTERS[0], rate: LOW_RATE } as EmitterInit & { burst?: number };
    const make = async (denseFrom: number | null, chunkParticles?: number, dispatch?: 'direct') => {
      const system = await ParticleSystem.create(device, {
        capacity: CAPACITY,
        emitters: [churn],
        ...(chunkParticles ? { chunkParticles } : {}),
        ...(dispatch ? { dispatch } : {}),
      });
      if (denseFrom !== null) system.lifecycle!.setDenseWalkFrom(denseFrom);
      return system;
    };
    const systems = {
      list: await make(CAPACITY + 1),
      chosen: await make(null),
      dense: await make(0),
      chunkedChosen: await make(null, 256),
      // Every slot dispatched, those past the mark returning before their life record is read.
      direct: await make(null, undefined, 'direct'),
      chunkedDirect: await make(null, 256, 'direct'),
    };
    const all = Object.values(systems);
    try {
      let ever = 0;
      let denseSteps = 0;
      for (let frame = 0; frame < 60; frame++) {
        const live = (await systems.chosen.readStats()).live;
        const before = await walkBound(systems.chosen);
        for (const system of all) await system.stepMany(DT, 1);
        const [, dense] = await walks(systems.chosen);
        if (live >= denseWalkFrom(before.highWater)) {
          denseSteps++;
          expect(dense, `dense walk at ${live} live`).toBe(Math.ceil(before.highWater / DEFAULT_WORKGROUP_SIZE));
        }
        // Births take the lowest free slots first and the last freed again, so the mark stays near the peak.
        const after = await walkBound(systems.chosen);
        ever = Math.max(ever, after.pastHighestLive);
        expect(after.highWater, `frame ${frame}`).toBe(ever);
        const expected = await systems.list.snapshot();
        for (const [name, system] of Object.entries(systems)) {
          if (name !== 'list') expectSameBytes(await system.snapshot(), expected, `${name}, frame ${frame}`);
        }
      }
      // The walk in slot order took most steps, over a few slots of the thousand.
      expect(denseSteps).toBeGreaterThan(30);
      expect(ever).toBeGreaterThan(0);
      expect(ever).toBeLessThan(CAPACITY / 5);
      expect((await systems.chosen.readStats()).killed).toBeGreaterThan(100);
    } finally {
      for (const system of all) system.destroy();
    }
  });

  it('a direct dispatch steps no slot at or past the high-water mark, an indirect one none past the workgroup it ends in', async () => {
    const { device } = gpu.get();
    // Every slot live from the start (all permanent), so every slot below the capacity would be stepped: a mark
    // written below the top slots (a white-box probe: the library never writes a mark below a live slot) shows
    // where each walk stops. Emitters at rate 0: nothing is born, so the fill leaves the mark alone.
    const permanent = 300;
    const make = (dispatch: 'indirect' | 'direct') =>
      ParticleSystem.create(device, {
        capacity: permanent,
        permanent,
        emitters: [{ rate: 0, lifetime: [100, 100] }],
        dispatch,
      });
    const systems = { direct: await make('direct'), indirect: await make('indirect') };
    try {
      const mark = 200;
      for (const system of Object.values(systems)) {
        await system.writeParticles(
          0,
          Array.from({ length: permanent }, () => ({ position: [0, 0, 0], velocity: [1, 0, 0] })),
        );
        system.lifecycle!.setDenseWalkFrom(0);
        device.queue.writeBuffer(system.lifecycle!.buffers.highWater, 0, new Uint32Array([mark]));
        await system.step(0.5);
        const { position } = await system.read();
        // planStep sizes an indirect dispatch in whole workgroups: up to the mark's workgroup's end.
        const direct = system.lifecycle!.buffers.dispatchMode === 'direct';
        const end = direct ? mark : Math.ceil(mark / DEFAULT_WORKGROUP_SIZE) * DEFAULT_WORKGROUP_SIZE;
        expect(end).toBeLessThan(permanent);
        for (let slot = 0; slot < permanent; slot++) {
          // Below the end stepped by 0.5 s at 1 unit a second, exactly; from it on not stepped at all.
          expect(position[slot * 3], `slot ${slot}, ${system.lifecycle!.buffers.dispatchMode}`).toBe(
            slot < end ? 0.5 : 0,
          );
        }
      }
    } finally {
      for (const system of Object.values(systems)) system.destroy();
    }
  });
});
