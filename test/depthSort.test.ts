/**
 * Depth sorting on the GPU (src/render/depthSort.ts) against its CPU
 * reference (src/core/depthSort.ts): the keys bit for bit and the order
 * exactly, at counts around powers of two, with ties; and by pixels, an
 * alpha-blended draw through the GPU's order equals a draw of the same
 * particles written in the CPU's order.
 */
import { describe, expect, it } from 'vitest';
import { BYTES_PER_PARTICLE, FLOATS_PER_PARTICLE, OFFSET } from '../src/core/layout';
import { backToFront, DEAD_KEY, depthKey, depthKeys, depthRow } from '../src/core/depthSort';
import { cycloneLaunchers } from '../src/core/emitters/cyclone';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { fireworkRules } from '../src/demos/fireworks/fireworks';
import { withErrorScopes } from '../src/gpu/device/errors';
import { OrbitCamera } from '../src/render/camera';
import { DepthSort } from '../src/render/depthSort';
import { DEFAULT_LOOK, type ParticleLook } from '../src/render/particleLook';
import type { ParticleBinding } from '../src/render/particleBinding';
import { ParticlePass } from '../src/render/particlePass';
import { useDevice } from './support/gpu';
import { OffscreenTarget } from './support/offscreen';
import {
  IDENTITY,
  firstDifference,
  lcg,
  particleBuffer,
  randomRecords,
  renderSortedDraw,
  sortedDrawFailures,
} from './support/lookPixels';

const gpu = useDevice();
const { POSITION, INVERSE_MASS, VELOCITY } = OFFSET;

