/**
 * The step's two walks over a pool with emitters (src/gpu/liveIntegratePass.ts):
 * over the live list, and the dense walk over every slot in slot order that
 * skips the slots that are not live (shaders/denseDispatch.wgsl), which
 * planStep picks from DENSE_WALK_FROM of the capacity live on
 * (src/gpu/lifecycle.ts). Both step the same particles with the same
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
import { ParticleSystem } from '../src/gpu/particleSystem';
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

/** The step's two dispatches planStep wrote for the last step: (list walk workgroups, dense walk workgroups). */
async function walks(system: ParticleSystem): Promise<[number, number]> {
  const { device } = system;
  const args = system.lifecycle!.buffers.args;
  const staging = device.createBuffer({ size: args.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(args, 0, staging, 0, args.size);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const words = new Uint32Array(staging.getMappedRange().slice(0));
  staging.destroy();
  const at = INDIRECT_ARGS.wordOffsets;
  const groups = (offset: number) => (words[offset] as number) * (words[offset + 1] as number);
  return [groups(at.stepList), groups(at.stepDense)];
}

/**
 * A floor the particles bounce on and a sphere that kills what enters it: the colliders pass then walks the live
 * list or every slot as the step does (src/gpu/collidePass.ts, encodeWalks), and either walk must give the same.
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
    [', with a floor and a kill sphere (the colliders pass walks as the step does)', true, false],
    [', with a wind and a drag as a pass of their own over the live list', false, true],
  ])(
    'give the same state byte for byte over a churning pool, stepped either way or crossing the threshold both ways, chunked or not, dispatched indirectly or directly%s',
    async (_, withColliders, withForces) => {
      const { device } = gpu.get();
      const make = async (
        denseFrom: number | null,
        chunkParticles?: number,
        dispatch: 'indirect' | 'direct' = 'indirect',
      ) => {
        const system = await ParticleSystem.create(device, {
          capacity: CAPACITY,
          emitters: EMITTERS,
          dispatch,
          ...(chunkParticles ? { chunkParticles } : {}),
          ...(withColliders ? { collisions: { colliders: COLLIDERS } } : {}),
          ...(withForces ? { fuseForces: false } : {}),
        });
        if (withForces) {
          system.forces.add({ type: 'wind', force: [3, 0, -1] });
          system.forces.add({ type: 'drag', k1: 0.5, k2: 0.1 });
          expect(system.stepPasses).toContain('forces');
        }
        if (withColliders) expect(system.stepPasses).toContain('collisions');
        if (denseFrom !== null) system.lifecycle!.setDenseWalkFrom(denseFrom);
        expect(system.lifecycle!.buffers.dispatchMode).toBe(dispatch);
        return system;
      };
      const systems = {
        list: await make(CAPACITY + 1),
        dense: await make(0),
        chosen: await make(null),
        chunkedDense: await make(0, 256),
        chunkedChosen: await make(null, 256),
        direct: await make(null, undefined, 'direct'),
        chunkedDirect: await make(null, 256, 'direct'),
      };
      const all = Object.values(systems);
      const threshold = denseWalkFrom(CAPACITY);
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
            for (const system of all) await system.stepMany(DT, 1);
            // planStep chose by the live count before the step.
            const [list, dense] = await walks(systems.chosen);
            const isDense = live >= threshold;
            expect(dense > 0, `dense walk at ${live} live`).toBe(isDense);
            expect(list > 0, `list walk at ${live} live`).toBe(!isDense && live > 0);
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
});
