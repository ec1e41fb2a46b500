/**
 * The look's pixel checks, defined once for the two places they run: Node's
 * WebGPU (test/look.render.test.ts, test/depthSort.test.ts) and Chromium's
 * (test/browser.look.test.ts, which bundles this module into a page). Each
 * check is a known setup, a render of it into an offscreen texture read back
 * (`render…`, which needs only a GPUDevice: no Node API here), and the
 * comparison with the values the CPU twins give (`…Failures`, an empty list
 * when every pixel is as expected), so both runtimes are held to the same
 * expectations with the same tolerances.
 *
 * The view is the identity (clip = world position, w = 1) and the focal
 * length half the target, so a world unit is half the target and a particle
 * at a pixel's centre lands on that pixel.
 */
import { curvesOfRule, evaluateCurve, evaluateGradient, type LookCurves } from '../../src/core/look/curves';
import { FLOATS_PER_PARTICLE, LIFE, OFFSET } from '../../src/core/layout';
import { LIFE_COUNTERS } from '../../src/core/emitters/gpuRecords';
import { backToFront, depthKeys, depthRow } from '../../src/core/depthSort';
import { INDIRECT_ARGS } from '../../src/shaders/indirectArgs';
import { withErrorScopes } from '../../src/gpu/device/errors';
import { OrbitCamera } from '../../src/render/camera';
import { DepthSort } from '../../src/render/depthSort';
import { DEFAULT_LOOK, type ParticleLook } from '../../src/render/particleLook';
import { ParticlePass, type LiveSource } from '../../src/render/particlePass';
import { OffscreenTarget } from './offscreen';

export const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

export interface TestParticle {
  /** Pixel column and row of its centre. */
  px: number;
  py: number;
  age: number;
  lifetime: number;
  rule?: number;
  velocity?: [number, number, number];
  generation?: number;
  /** World position instead of the pixel's centre. */
  position?: [number, number, number];
}

