/**
 * Snapshots (src/core/snapshot): continuing from a snapshot equals not
 * stopping, bit for bit, on each backend, for every gallery scene (forces,
 * springs, colliders, links, particle contacts, emitters, fireworks); a
 * snapshot restores on the other backend with its state unchanged; a corrupt,
 * truncated or unknown-version snapshot is refused, naming what is wrong.
 *
 * No tolerance anywhere: a restored system holds the very words it was
 * snapshotted with, and the same backend steps the same words to the same
 * words (both are deterministic: slots are assigned by prefix sums, random
 * draws are pure functions of counters held in the snapshot).
 */
import { readFileSync } from 'node:fs';
import CRC32 from 'crc-32';
import { describe, expect, it } from 'vitest';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { SnapshotError, SNAPSHOT_VERSION } from '../src/core/snapshot/format';
import { decodeSnapshot, type SystemState } from '../src/core/snapshot/systemSnapshot';
import { DEFAULT_VARIANT } from '../src/core/variants';
import { ARGS } from '../src/shaders/indirectArgs';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { useDevice } from './support/gpu';
import { expectSameBytes, GALLERY_SCENES, GALLERY_STEPS, galleryScene } from './support/galleryScenes';
import { cpuSystemFor, gpuSystemFor } from './support/sceneSystems';

const gpu = useDevice();
const DT = 1 / 60;
const STEPS = GALLERY_STEPS;
const SCENES = GALLERY_SCENES;
const scene = galleryScene;

/** Two decoded states equal in every word, and in configuration but for which backend took them. */
function expectSameState(actual: SystemState, expected: SystemState): void {
  expect({ ...actual.config, backend: 'either' }).toEqual({ ...expected.config, backend: 'either' });
  expectSameBytes(actual.particles, expected.particles, 'particle records');
  expectSameBytes(actual.colliders.words, expected.colliders.words, 'colliders');
  expectSameBytes(actual.links.records.words, expected.links.records.words, 'links');
  expectSameBytes(actual.health, expected.health, 'health');
  expect(actual.lifecycle === null).toBe(expected.lifecycle === null);
  if (actual.lifecycle && expected.lifecycle) {
    for (const key of ['life', 'lists', 'freeList', 'counters', 'ruleStats'] as const) {
      expectSameBytes(actual.lifecycle[key], expected.lifecycle[key], key);
    }
  }
}

describe.each(SCENES)('scene %s', (name) => {
  it('CPU reference: N steps straight equal N/2, snapshot, restore, N/2, bit for bit', async () => {
    const straight = await cpuSystemFor(scene(name), DEFAULT_VARIANT);
    const halted = await cpuSystemFor(scene(name), DEFAULT_VARIANT);
    straight.stepMany(DT, STEPS);
    halted.stepMany(DT, STEPS / 2);
    const resumed = CpuParticleSystem.restore(halted.snapshot());
    halted.destroy();
    resumed.stepMany(DT, STEPS / 2);
    // The snapshots after N steps hold every word of both systems: equal bytes, equal systems.
    expectSameBytes(resumed.snapshot(), straight.snapshot(), `${name}: snapshot after ${STEPS} steps`);
    expect(resumed.stepCount).toBe(STEPS);
    expect(resumed.time).toBe(straight.time);
    expect(await resumed.readStats()).toEqual(await straight.readStats());
  });

  it('GPU: N steps straight equal N/2, snapshot, restore, N/2, bit for bit', async () => {
    const { device } = gpu.get();
    const straight = await gpuSystemFor(device, scene(name), DEFAULT_VARIANT);
    const halted = await gpuSystemFor(device, scene(name), DEFAULT_VARIANT);
    let resumed: ParticleSystem | null = null;
    try {
      await straight.stepMany(DT, STEPS);
      await halted.stepMany(DT, STEPS / 2);
      resumed = await ParticleSystem.restore(device, await halted.snapshot());
      await resumed.stepMany(DT, STEPS / 2);
      expectSameBytes(await resumed.snapshot(), await straight.snapshot(), `${name}: snapshot after ${STEPS} steps`);
      expect(await resumed.readStats()).toEqual(await straight.readStats());
    } finally {
      straight.destroy();
      halted.destroy();
      resumed?.destroy();
    }
  });

  it('a snapshot restores on the other backend with every word unchanged, and steps on', async () => {
    const { device } = gpu.get();
    const onGpu = await gpuSystemFor(device, scene(name), DEFAULT_VARIANT);
    let back: ParticleSystem | null = null;
    try {
      await onGpu.stepMany(DT, STEPS / 2);
      const fromGpu = await onGpu.snapshot();
      const onCpu = CpuParticleSystem.restore(fromGpu);
      expectSameState(decodeSnapshot(onCpu.snapshot()), decodeSnapshot(fromGpu));
      onCpu.stepMany(DT, 4);
      const fromCpu = onCpu.snapshot();
      back = await ParticleSystem.restore(device, fromCpu);
      expectSameState(decodeSnapshot(await back.snapshot()), decodeSnapshot(fromCpu));
      expect(back.stepCount).toBe(STEPS / 2 + 4);
      await back.stepMany(DT, 4);
      expect(back.stepCount).toBe(STEPS / 2 + 8);
    } finally {
      onGpu.destroy();
      back?.destroy();
    }
  });
});