async function readWords(device: GPUDevice, source: GPUBuffer, words: number): Promise<Uint32Array> {
  const staging = device.createBuffer({
    label: 'test.read',
    size: words * 4,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(source, 0, staging, 0, words * 4);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  staging.destroy();
  return out;
}

/**
 * `count` particles whose coordinates are multiples of 1/8 in [-8, 8) and
 * velocities multiples of 1/8 too: with the row and extrapolation below
 * (also multiples of powers of two, few bits), every product and sum is
 * exact in float32, so fused or not the GPU's depths are the CPU's bit for
 * bit. Only 128 distinct depths along the row: most keys tie.
 */
function tiedRecords(count: number, seed: number): Float32Array<ArrayBuffer> {
  const random = lcg(seed);
  const records = new Float32Array(count * FLOATS_PER_PARTICLE);
  const eighth = () => Math.floor(random() * 128 - 64) / 8;
  for (let i = 0; i < count; i++) {
    const b = i * FLOATS_PER_PARTICLE;
    for (let k = 0; k < 3; k++) {
      records[b + POSITION + k] = eighth();
      records[b + VELOCITY + k] = eighth();
    }
    records[b + INVERSE_MASS] = i % 5 === 0 ? 0 : 1; // immovable ones are drawn where they are
  }
  return records;
}

/** Sorts `records` on the GPU through `viewProjection`; the GPU's sorted keys and slots. */
async function sortOnGpu(
  device: GPUDevice,
  records: Float32Array<ArrayBuffer>,
  count: number,
  viewProjection: ArrayLike<number>,
  extrapolate: number,
): Promise<{ keys: Uint32Array; slots: Uint32Array }> {
  const particles = particleBuffer(device, records);
  const sort = new DepthSort(device, { label: `test.sort${count}`, particles, count });
  try {
    await withErrorScopes(device, `a depth sort of ${count}`, () => {
      const encoder = device.createCommandEncoder();
      sort.encode(encoder, { viewProjection }, { extrapolate });
      device.queue.submit([encoder.finish()]);
    });
    return { keys: await readWords(device, sort.keys, count), slots: await readWords(device, sort.slots, count) };
  } finally {
    sort.destroy();
    sort.destroy(); // safe twice
    particles.destroy();
  }
}

describe('depth keys (CPU)', () => {
  it('order as the depth does, reversed: ascending keys run back to front', () => {
    const depths = [-Infinity, -1e30, -2, -1, -1e-40, -0, 0, 1e-40, 1, 2, 1e30, Infinity];
    const keys = depths.map(depthKey);
    for (let i = 1; i < keys.length; i++)
      expect(keys[i], `${depths[i]} after ${depths[i - 1]}`).toBeLessThan(keys[i - 1]!);
  });

  it('sort ties by slot', () => {
    expect(Array.from(backToFront(Uint32Array.from([5, 3, 5, 3, 0])))).toEqual([4, 1, 3, 0, 2]);
  });

  it('take clip w as the depth with perspective, clip z where w is constant', () => {
    const camera = new OrbitCamera({ target: [0, 0, 0], distance: 4, yaw: 0.6, pitch: 0.3 });
    camera.update(1);
    const row = depthRow(new Float32Array(4), camera.viewProjection);
    const m = camera.viewProjection;
    expect(Array.from(row)).toEqual([m[3], m[7], m[11], m[15]].map((v) => Math.fround(v!)));
    const ortho = Float32Array.from([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0.5, 0, 0, 0, 0.25, 1]);
    expect(Array.from(depthRow(new Float32Array(4), ortho))).toEqual([0, 0, 0.5, 0.25]);
  });
});

describe('DepthSort on the GPU', () => {
  // A row and extrapolation with few bits: every depth of tiedRecords is exact (see there).
  const VIEW = Float32Array.from([1, 0, 0, 0.5, 0, 1, 0, -0.25, 0, 0, 1, 1, 0, 0, 0, 2]);
  const EXTRAPOLATE = 0.5;

  it.each([1, 255, 256, 257, 65_537])(
    '%i particles: the GPU keys are the CPU keys and the order is theirs',
    async (count) => {
      const { device } = gpu.get();
      const records = tiedRecords(count, count);
      const row = depthRow(new Float32Array(4), VIEW);
      const cpuKeys = depthKeys(records, count, row, EXTRAPOLATE);
      const order = backToFront(cpuKeys);
      const { keys, slots } = await sortOnGpu(device, records, count, VIEW, EXTRAPOLATE);
      // Ties there are: fewer distinct keys than particles (from 257 on).
      if (count > 256) expect(new Set(cpuKeys).size).toBeLessThan(count);
      expect(firstDifference(slots, order), 'slots').toBeNull();
      expect(
        firstDifference(
          keys,
          order.map((slot) => cpuKeys[slot]!),
        ),
        'keys',
      ).toBeNull();
    },
  );

  it('orders arbitrary depths through a perspective camera as the CPU orders the GPU keys', async () => {
    // Arbitrary floats: the GPU may fuse a multiply and an add, so its depths may differ from the
    // CPU's in the last bit. So the order is checked against a CPU sort of the GPU's own keys
    // (read back), and the slots must be a permutation.
    const { device } = gpu.get();
    const count = 4097;
    const records = randomRecords(count, 7, 2, 1);
    const camera = new OrbitCamera({ target: [0, 0, 0], distance: 6, yaw: 0.6, pitch: 0.3 });
    camera.update(1);
    const { keys, slots } = await sortOnGpu(device, records, count, camera.viewProjection, 0.01);
    // The GPU's keys in slot order, then sorted on the CPU.
    const bySlot = new Uint32Array(count);
    slots.forEach((slot, i) => (bySlot[slot] = keys[i]!));
    expect(firstDifference(slots, backToFront(bySlot)), 'slots').toBeNull();
    expect(new Set(slots).size).toBe(count);
  });
});

describe('DepthSort over the live list', () => {
  it('sorts every slot of a fireworks system, the live ones first back to front, the free ones after, ties by slot', async () => {
    const { device } = gpu.get();
    const capacity = 2048;
    const system = await ParticleSystem.create(device, {
      capacity,
      emitters: cycloneLaunchers(2, 5),
      fireworks: fireworkRules(2, 9.81, 5),
    });
    const live = system.lifecycle!.buffers;
    const sort = new DepthSort(device, {
      label: 'test.liveSort',
      particles: system.particles.buffer,
      count: capacity,
      live,
    });
    const camera = new OrbitCamera({ target: [0, 5, 0], distance: 30, yaw: 0.6, pitch: 0.3 });
    camera.update(1);
    // The draws: every point into one rgba16float pixel, additive, so its alpha counts the points drawn.
    const pass = new ParticlePass(device, 'rgba16float', 'depth24plus');
    const sortedBinding = pass.bindSorted('test.liveSorted', system.particles.buffer, sort);
    const liveBinding = pass.bindLive('test.live', system.particles.buffer, live);
    const target = new OffscreenTarget(device, 1, 'rgba16float');
    const pixel = {
      viewProjection: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5, 1],
      width: 1,
      height: 1,
      focalPixels: 1,
    };
    const points: ParticleLook = {
      ...DEFAULT_LOOK,
      mode: 'points',
      blend: 'additive',
      colorMode: 'speed',
      intensity: 1,
    };
    const drawnAlpha = async (binding: ParticleBinding, look: ParticleLook) =>
      new Uint16Array(
        await target.render('a live draw', (r) => pass.draw(r, binding, look, pixel, { extrapolate: 0, time: 0 })),
      )[3]!;
    try {
      for (const steps of [0, 45, 90]) {
        if (steps > 0) await system.stepMany(1 / 60, steps);
        const lifecycle = (await system.readLifecycle())!;
        await withErrorScopes(device, 'a live depth sort', () => {
          const encoder = device.createCommandEncoder();
          sort.encode(encoder, camera, { extrapolate: 0.004 });
          device.queue.submit([encoder.finish()]);
        });
        const keys = await readWords(device, sort.keys, capacity);
        const slots = await readWords(device, sort.slots, capacity);
        const alive = Uint32Array.from({ length: capacity }, (_, slot) => lifecycle.life.get(slot, 'alive'));
        const liveCount = lifecycle.live.length;
        expect(
          alive.reduce((a, b) => a + b, 0),
          `live after ${steps} steps`,
        ).toBe(liveCount);
        // The GPU's keys by slot: the free slots' are DEAD_KEY; sorted on the CPU, the GPU's order.
        const bySlot = new Uint32Array(capacity);
        slots.forEach((slot, i) => (bySlot[slot] = keys[i]!));
        for (let slot = 0; slot < capacity; slot++) {
          if (!alive[slot]) expect(bySlot[slot], `free slot ${slot}`).toBe(DEAD_KEY);
        }
        expect(firstDifference(slots, backToFront(bySlot)), `order after ${steps} steps`).toBeNull();
        // The first `live` sorted slots are exactly the live list's.
        expect([...slots.subarray(0, liveCount)].sort((a, b) => a - b)).toEqual(
          [...lifecycle.live].sort((a, b) => a - b),
        );
        if (steps > 0) expect(liveCount).toBeGreaterThan(1);
        // Drawn through the order: as many points as the live draw (float16 counts exact below 2048), and not none.
        const sortedAlpha = await drawnAlpha(sortedBinding, { ...points, sort: 'back-to-front' });
        expect(sortedAlpha, `points drawn sorted after ${steps} steps`).toBe(await drawnAlpha(liveBinding, points));
        if (liveCount > 0) expect(sortedAlpha).toBeGreaterThan(0);
      }
    } finally {
      sortedBinding.destroy();
      liveBinding.destroy();
      pass.destroy();
      target.destroy();
      sort.destroy();
      system.destroy();
    }
  });
});

describe('DepthSort input', () => {
  it('refuses a count that is not a positive integer and a buffer too small for it', () => {
    const { device } = gpu.get();
    const particles = particleBuffer(device, new Float32Array(4 * FLOATS_PER_PARTICLE));
    try {
      for (const count of [0, -1, 2.5, Number.NaN]) {
        expect(() => new DepthSort(device, { label: 'test.bad', particles, count })).toThrow(
          /test\.bad: count .* is not a positive integer/,
        );
      }
      expect(() => new DepthSort(device, { label: 'test.bad', particles, count: 5 })).toThrow(
        /test\.bad: the buffer holds fewer than 5 particle records/,
      );
      expect(particles.size).toBe(4 * BYTES_PER_PARTICLE);
    } finally {
      particles.destroy();
    }
  });
});

// The same check runs in Chromium too (test/browser.look.test.ts), from the same setup (test/support/lookPixels.ts).
describe('a sorted alpha-blended draw', () => {
  it('equals a draw of the same particles written in the CPU order, and differs from the unsorted draw', async () => {
    const { device } = gpu.get();
    expect(sortedDrawFailures(await renderSortedDraw(device))).toEqual([]);
  });

  it('needs a sorted binding for a sorted look, and a sorted look for a sorted binding', () => {
    const { device } = gpu.get();
    const particles = particleBuffer(device, new Float32Array(4 * FLOATS_PER_PARTICLE));
    const pass = new ParticlePass(device, 'rgba16float', 'depth24plus');
    const sort = new DepthSort(device, { label: 'test.sort', particles, count: 4 });
    const sorted = pass.bindSorted('test.sorted', particles, sort);
    const plain = pass.bind('test.plain', particles);
    const view = { viewProjection: IDENTITY, width: 4, height: 4, focalPixels: 2 };
    const time = { extrapolate: 0, time: 0 };
    const look: ParticleLook = { ...DEFAULT_LOOK, blend: 'alpha', sort: 'back-to-front' };
    const unsortedLook = { ...look, sort: 'none' as const };
    try {
      expect(() => pass.draw({} as GPURenderPassEncoder, plain, look, view, time, { count: 4 })).toThrow(/bindSorted/);
      expect(() => pass.draw({} as GPURenderPassEncoder, sorted, unsortedLook, view, time, { count: 4 })).toThrow(
        /bindSorted/,
      );
    } finally {
      for (const binding of [sorted, plain]) binding.destroy();
      sort.destroy();
      pass.destroy();
      particles.destroy();
    }
  });
});