/** The live-list buffers of `particles`, written directly (no emitters): every slot live, in order. */
function liveSource(device: GPUDevice, size: number, particles: TestParticle[]) {
  const n = particles.length;
  const made: GPUBuffer[] = [];
  const buffer = (label: string, data: ArrayBufferView<ArrayBuffer>, usage: number) => {
    const b = device.createBuffer({
      label,
      size: Math.max(data.byteLength, 16),
      usage: usage | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(b, 0, data);
    made.push(b);
    return b;
  };
  const records = new Float32Array(n * FLOATS_PER_PARTICLE);
  const life = LIFE.array(n);
  particles.forEach((p, i) => {
    const at = i * FLOATS_PER_PARTICLE;
    records.set(
      p.position ?? [((p.px + 0.5) / size) * 2 - 1, 1 - ((p.py + 0.5) / size) * 2, 0.5],
      at + OFFSET.POSITION,
    );
    records[at + OFFSET.INVERSE_MASS] = p.velocity ? 1 : 0;
    if (p.velocity) records.set(p.velocity, at + OFFSET.VELOCITY);
    life
      .set(i, 'age', p.age)
      .set(i, 'lifetime', p.lifetime)
      .set(i, 'size', 1)
      .set(i, 'color', 0xffffffff)
      .set(i, 'rule', p.rule ?? 0)
      .set(i, 'alive', 1)
      .set(i, 'generation', p.generation ?? 0);
  });
  const counters = LIFE_COUNTERS.value().set('live', n).set('parity', 0);
  const args = INDIRECT_ARGS.value()
    .set('drawPoints', [n, 1, 0, 0])
    .set('drawQuads', [6 * n, 1, 0, 0])
    .set('drawInstanced', [6, n, 0, 0]);
  const { STORAGE, INDIRECT } = GPUBufferUsage;
  const source: LiveSource = {
    life: buffer('test.life', life.bytes, STORAGE),
    lists: buffer(
      'test.lists',
      new Uint32Array(2 * n).map((_, k) => k % n),
      STORAGE,
    ),
    counters: buffer('test.counters', counters.bytes, STORAGE),
    args: buffer('test.args', args.bytes, INDIRECT | STORAGE),
    capacity: n,
  };
  const particleBuffer = buffer('test.particles', records, STORAGE);
  return { source, particleBuffer, destroy: () => made.forEach((b) => b.destroy()) };
}

/** Draws `particles` with `look` into a cleared rgba8unorm target of `size` px; its pixels. By index (`bind`) when `byIndex`. */
export async function drawLive(
  device: GPUDevice,
  size: number,
  particles: TestParticle[],
  look: ParticleLook,
  options: { viewProjection?: number[]; focalPixels?: number; byIndex?: boolean } = {},
): Promise<Uint8Array> {
  const target = new OffscreenTarget(device, size, 'rgba8unorm');
  const pass = new ParticlePass(device, 'rgba8unorm', 'depth24plus');
  const live = liveSource(device, size, particles);
  const binding = options.byIndex
    ? pass.bind('test.look', live.particleBuffer)
    : pass.bindLive('test.look', live.particleBuffer, live.source);
  try {
    const view = {
      viewProjection: options.viewProjection ?? IDENTITY,
      width: size,
      height: size,
      focalPixels: options.focalPixels ?? size / 2,
    };
    return new Uint8Array(
      await target.render('a look draw', (render) =>
        pass.draw(render, binding, look, view, { extrapolate: 0, time: 0 }, { count: particles.length }),
      ),
    );
  } finally {
    binding.destroy();
    pass.destroy();
    live.destroy();
    target.destroy();
  }
}

export const pixelAt = (pixels: Uint8Array, size: number, x: number, y: number): number[] =>
  Array.from(pixels.subarray((y * size + x) * 4, (y * size + x) * 4 + 4));

/** Pixels in row `y` (or column `x`) lit (alpha > 0). */
export function litRun(pixels: Uint8Array, size: number, x: number, y: number, across: 'row' | 'column'): number {
  let lit = 0;
  for (let k = 0; k < size; k++) {
    const [px, py] = across === 'row' ? [k, y] : [x, k];
    if ((pixels[(py * size + px) * 4 + 3] as number) > 0) lit++;
  }
  return lit;
}

// ---- Colours over life, per rule and by speed ----

/** Particles of known ages under a draw's curves and three rules' (over life, none of its own, by speed), as points. */
export const COLOUR_CHECK = (() => {
  const size = 16;
  const curves: LookCurves = {
    color: [
      { at: 0, color: [1, 0.9, 0.5, 1] },
      { at: 0.4, color: [0.9, 0.3, 0.1, 0.8] },
      { at: 0.4, color: [0.2, 0.6, 1, 1] },
      { at: 1, color: [0.1, 0.1, 0.3, 0.5] },
    ],
    opacity: [
      { at: 0, value: 1 },
      { at: 0.75, value: 0.6 },
      { at: 1, value: 0 },
    ],
  };
  const rules: (LookCurves | null)[] = [
    null,
    {
      color: [
        { at: 0, color: [0, 1, 0, 1] },
        { at: 1, color: [1, 0, 1, 1] },
      ],
    },
    {
      colorBySpeed: {
        speedRange: 10,
        gradient: [
          { at: 0, color: [0, 0, 1, 1] },
          { at: 1, color: [1, 1, 0, 1] },
        ],
      },
    },
  ];
  const particles: TestParticle[] = [];
  const shares = [0, 0.1, 0.25, 0.39, 0.41, 0.5, 0.75, 0.9, 1];
  shares.forEach((share, k) => particles.push({ px: k, py: 1, age: share * 2, lifetime: 2, rule: 0 }));
  shares.forEach((share, k) => particles.push({ px: k, py: 3, age: share * 0.5, lifetime: 0.5, rule: 1 }));
  [0, 2.5, 5, 7.5, 10, 20].forEach((speed, k) =>
    particles.push({ px: k, py: 5, age: 0.3, lifetime: 1, rule: 2, velocity: [0, speed, 0] }),
  );
  // A rule past the table draws with the draw's curves; a particle that never dies is at age 0.
  particles.push({ px: 10, py: 7, age: 0.5, lifetime: 1, rule: 40 });
  particles.push({ px: 11, py: 7, age: 5, lifetime: Infinity, rule: 0 });
  const look: ParticleLook = { ...DEFAULT_LOOK, mode: 'points', blend: 'additive', curves, rules };
  return { size, curves, rules, particles, look };
})();

export function renderColourCheck(device: GPUDevice): Promise<Uint8Array> {
  const { size, particles, look } = COLOUR_CHECK;
  return drawLive(device, size, particles, look);
}

/** The premultiplied colour a particle of the colour check adds to black, in unorm8 units (0..255, unrounded). */
export function expectedColour(p: TestParticle): number[] {
  const own = curvesOfRule(COLOUR_CHECK.curves, COLOUR_CHECK.rules, p.rule ?? 0);
  const share = Number.isFinite(p.lifetime) ? Math.min(Math.fround(p.age / p.lifetime), 1) : 0;
  const rgba = [1, 1, 1, 1];
  if (own.color) evaluateGradient(own.color, share, rgba);
  if (own.colorBySpeed) {
    const speed = Math.hypot(...(p.velocity ?? [0, 0, 0]));
    const t = Math.min(speed / own.colorBySpeed.speedRange, 1);
    const bySpeed = evaluateGradient(own.colorBySpeed.gradient, t);
    for (let k = 0; k < 4; k++) rgba[k]! *= bySpeed[k]!;
  }
  const alpha = rgba[3]! * (own.opacity ? evaluateCurve(own.opacity, share) : 1);
  return [rgba[0]! * alpha, rgba[1]! * alpha, rgba[2]! * alpha, alpha].map((x) => x * 255);
}

/**
 * Every channel of every particle's pixel against expectedColour, within 1
 * (1/255): the shader's float32 arithmetic differs from the twin's by a few
 * ulps (< 1e-6), so the unorm8 conversion rounds to the same byte or the next.
 */
export function colourFailures(pixels: Uint8Array): string[] {
  const failures: string[] = [];
  for (const p of COLOUR_CHECK.particles) {
    const want = expectedColour(p);
    const got = pixelAt(pixels, COLOUR_CHECK.size, p.px, p.py);
    for (let c = 0; c < 4; c++) {
      if (!(Math.abs(got[c]! - want[c]!) <= 1)) {
        failures.push(
          `particle at (${p.px}, ${p.py}), rule ${p.rule}, age ${p.age} of ${p.lifetime}: channel ${c} = ${got[c]}, want ${want[c]!.toFixed(2)} (within 1)`,
        );
      }
    }
  }
  return failures;
}

// ---- Sizes over life ----

/** Sprites of known ages under a size curve, a flat white image sampled nearest: every covered pixel lit. */
export const SIZE_CHECK = (() => {
  const size = 128;
  const white = { width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) };
  const curve: NonNullable<LookCurves['size']> = [
    { at: 0, value: 0.5 },
    { at: 0.5, value: 2 },
    { at: 1, value: 1 },
  ];
  const shares = [0, 0.25, 0.5, 0.8];
  const particles: TestParticle[] = shares.map((share, k) => ({
    px: 16 + 30 * k,
    py: 64,
    age: share * 3,
    lifetime: 3,
  }));
  const look: ParticleLook = {
    ...DEFAULT_LOOK,
    mode: 'sprites',
    blend: 'additive',
    size: 0.1,
    minPixels: 0,
    curves: { size: curve },
    sprite: { shape: 'image', filter: 'nearest' },
    spriteImage: white,
  };
  return { size, curve, shares, particles, look };
})();

export function renderSizeCheck(device: GPUDevice): Promise<Uint8Array> {
  const { size, particles, look } = SIZE_CHECK;
  return drawLive(device, size, particles, look);
}

/**
 * Each sprite's lit width and height against 2r, r = look.size * the curve at
 * its age * the focal length (64 px a world unit at w = 1): the pixels whose
 * centres fall inside a quad of side 2r about a pixel centre number 2r rounded
 * to an odd count or so, within one pixel of 2r.
 */
export function sizeFailures(pixels: Uint8Array): string[] {
  const { size, curve, shares, particles } = SIZE_CHECK;
  const failures: string[] = [];
  particles.forEach((p, k) => {
    const radius = 0.1 * evaluateCurve(curve, shares[k]!) * (size / 2);
    const tall = litRun(pixels, size, p.px, p.py, 'column');
    let wide = 0;
    for (let x = p.px - 15; x <= p.px + 15; x++) if ((pixels[(p.py * size + x) * 4 + 3] as number) > 0) wide++;
    if (!(Math.abs(wide - 2 * radius) <= 1)) failures.push(`particle ${k}: ${wide} px wide, radius ${radius}`);
    if (!(Math.abs(tall - 2 * radius) <= 1)) failures.push(`particle ${k}: ${tall} px tall, radius ${radius}`);
  });
  return failures;
}

// ---- A sorted alpha-blended draw against the CPU's order ----

/** A deterministic stream in [0, 1). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * `count` movable particle records from `lcg(seed)`: positions in a cube of
 * side 2 * `position` about the origin, velocities in [-`velocity`, `velocity`) per axis.
 */
export function randomRecords(
  count: number,
  seed: number,
  position: number,
  velocity: number,
): Float32Array<ArrayBuffer> {
  const { POSITION, INVERSE_MASS, VELOCITY } = OFFSET;
  const random = lcg(seed);
  const records = new Float32Array(count * FLOATS_PER_PARTICLE);
  for (let i = 0; i < count; i++) {
    const b = i * FLOATS_PER_PARTICLE;
    for (let k = 0; k < 3; k++) {
      records[b + POSITION + k] = random() * (2 * position) - position;
      records[b + VELOCITY + k] = random() * (2 * velocity) - velocity;
    }
    records[b + INVERSE_MASS] = 1;
  }
  return records;
}

/** A buffer of particle records, uploaded; the caller destroys it. */
export function particleBuffer(device: GPUDevice, records: Float32Array<ArrayBuffer>): GPUBuffer {
  const buffer = device.createBuffer({
    label: 'test.particles',
    size: records.byteLength,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(buffer, 0, records);
  return buffer;
}

/** The first index where two arrays differ, with both values; null if none. */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): string | null {
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `at ${i}: ${a[i]} and ${b[i]}`;
  return null;
}

/** rgba16float rows of 64 * 8 = 512 bytes, a multiple of copyTextureToBuffer's 256. */
export const SORTED_DRAW_SIZE = 64;
const SORTED_DRAW_COUNT = 300;

/** The three draws of the sorted check, as rgba16float halves. */
export interface SortedDrawPixels {
  /** Through the GPU's depth sort. */
  sorted: Uint16Array;
  /** The same particles written in the CPU's back-to-front order, unsorted. */
  cpuOrder: Uint16Array;
  /** In slot order, unsorted. */
  unsorted: Uint16Array;
}

/**
 * Overlapping alpha-blended sprites in a cube of side 2, coloured by speed
 * (the colour travels with the particle when it is moved to another slot; an
 * index colour would not), drawn three ways.
 */
export async function renderSortedDraw(device: GPUDevice): Promise<SortedDrawPixels> {
  const COUNT = SORTED_DRAW_COUNT;
  const SIZE = SORTED_DRAW_SIZE;
  const records = randomRecords(COUNT, 99, 1, 4);
  const camera = new OrbitCamera({ target: [0, 0, 0], distance: 4, yaw: 0.6, pitch: 0.3 });
  camera.update(1);
  const view = camera.drawView(SIZE, SIZE);
  const time = { extrapolate: 0.01, time: 0 };
  const look: ParticleLook = {
    ...DEFAULT_LOOK,
    blend: 'alpha',
    colorMode: 'speed',
    size: 0.25,
    intensity: 0.8,
    sort: 'back-to-front',
  };
  // The CPU's order, from the same float32 formula, and the records rewritten in it.
  const order = backToFront(
    depthKeys(records, COUNT, depthRow(new Float32Array(4), view.viewProjection), time.extrapolate),
  );
  const reordered = new Float32Array(records.length);
  order.forEach((slot, i) =>
    reordered.set(
      records.subarray(slot * FLOATS_PER_PARTICLE, (slot + 1) * FLOATS_PER_PARTICLE),
      i * FLOATS_PER_PARTICLE,
    ),
  );

  const particles = particleBuffer(device, records);
  const inCpuOrder = particleBuffer(device, reordered);
  const pass = new ParticlePass(device, 'rgba16float', 'depth24plus');
  const sort = new DepthSort(device, { label: 'test.sort', particles, count: COUNT });
  const sorted = pass.bindSorted('test.sorted', particles, sort);
  const plain = pass.bind('test.plain', particles);
  const cpu = pass.bind('test.cpuOrder', inCpuOrder);
  const target = new OffscreenTarget(device, SIZE, 'rgba16float');
  try {
    // The sort, submitted before the render pass that draws through it.
    await withErrorScopes(device, 'the sort', () => {
      const encoder = device.createCommandEncoder();
      pass.sortFor(encoder, sorted, look, view, time);
      device.queue.submit([encoder.finish()]);
    });
    const range = { count: COUNT };
    const unsortedLook = { ...look, sort: 'none' as const };
    return {
      sorted: new Uint16Array(
        await target.render('a sorted draw', (r) => pass.draw(r, sorted, look, view, time, range)),
      ),
      cpuOrder: new Uint16Array(
        await target.render('the CPU order', (r) => pass.draw(r, cpu, unsortedLook, view, time, range)),
      ),
      unsorted: new Uint16Array(
        await target.render('unsorted', (r) => pass.draw(r, plain, unsortedLook, view, time, range)),
      ),
    };
  } finally {
    for (const binding of [sorted, plain, cpu]) binding.destroy();
    sort.destroy();
    pass.destroy();
    target.destroy();
    particles.destroy();
    inCpuOrder.destroy();
  }
}

/**
 * The sorted draw equals the CPU-order draw bit for bit (the same fragments
 * blended in the same order), enough of the target is covered for that to
 * mean something, and the unsorted draw differs (the order shows).
 */
export function sortedDrawFailures(pixels: SortedDrawPixels): string[] {
  const failures: string[] = [];
  const lit = pixels.cpuOrder.filter((value, i) => i % 4 === 3 && value !== 0).length;
  if (!(lit > 500)) failures.push(`only ${lit} pixels with alpha > 0 in the CPU-order draw (want > 500)`);
  const sortedVsCpu = firstDifference(pixels.sorted, pixels.cpuOrder);
  if (sortedVsCpu !== null) failures.push(`sorted draw vs CPU order: ${sortedVsCpu}`);
  if (firstDifference(pixels.unsorted, pixels.cpuOrder) === null)
    failures.push('the unsorted draw equals the CPU-order draw: the check cannot see the order');
  return failures;
}