describe('what a snapshot keeps besides the particles', () => {
  it('non-finite counts, emitter settings changed at run time, forces with targets, and later changes', async () => {
    const { device } = gpu.get();
    const options = {
      capacity: 64,
      permanent: 4,
      emitters: [{ rate: 120, lifetime: [0.25, 0.5] as [number, number], seed: 3 }],
      collisions: { colliders: [{ type: 'plane' as const, normal: [0, 1, 0], offset: -1 }], restitution: 0.25 },
    };
    const system = await ParticleSystem.create(device, options);
    let restored: ParticleSystem | null = null;
    try {
      // 3e38 + 3e38 overflows float32: particle 0 goes non-finite in the first step.
      await system.writeParticles(0, [{ position: [3e38, 0, 0], velocity: [3e38, 0, 0] }]);
      system.forces.add({ type: 'gravity', g: [0, -9.81, 0] }, { start: 1, count: 2 });
      system.forces.add({ type: 'drag', k1: 0.1, k2: 0.01 }, { indices: [0, 3] });
      system.emitters?.set(0, { rate: 300, position: [1, 2, 3] });
      system.emitters?.burst(0, 7);
      await system.stepMany(1, 2);
      const stats = await system.readStats();
      expect(stats.nonFinite).toBe(1);
      restored = await ParticleSystem.restore(device, await system.snapshot());
      expect(await restored.readStats()).toEqual(stats);
      // A restored system draws before its first step: the draws' indirect arguments (derived from the live count).
      expect(await drawArguments(device, restored)).toEqual(await drawArguments(device, system));
      expect((await drawArguments(device, restored))[ARGS.drawPoints]).toBe(stats.live);
      expect(restored.forces.handles.map((h) => h.generator)).toEqual(system.forces.handles.map((h) => h.generator));
      expect(restored.emitters?.get(0)).toEqual(system.emitters?.get(0));
      expect(restored.time).toBe(2);
      // Changes after a restore act on the restored system as on the original.
      for (const s of [system, restored]) {
        s.emitters?.burst(0, 3);
        await s.setColliders([{ type: 'sphere', center: [0, 0, 0], radius: 0.5 }]);
        await s.stepMany(DT, 3);
      }
      expectSameBytes(await restored.snapshot(), await system.snapshot(), 'after the same changes');
    } finally {
      system.destroy();
      restored?.destroy();
    }
  });
});

