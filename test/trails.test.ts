/**
 * Trails (src/render/trailPass.ts, src/core/look/trails.ts): the rings the
 * record pass keeps on the GPU equal the CPU reference word for word (the
 * samples are copies of positions, so exactly), with and without emitters,
 * and after slots are recycled a slot's ring holds only its new particle's
 * positions, also where a binding trails some spawn rules only; the draw puts a ribbon where the curves say, read back pixel by
 * pixel; bad curves and lengths are refused.
 */
import { describe, expect, it } from 'vitest';
import { evaluateCurve, evaluateGradient } from '../src/core/look/curves';
import {
  CpuTrailRings,
  TRAIL_HEAD,
  validateTrailCurves,
  checkTrailLength,
  type TrailCurves,
} from '../src/core/look/trails';
import { FLOATS_PER_PARTICLE, lifeIndex } from '../src/core/layout';
import { SparkworksInputError } from '../src/core/errors';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { withErrorScopes } from '../src/gpu/device/errors';
import { DEFAULT_TRAIL_LOOK, TrailPass, type TrailBinding, type TrailLook } from '../src/render/trailPass';
import { useDevice } from './support/gpu';
import { OffscreenTarget } from './support/offscreen';

const gpu = useDevice();

/** Copies `buffer` out through a staging buffer (unmapped and destroyed after). */
async function readWords(device: GPUDevice, buffer: GPUBuffer): Promise<ArrayBuffer> {
  const staging = device.createBuffer({
    label: 'test.trailsRead',
    size: buffer.size,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  try {
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    return staging.getMappedRange().slice(0);
  } finally {
    staging.unmap();
    staging.destroy();
  }
}

/** One step and one recording in one command buffer, as a frame loop records them. */
async function stepAndRecord(system: ParticleSystem, trails: TrailPass, binding: TrailBinding, dt: number) {
  const { device } = gpu.get();
  await withErrorScopes(device, 'stepAndRecord', () => {
    const encoder = device.createCommandEncoder();
    system.encodeSteps(encoder, dt, 1);
    trails.record(encoder, binding);
    device.queue.submit([encoder.finish()]);
    system.submitted();
  });
}

/**
 * `steps` times stepAndRecord, each followed by the particles and the
 * lifecycle read back, with the life records as the reference reads them.
 */
async function* recordedSteps(
  system: ParticleSystem,
  trails: TrailPass,
  binding: TrailBinding,
  dt: number,
  steps: number,
) {
  for (let step = 1; step <= steps; step++) {
    await stepAndRecord(system, trails, binding, dt);
    const particles = await system.readPacked();
    const state = await system.readLifecycle();
    if (!state) throw new Error('no lifecycle state');
    const words = state.life.words;
    const life = {
      alive: (slot: number) => words[lifeIndex(slot, 'alive')] !== 0,
      generation: (slot: number) => words[lifeIndex(slot, 'generation')] as number,
      rule: (slot: number) => words[lifeIndex(slot, 'rule')] as number,
    };
    yield { particles, state, life };
  }
}

async function expectRingsEqual(binding: TrailBinding, reference: CpuTrailRings) {
  const { device } = gpu.get();
  const heads = new Uint32Array(await readWords(device, binding.heads));
  const samples = new Float32Array(await readWords(device, binding.samples));
  // Word for word: the heads are integers and the samples copies of float32 positions.
  expect(Array.from(heads)).toEqual(Array.from(reference.heads));
  expect(Array.from(samples)).toEqual(Array.from(reference.samples));
}

describe('CpuTrailRings (the reference)', () => {
  it('keeps the last `length` positions newest first, and starts over on a new generation or a free slot', () => {
    const rings = new CpuTrailRings(1, 3);
    const particle = new Float32Array(FLOATS_PER_PARTICLE);
    let generation = 1;
    let alive = true;
    const life = { alive: () => alive, generation: () => generation };
    for (let x = 1; x <= 4; x++) {
      particle[0] = x;
      rings.record(particle, 1, life);
    }
    expect(rings.trail(0)).toEqual([
      [4, 0, 0],
      [3, 0, 0],
      [2, 0, 0],
    ]);
    generation = 2;
    particle[0] = 10;
    rings.record(particle, 1, life);
    expect(rings.trail(0)).toEqual([[10, 0, 0]]);
    alive = false;
    rings.record(particle, 1, life);
    expect(rings.trail(0)).toEqual([]);
  });

  it('refuses lengths outside [2, 256] and bad curves, naming the stop', () => {
    expect(() => checkTrailLength(1)).toThrow(SparkworksInputError);
    expect(() => checkTrailLength(257)).toThrow(/must be an integer in \[2, 256\]/);
    expect(() => validateTrailCurves('trail', { width: [], color: [{ at: 0, color: [1, 1, 1] }] })).toThrow(
      /trail\.width.*1 to 8 stops/,
    );
    expect(() =>
      validateTrailCurves('trail', {
        width: [{ at: 0, value: 1 }],
        color: [
          { at: 0.5, color: [1, 1, 1] },
          { at: 0.2, color: [1, 1, 1] },
        ],
      }),
    ).toThrow(/trail\.color\[1\]\.at/);
    expect(() =>
      validateTrailCurves('trail', { width: [{ at: 0, value: -1 }], color: [{ at: 0, color: [1, 1, 1] }] }),
    ).toThrow(/trail\.width\[0\]\.value/);
  });
});

describe('TrailPass record (GPU against the CPU reference)', () => {
  it('without emitters: every slot, the ring wrapping, equal to the reference after every few steps', async () => {
    const { device } = gpu.get();
    const count = 100;
    const length = 5;
    const system = await ParticleSystem.create(device, { capacity: count });
    await system.writeParticles(
      0,
      Array.from({ length: count }, (_, i) => ({
        position: [i * 0.1, Math.sin(i), -i * 0.03] as [number, number, number],
        velocity: [Math.cos(i), 1 + i * 0.01, 0.5] as [number, number, number],
        acceleration: [0, -9.81, 0] as [number, number, number],
        damping: 0.9,
      })),
    );
    const trails = new TrailPass(device, 'rgba8unorm', 'depth24plus');
    const binding = trails.bind('test.trails', system.buffer, { count, length });
    const reference = new CpuTrailRings(count, length);
    try {
      for (let step = 1; step <= 13; step++) {
        await stepAndRecord(system, trails, binding, 1 / 60);
        reference.record(await system.readPacked(), count);
        if (step === 3 || step === 13) await expectRingsEqual(binding, reference);
      }
      // Full rings: every slot holds `length` samples, the newest its current position.
      const now = await system.readPacked();
      expect(reference.trail(7)).toHaveLength(length);
      expect(reference.trail(7)[0]).toEqual(
        Array.from(now.subarray(7 * FLOATS_PER_PARTICLE, 7 * FLOATS_PER_PARTICLE + 3)),
      );
    } finally {
      binding.destroy();
      binding.destroy();
      trails.destroy();
      trails.destroy();
      system.destroy();
    }
  });

  it('with emitters and short lives: recycled slots restart their trails, free slots keep none', async () => {
    const { device } = gpu.get();
    const capacity = 64;
    const length = 6;
    const dt = 1 / 64;
    const system = await ParticleSystem.create(device, {
      capacity,
      emitters: [
        {
          rate: 1500,
          // [2^-4, 2^-3]: a few steps each, so slots are recycled many times within the run.
          lifetime: [0.0625, 0.125],
          shape: { type: 'sphere', radius: 1 },
          velocity: { spread: Math.PI, speed: [1, 3] },
          seed: 3,
        },
      ],
    });
    const live = system.liveBuffers;
    if (!live) throw new Error('a system with emitters has live buffers');
    const trails = new TrailPass(device, 'rgba8unorm', 'depth24plus');
    const binding = trails.bind('test.trails', system.buffer, { count: capacity, length, live });
    const reference = new CpuTrailRings(capacity, length);
    const generationOf = TRAIL_HEAD.offsets.generation / 4;
    const heldOf = TRAIL_HEAD.offsets.count / 4;
    let restarts = 0;
    try {
      for await (const { particles, state, life } of recordedSteps(system, trails, binding, dt, 24)) {
        // Count the recycled slots whose ring held the previous occupant's samples.
        for (let slot = 0; slot < capacity; slot++) {
          const h = slot * TRAIL_HEAD.words;
          if (
            life.alive(slot) &&
            reference.heads[h + heldOf]! > 0 &&
            reference.heads[h + generationOf] !== life.generation(slot)
          ) {
            restarts++;
          }
        }
        reference.record(particles, capacity, life);
        await expectRingsEqual(binding, reference);
        // A live slot's ring holds its own particle's positions only: at most one a step since its birth.
        for (let slot = 0; slot < capacity; slot++) {
          if (!life.alive(slot)) {
            expect(reference.trail(slot)).toEqual([]);
            continue;
          }
          const age = state.life.floats[lifeIndex(slot, 'age')] as number;
          expect(reference.trail(slot).length).toBeLessThanOrEqual(Math.round(age / dt) + 1);
        }
      }
      expect(restarts).toBeGreaterThan(0);
      // The draw with life records (free and recycled slots hidden) runs and draws the live trails.
      const target = new OffscreenTarget(device, 64, 'rgba8unorm');
      try {
        const half = [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.1, 0, 0, 0, 0.5, 1];
        const view = { viewProjection: half, width: 64, height: 64, focalPixels: 16 };
        const look: TrailLook = { ...DEFAULT_TRAIL_LOOK, width: 0.1 };
        const pixels = new Uint8Array(await target.render('trails', (pass) => trails.draw(pass, binding, look, view)));
        expect(pixels.some((v) => v > 0)).toBe(true);
      } finally {
        target.destroy();
      }
    } finally {
      binding.destroy();
      trails.destroy();
      system.destroy();
    }
  });
});

describe('TrailPass record for some spawn rules only (a rule’s own trails)', () => {
  it('records the trailed rule’s slots only, as the reference does, through recycling between the rules', async () => {
    const { device } = gpu.get();
    const capacity = 64;
    const length = 5;
    const dt = 1 / 64;
    // Two emitters sharing one pool, short lives: slots pass from one rule to the other many times.
    const emitter = (seed: number) => ({
      rate: 800,
      lifetime: [0.0625, 0.125] as [number, number],
      shape: { type: 'sphere' as const, radius: 1 },
      velocity: { spread: Math.PI, speed: [1, 3] as [number, number] },
      seed,
    });
    const system = await ParticleSystem.create(device, { capacity, emitters: [emitter(5), emitter(6)] });
    const live = system.liveBuffers;
    if (!live) throw new Error('a system with emitters has live buffers');
    const trails = new TrailPass(device, 'rgba8unorm', 'depth24plus');
    const binding = trails.bind('test.ruleTrails', system.buffer, { count: capacity, length, live, rules: [1] });
    const reference = new CpuTrailRings(capacity, length);
    const generationOf = TRAIL_HEAD.offsets.generation / 4;
    let trailedSlots = 0;
    let untrailedSlots = 0;
    let restarts = 0;
    try {
      for await (const { particles, state, life } of recordedSteps(system, trails, binding, dt, 24)) {
        for (let slot = 0; slot < capacity; slot++) {
          const h = slot * TRAIL_HEAD.words;
          if (life.alive(slot) && life.rule(slot) === 1 && reference.heads[h + generationOf] !== life.generation(slot))
            restarts++;
        }
        reference.record(particles, capacity, life, [1]);
        await expectRingsEqual(binding, reference);
        for (let slot = 0; slot < capacity; slot++) {
          if (!life.alive(slot)) continue;
          const trail = reference.trail(slot);
          if (life.rule(slot) === 1) {
            // Its own particle's positions only: at least this recording, at most one a step since its birth.
            const age = state.life.floats[lifeIndex(slot, 'age')] as number;
            expect(trail.length).toBeGreaterThanOrEqual(1);
            expect(trail.length).toBeLessThanOrEqual(Math.round(age / dt) + 1);
            trailedSlots++;
          } else {
            expect(trail, `slot ${slot} of rule 0`).toEqual([]);
            untrailedSlots++;
          }
        }
      }
      // Both rules were live, and rule 1's slots started over when recycled.
      expect(trailedSlots).toBeGreaterThan(0);
      expect(untrailedSlots).toBeGreaterThan(0);
      expect(restarts).toBeGreaterThan(0);
    } finally {
      binding.destroy();
      trails.destroy();
      system.destroy();
    }
  });

  it('refuses rules without life records and rules outside [0, 64)', () => {
    const { device } = gpu.get();
    const particles = device.createBuffer({ label: 'test.particles', size: 4 * 64, usage: GPUBufferUsage.STORAGE });
    const trails = new TrailPass(device, 'rgba8unorm', 'depth24plus');
    try {
      expect(() => trails.bind('test.noLife', particles, { count: 4, length: 4, rules: [0] })).toThrow(
        /test\.noLife: trails for some spawn rules need the system's live source/,
      );
      const reference = new CpuTrailRings(1, 2);
      const life = { alive: () => true, generation: () => 0, rule: () => 0 };
      expect(() => reference.record(new Float32Array(FLOATS_PER_PARTICLE), 1, life, [64])).toThrow(
        /trail rules\[0\] = 64 is invalid/,
      );
    } finally {
      trails.destroy();
      particles.destroy();
    }
  });
});

describe('TrailPass draw (pixels)', () => {
  /** The target's side in pixels; a row is 64 * 4 = 256 bytes, copyTextureToBuffer's row alignment. */
  const SIZE = 64;
  /** Column-major identity: world x, y are clip x, y; 1 world unit is 32 pixels. */
  const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const PIXELS_PER_UNIT = SIZE / 2;

  it('a particle moving along x leaves a ribbon of the curves’ width and colour at known points', async () => {
    const { device } = gpu.get();
    const length = 8;
    // 1.5 m/s for 2^-3 s: 0.1875 (3/16) a step, exact in float32, so samples 6 px apart.
    const dt = 0.125;
    const system = await ParticleSystem.create(device, { capacity: 1 });
    await system.writeParticles(0, [{ position: [-0.75, 0, 0.5], velocity: [1.5, 0, 0] }]);
    const trails = new TrailPass(device, 'rgba8unorm', 'depth24plus');
    const binding = trails.bind('test.trail', system.buffer, { count: 1, length });
    const target = new OffscreenTarget(device, SIZE, 'rgba8unorm');
    const curves: TrailCurves = {
      width: [
        { at: 0, value: 1 },
        { at: 0.5, value: 0.75 },
        { at: 1, value: 0.25 },
      ],
      color: [
        { at: 0, color: [1, 0.8, 0.2, 1] },
        { at: 0.5, color: [0.2, 0.6, 1, 0.8] },
        { at: 1, color: [0, 0, 1, 0.4] },
      ],
    };
    // 0.5 world units wide at the head: 16 pixels.
    const look: TrailLook = { width: 0.5, curves, blend: 'alpha', intensity: 1 };
    try {
      await withErrorScopes(device, 'record', () => {
        const encoder = device.createCommandEncoder();
        trails.record(encoder, binding);
        device.queue.submit([encoder.finish()]);
      });
      for (let step = 1; step < length; step++) await stepAndRecord(system, trails, binding, dt);
      const heads = new Uint32Array(await readWords(device, binding.heads));
      const samples = new Float32Array(await readWords(device, binding.samples));
      const xs = CpuTrailRings.trail(heads, samples, length, 0).map((p) => p[0]!);
      expect(xs).toEqual(Array.from({ length }, (_, k) => 0.5625 - 0.1875 * k));
      const view = { viewProjection: IDENTITY, width: SIZE, height: SIZE, focalPixels: PIXELS_PER_UNIT };
      const pixels = new Uint8Array(await target.render('trail', (pass) => trails.draw(pass, binding, look, view)));
      const at = (x: number, y: number, c: number) => pixels[(y * SIZE + x) * 4 + c]!;

      // Pixels from the left of the head (50) and the tail (8); u runs 0 at the head to 1 at the tail.
      const headX = (xs[0]! + 1) * PIXELS_PER_UNIT;
      const tailX = (xs[length - 1]! + 1) * PIXELS_PER_UNIT;
      let checked = 0;
      for (let x = Math.ceil(tailX) + 1; x < headX - 1; x += 3) {
        const u = (headX - (x + 0.5)) / (headX - tailX);
        // The width is linear between samples (a trapezoid a segment), the curve taken at the samples.
        const k = Math.min(Math.floor(u * (length - 1)), length - 2);
        const share = u * (length - 1) - k;
        const widthAtSample = (j: number) => look.width * evaluateCurve(curves.width, j / (length - 1));
        const width = (widthAtSample(k) * (1 - share) + widthAtSample(k + 1) * share) * PIXELS_PER_UNIT;
        let covered = 0;
        for (let y = 0; y < SIZE; y++) if (at(x, y, 3) > 0) covered++;
        // Pixel centres inside a band of `width` pixels centred on a row boundary: within one pixel of it.
        expect(Math.abs(covered - width), `column ${x}: ${covered} px covered, ${width} expected`).toBeLessThanOrEqual(
          1,
        );
        // Colour at the centre row, from the gradient at u (premultiplied, as the blend expects):
        // 8-bit rounding is 0.5/255, the interpolated u's float32 error far below the rest.
        const [r, g, b, a] = evaluateGradient(curves.color, u);
        const expected = [r! * a!, g! * a!, b! * a!, a!];
        for (let c = 0; c < 4; c++) {
          const got = at(x, SIZE / 2, c) / 255;
          expect(Math.abs(got - expected[c]!), `column ${x} channel ${c}`).toBeLessThanOrEqual(1 / 255);
        }
        checked++;
      }
      expect(checked).toBeGreaterThan(10);
      // Nothing past the head or the tail (no caps).
      for (let y = 0; y < SIZE; y++) {
        expect(at(Math.ceil(headX) + 1, y, 3)).toBe(0);
        expect(at(Math.floor(tailX) - 2, y, 3)).toBe(0);
      }
    } finally {
      target.destroy();
      binding.destroy();
      trails.destroy();
      system.destroy();
    }
  });
});