/** The lifecycle's indirect arguments (dispatches and draws), read back. */
async function drawArguments(device: GPUDevice, system: ParticleSystem): Promise<number[]> {
  const args = system.liveBuffers?.args;
  if (!args) throw new Error('no live list');
  const staging = device.createBuffer({ size: args.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(args, 0, staging, 0, args.size);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const words = Array.from(new Uint32Array(staging.getMappedRange().slice(0)));
  staging.destroy();
  // Only the draws: the dispatch sizes of the last step's passes are rewritten by every step's plan before use.
  return words.map((word, i) => (i >= ARGS.drawQuads && i < ARGS.drawPoints + 4 ? word : 0));
}

/** Rewrites the header's CRC-32 after an edit, so the edit itself is what restore meets. */
function resealed(bytes: Uint8Array): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(24, CRC32.buf(copy.subarray(28)) >>> 0, true);
  return copy;
}

describe('empty lists', () => {
  it('a system without colliders or links restores without any (not one record of zeros)', async () => {
    const bytes = new CpuParticleSystem({ capacity: 4 }).snapshot();
    const { colliders, links } = decodeSnapshot(bytes);
    expect([colliders.count, links.records.count]).toEqual([0, 0]);
    const restored = await ParticleSystem.restore(gpu.get().device, bytes);
    try {
      expect(restored.stepPasses).toEqual(['integrate']);
    } finally {
      restored.destroy();
    }
    expect(CpuParticleSystem.restore(bytes).collisions.active).toBe(false);
  });
});

describe('refused snapshots change nothing and say why', () => {
  const taken = () => {
    const system = new CpuParticleSystem({ capacity: 8, emitters: [{ rate: 10 }] });
    system.stepMany(DT, 3);
    return system.snapshot();
  };

  it('a corrupt byte anywhere is caught by the checksum', () => {
    const bytes = taken();
    for (const at of [30, 100, bytes.byteLength - 1]) {
      const corrupt = bytes.slice();
      corrupt[at] = (corrupt[at] as number) ^ 0x10;
      expect(() => CpuParticleSystem.restore(corrupt)).toThrow(
        /snapshot is corrupt: its CRC-32 is 0x[0-9a-f]{8} where its header says/,
      );
    }
  });

  it('a truncated snapshot names both lengths', () => {
    const bytes = taken();
    expect(() => CpuParticleSystem.restore(bytes.subarray(0, bytes.byteLength - 8))).toThrow(
      new RegExp(`snapshot is truncated: ${bytes.byteLength - 8} bytes where its header says ${bytes.byteLength}`),
    );
    expect(() => CpuParticleSystem.restore(bytes.subarray(0, 20))).toThrow(/shorter than the 48-byte header/);
  });

  it('a newer or older format version is refused naming both versions', () => {
    const bytes = taken();
    for (const version of [SNAPSHOT_VERSION + 1, 0]) {
      const edited = bytes.slice();
      new DataView(edited.buffer).setUint32(8, version, true);
      const error = (() => {
        try {
          CpuParticleSystem.restore(resealed(edited));
        } catch (e) {
          return e as SnapshotError;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(SnapshotError);
      expect(error?.message).toContain(`snapshot format version ${version} is`);
      expect(error?.message).toContain(`(versions 1 to ${SNAPSHOT_VERSION})`);
    }
  });

  it('other files and values are not snapshots', async () => {
    const scene = new TextEncoder().encode(readFileSync('public/scenes/ballistic.json', 'utf8'));
    // The scene file starts `{\n  "$schema"`: the refusal quotes its first bytes, escaped.
    expect(() => CpuParticleSystem.restore(scene)).toThrow(/not a Sparkworks snapshot: it starts "\{\\n  \\"\$sc"/);
    expect(() => CpuParticleSystem.restore('SPKWSNAP' as never)).toThrow(/a snapshot must be bytes/);
    await expect(ParticleSystem.restore(gpu.get().device, new Uint8Array(4))).rejects.toThrow(SnapshotError);
  });

  it('a float64 CPU snapshot does not restore in float32, on either backend', async () => {
    const system = new CpuParticleSystem({ capacity: 4, precision: 'float64' });
    system.step(DT);
    const bytes = system.snapshot();
    expect(CpuParticleSystem.restore(bytes).precision).toBe('float64');
    expect(() => CpuParticleSystem.restore(bytes, { precision: 'float32' })).toThrow(
      /a float64 snapshot cannot restore in float32 precision/,
    );
    await expect(ParticleSystem.restore(gpu.get().device, bytes)).rejects.toThrow(/cannot restore on the GPU/);
  });

  it('a snapshot whose sections disagree with its header is refused before a system is built', () => {
    const bytes = taken();
    // Capacity 8 -> 9 in the header: the configuration and every section size now disagree.
    const edited = bytes.slice();
    new DataView(edited.buffer).setUint32(28, 9, true);
    expect(() => CpuParticleSystem.restore(resealed(edited))).toThrow(SnapshotError);
  });
});
