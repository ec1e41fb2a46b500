/**
 * The look on a real adapter, read back pixel by pixel: particles of known
 * ages (life records written by the test, drawn through ParticlePass.bindLive)
 * in the colours the CPU twins of the curves give (per draw and per spawn
 * rule, over life and by speed), at the sizes the size curve gives; a
 * flipbook frame chosen by age shows its cell; an image's texels appear, turned
 * by the rotation drawn for the particle; sprites fade in front of the
 * scene's depth.
 *
 * The view is the identity (clip = world position, w = 1) and the focal
 * length half the target, so a world unit is half the target and a particle
 * at a pixel's centre lands on that pixel.
 */
import { describe, expect, it } from 'vitest';
import { curvesOfRule, evaluateCurve, evaluateGradient, type LookCurves } from '../src/core/look/curves';
import { LIFE, FLOATS_PER_PARTICLE, OFFSET } from '../src/core/layout';
import { LIFE_COUNTERS } from '../src/core/emitters/gpuRecords';
import { INDIRECT_ARGS } from '../src/gpu/indirectArgs';
import { withErrorScopes } from '../src/gpu/errors';
import { DEFAULT_LOOK, type ParticleLook } from '../src/render/particleLook';
import { ParticlePass, type LiveSource } from '../src/render/particlePass';
import { BUILT_IN_SHAPES, SHAPE_SIZE, shapePixels, type BuiltInShape } from '../src/core/look/shapes';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { useDevice } from './support/gpu';
import { OffscreenTarget } from './support/offscreen';

const gpu = useDevice();

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

interface TestParticle {
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
async function drawLive(
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

const pixelAt = (pixels: Uint8Array, size: number, x: number, y: number): number[] =>
  Array.from(pixels.subarray((y * size + x) * 4, (y * size + x) * 4 + 4));

/** Pixels in row `y` (or column) lit (alpha > 0). */
function litRun(pixels: Uint8Array, size: number, x: number, y: number, across: 'row' | 'column'): number {
  let lit = 0;
  for (let k = 0; k < size; k++) {
    const [px, py] = across === 'row' ? [k, y] : [x, k];
    if ((pixels[(py * size + px) * 4 + 3] as number) > 0) lit++;
  }
  return lit;
}

describe('the look: curves over life, on the GPU', () => {
  it('draws particles of known ages in the colours of their rule’s curves, within 1/255', async () => {
    const { device } = gpu.get();
    const SIZE = 16;
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
    const pixels = await drawLive(device, SIZE, particles, look);
    for (const p of particles) {
      const own = curvesOfRule(curves, rules, p.rule ?? 0);
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
      // Premultiplied, added to black: rgb * alpha, and alpha. The shader's float32 arithmetic differs from
      // the twin's by a few ulps (< 1e-6), so the unorm8 conversion rounds to the same byte or the next:
      // within 1/255.
      const want = [rgba[0]! * alpha, rgba[1]! * alpha, rgba[2]! * alpha, alpha].map((x) => x * 255);
      const got = pixelAt(pixels, SIZE, p.px, p.py);
      for (let c = 0; c < 4; c++) {
        if (Math.abs(got[c]! - want[c]!) > 1) {
          expect.fail(
            `particle at (${p.px}, ${p.py}), rule ${p.rule}, age share ${share}: channel ${c} = ${got[c]}, want ${want[c]!.toFixed(2)} (within 1)`,
          );
        }
      }
    }
  });

  it('draws sprites at the sizes of the size curve, within a pixel', async () => {
    const { device } = gpu.get();
    const SIZE = 128;
    // A flat white image sampled nearest: every pixel of the quad is lit, so the lit run is the quad's side.
    const white = { width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) };
    const size: LookCurves['size'] = [
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
      curves: { size },
      sprite: { shape: 'image', filter: 'nearest' },
      spriteImage: white,
    };
    const pixels = await drawLive(device, SIZE, particles, look);
    particles.forEach((p, k) => {
      // Radius in pixels: size * multiplier * focal length (64 px a world unit at w = 1).
      const radius = 0.1 * evaluateCurve(size, shares[k]!) * (SIZE / 2);
      // The pixels whose centres fall inside a quad of side 2r about a pixel centre: 2r rounded to an odd
      // count or so; within one pixel of 2r.
      const across = litRun(pixels, SIZE, p.px, p.py, 'column');
      const wide = (() => {
        let lit = 0;
        for (let x = p.px - 15; x <= p.px + 15; x++) if ((pixels[(p.py * SIZE + x) * 4 + 3] as number) > 0) lit++;
        return lit;
      })();
      expect(Math.abs(wide - 2 * radius), `particle ${k}: ${wide} px wide, radius ${radius}`).toBeLessThanOrEqual(1);
      expect(Math.abs(across - 2 * radius), `particle ${k}: ${across} px tall, radius ${radius}`).toBeLessThanOrEqual(
        1,
      );
    });
  });
});

describe('the look per emitter', () => {
  it('colours each emitter’s particles by its own curves: the life record’s rule indexes the table', async () => {
    const { device } = gpu.get();
    // Five pixels a side: x = -0.4 and 0.4 fall on the centres of columns 1 and 3, y = 0 on row 2.
    const SIZE = 5;
    const system = await ParticleSystem.create(device, {
      capacity: 64,
      emitters: [
        { burst: 4, lifetime: 10, shape: { type: 'point', center: [-0.4, 0, 0.5] } },
        { burst: 4, lifetime: 10, shape: { type: 'point', center: [0.4, 0, 0.5] } },
      ],
    });
    const pass = new ParticlePass(device, 'rgba8unorm', 'depth24plus');
    const binding = pass.bindLive('test.rules', system.particles.buffer, system.lifecycle!.buffers);
    const target = new OffscreenTarget(device, SIZE, 'rgba8unorm');
    try {
      await system.step(0.01);
      const look: ParticleLook = {
        ...DEFAULT_LOOK,
        mode: 'points',
        // Opaque "over": however many land on a pixel, it shows their colour.
        blend: 'alpha',
        curves: { color: [{ at: 0, color: [0, 0, 1, 1] }] },
        rules: [{ color: [{ at: 0, color: [1, 0, 0, 1] }] }, { color: [{ at: 0, color: [0, 1, 0, 1] }] }],
      };
      const view = { viewProjection: IDENTITY, width: SIZE, height: SIZE, focalPixels: SIZE / 2 };
      const pixels = new Uint8Array(
        await target.render('per-emitter curves', (render) =>
          pass.draw(render, binding, look, view, { extrapolate: 0, time: 0 }),
        ),
      );
      expect(pixelAt(pixels, SIZE, 1, 2), 'emitter 0').toEqual([255, 0, 0, 255]);
      expect(pixelAt(pixels, SIZE, 3, 2), 'emitter 1').toEqual([0, 255, 0, 255]);
      // Without a rule of its own, emitter 1 takes the draw's curves.
      const fallback = new Uint8Array(
        await target.render('per-emitter curves, one rule', (render) =>
          pass.draw(render, binding, { ...look, rules: [look.rules![0]!] }, view, { extrapolate: 0, time: 0 }),
        ),
      );
      expect(pixelAt(fallback, SIZE, 3, 2), 'emitter 1, no rule of its own').toEqual([0, 0, 255, 255]);
    } finally {
      binding.destroy();
      pass.destroy();
      target.destroy();
      system.destroy();
    }
  });
});

describe('the look: sprites that are images', () => {
  // A 2 x 2 atlas of 2 x 2-texel cells: red, green / blue, white (rows top to bottom).
  const CELLS = [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [255, 255, 255],
  ];
  const atlas = new Uint8Array(4 * 4 * 4);
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 4; x++) {
      const cell = CELLS[(y >> 1) * 2 + (x >> 1)]!;
      atlas.set([...cell, 255], (y * 4 + x) * 4);
    }
  const image = { width: 4, height: 4, data: atlas };

  it('shows the flipbook frame chosen by age, and the image’s texels', async () => {
    const { device } = gpu.get();
    const SIZE = 64;
    const shares = [0.1, 0.3, 0.6, 0.9, 1];
    const frames = [0, 1, 2, 3, 3];
    const particles = shares.map((share, k) => ({ px: 8 + 12 * k, py: 32, age: share, lifetime: 1 }));
    const look: ParticleLook = {
      ...DEFAULT_LOOK,
      mode: 'sprites',
      blend: 'additive',
      size: 0.1,
      curves: { color: [{ at: 0, color: [1, 1, 1, 1] }] },
      sprite: { shape: 'image', flipbook: { rows: 2, columns: 2 }, filter: 'nearest' },
      spriteImage: image,
    };
    const pixels = await drawLive(device, SIZE, particles, look);
    particles.forEach((p, k) => {
      expect(pixelAt(pixels, SIZE, p.px, p.py), `age share ${shares[k]}: frame ${frames[k]}`).toEqual([
        ...CELLS[frames[k]!]!,
        255,
      ]);
    });
  });

  it('turns a sprite by the rotation drawn for it', async () => {
    const { device } = gpu.get();
    const SIZE = 32;
    const particles = [{ px: 16, py: 16, age: 0, lifetime: 1 }];
    const base: ParticleLook = {
      ...DEFAULT_LOOK,
      mode: 'sprites',
      blend: 'additive',
      size: 0.5,
      curves: { color: [{ at: 0, color: [1, 1, 1, 1] }] },
      sprite: { shape: 'image', filter: 'nearest' },
      spriteImage: image,
    };
    // Unturned: red at the top left, white at the bottom right.
    const still = await drawLive(device, SIZE, particles, base);
    expect(pixelAt(still, SIZE, 12, 12)).toEqual([255, 0, 0, 255]);
    expect(pixelAt(still, SIZE, 20, 20)).toEqual([255, 255, 255, 255]);
    // Half a turn: the image upside down.
    const turned = await drawLive(device, SIZE, particles, {
      ...base,
      sprite: { ...base.sprite, rotation: [Math.PI, Math.PI] },
    });
    expect(pixelAt(turned, SIZE, 12, 12)).toEqual([255, 255, 255, 255]);
    expect(pixelAt(turned, SIZE, 20, 20)).toEqual([255, 0, 0, 255]);
  });

  it('shows a built-in shape’s texels one for one where the sprite covers as many pixels as the shape has texels', async () => {
    const { device } = gpu.get();
    // Radius 32 px about the target's centre: pixel (x, y) samples texel (x, y) at its centre.
    const look = (shape: BuiltInShape): ParticleLook => ({
      ...DEFAULT_LOOK,
      mode: 'sprites',
      blend: 'additive',
      size: 1,
      curves: { color: [{ at: 0, color: [1, 1, 1, 1] }] },
      sprite: { shape },
    });
    for (const shape of BUILT_IN_SHAPES) {
      const pixels = await drawLive(
        device,
        SHAPE_SIZE,
        [{ px: 0, py: 0, age: 0, lifetime: 1, position: [0, 0, 0.5] }],
        look(shape),
      );
      const texels = shapePixels(shape);
      // White times the texel's alpha, added to black: each channel is the alpha (the unorm8 round trip within 1).
      for (let p = 0; p < SHAPE_SIZE * SHAPE_SIZE; p++) {
        const want = texels[p * 4 + 3]!;
        if (Math.abs(pixels[p * 4]! - want) > 1 || Math.abs(pixels[p * 4 + 3]! - want) > 1) {
          expect.fail(
            `${shape}: pixel (${p % SHAPE_SIZE}, ${Math.floor(p / SHAPE_SIZE)}) = ${pixelAt(pixels, SHAPE_SIZE, p % SHAPE_SIZE, Math.floor(p / SHAPE_SIZE))}, texel alpha ${want}`,
          );
        }
      }
    }
  });

  it('chooses the flipbook frame by frames a second, and draws a draw by index with the draw’s curves at age 0', async () => {
    const { device } = gpu.get();
    const SIZE = 64;
    const ages = [0.05, 0.15, 0.25, 0.35, 0.45];
    const particles = ages.map((age, k) => ({ px: 8 + 12 * k, py: 32, age, lifetime: 1e6 }));
    const look: ParticleLook = {
      ...DEFAULT_LOOK,
      mode: 'sprites',
      blend: 'additive',
      size: 0.1,
      curves: {
        color: [
          { at: 0, color: [1, 1, 1, 1] },
          { at: 1, color: [0, 0, 0, 1] },
        ],
      },
      sprite: { shape: 'image', flipbook: { rows: 2, columns: 2, mode: 'fps', fps: 10 }, filter: 'nearest' },
      spriteImage: image,
    };
    const pixels = await drawLive(device, SIZE, particles, look);
    // Ages 0.05 .. 0.45 s at 10 frames a second: frames 0, 1, 2, 3, then 0 again; colour at share <= 4.5e-7 rounds to white.
    [0, 1, 2, 3, 0].forEach((frame, k) =>
      expect(pixelAt(pixels, SIZE, particles[k]!.px, 32), `age ${ages[k]}`).toEqual([...CELLS[frame]!, 255]),
    );
    // By index there is no life record: age 0, frame 0, the gradient's first colour.
    const byIndex = await drawLive(device, SIZE, particles, look, { byIndex: true });
    particles.forEach((p) => expect(pixelAt(byIndex, SIZE, p.px, 32)).toEqual([...CELLS[0]!, 255]));
  });

  it('lays a sprite along its screen-space velocity when velocity-aligned', async () => {
    const { device } = gpu.get();
    const SIZE = 32;
    // Red on the left, green on the right: the image's x axis is the sprite's.
    const halves = { width: 2, height: 1, data: new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255]) };
    const moving = [{ px: 16, py: 16, age: 0, lifetime: 1, velocity: [0, 10, 0] as [number, number, number] }];
    const look: ParticleLook = {
      ...DEFAULT_LOOK,
      mode: 'sprites',
      blend: 'additive',
      size: 0.4,
      curves: { color: [{ at: 0, color: [1, 1, 1, 1] }] },
      sprite: { shape: 'image', filter: 'nearest' },
      spriteImage: halves,
    };
    const screen = await drawLive(device, SIZE, moving, look);
    expect(pixelAt(screen, SIZE, 12, 16)).toEqual([255, 0, 0, 255]);
    expect(pixelAt(screen, SIZE, 20, 16)).toEqual([0, 255, 0, 255]);
    // Moving up the screen: the image's x axis points up (green above, red below).
    const along = await drawLive(device, SIZE, moving, { ...look, sprite: { ...look.sprite, orient: 'velocity' } });
    expect(pixelAt(along, SIZE, 16, 12)).toEqual([0, 255, 0, 255]);
    expect(pixelAt(along, SIZE, 16, 20)).toEqual([255, 0, 0, 255]);
  });

  it('fades a soft sprite over softDistance in front of the scene’s depth', async () => {
    const { device } = gpu.get();
    const SIZE = 32;
    // A perspective camera at the origin looking down -z, depth in [0, 1] from near 0.1 to far 10.
    const near = 0.1;
    const far = 10;
    const A = far / (near - far);
    const B = (near * far) / (near - far);
    const perspective = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, A, -1, 0, 0, B, 0];
    const depthAt = (distance: number) => Math.fround((-A * distance + B) / distance);
    // One sprite 2 units away, covering the target's centre.
    const particles = [{ px: 0, py: 0, age: 0, lifetime: 1, position: [0, 0, -2] as [number, number, number] }];
    const white = { width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) };
    for (const [sceneDistance, fade] of [
      [3, 1],
      [2.25, 0.5],
      [2.1, 0.2],
      [1.9, 0],
    ] as const) {
      const sceneDepth = device.createTexture({
        label: 'test.sceneDepth',
        size: [SIZE, SIZE],
        format: 'depth32float',
        usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING,
      });
      try {
        await withErrorScopes(device, 'scene depth', () => {
          const encoder = device.createCommandEncoder();
          encoder
            .beginRenderPass({
              colorAttachments: [],
              depthStencilAttachment: {
                view: sceneDepth.createView(),
                depthLoadOp: 'clear',
                depthStoreOp: 'store',
                depthClearValue: depthAt(sceneDistance),
              },
            })
            .end();
          device.queue.submit([encoder.finish()]);
        });
        const look: ParticleLook = {
          ...DEFAULT_LOOK,
          mode: 'sprites',
          blend: 'additive',
          size: 0.5,
          curves: { color: [{ at: 0, color: [1, 1, 1, 1] }] },
          sprite: { shape: 'image', filter: 'nearest', softDistance: 0.5 },
          spriteImage: white,
          sceneDepth,
        };
        const pixels = await drawLive(device, SIZE, particles, look, {
          viewProjection: perspective,
          focalPixels: SIZE / 2,
        });
        // The view depth recovered from a float32 depth differs from the scene's by ~1e-6 units: the fade
        // within 1/255 after rounding to unorm8.
        const got = pixelAt(pixels, SIZE, 16, 16);
        for (const channel of got) {
          expect(
            Math.abs(channel - 255 * fade),
            `scene ${sceneDistance} away: ${got}, fade ${fade}`,
          ).toBeLessThanOrEqual(1);
        }
      } finally {
        sceneDepth.destroy();
      }
    }
  });

  it('refuses a look whose image or curves are bad before drawing', async () => {
    const { device } = gpu.get();
    const base: ParticleLook = { ...DEFAULT_LOOK, sprite: { shape: 'image' } };
    const bad: [Partial<ParticleLook>, RegExp][] = [
      [
        { spriteImage: { width: 2, height: 2, data: new Uint8Array(3) } },
        /look\.spriteImage\.data\.length = 3 is invalid: must be width \* height \* 4 = 16/,
      ],
      [
        { spriteImage: { width: 0, height: 2, data: new Uint8Array(0) } },
        /look\.spriteImage\.width = 0 is invalid: must be an integer in \[1, 8192\]/,
      ],
      [
        { spriteImage: image, curves: { size: [{ at: 0, value: -2 }] } },
        /look\.curves\.size\[0\]\.value = -2 is invalid/,
      ],
      [
        { spriteImage: image, sprite: { shape: 'image', flipbook: { rows: 0, columns: 1 } } },
        /look\.sprite\.flipbook\.rows = 0 is invalid/,
      ],
    ];
    const notBindable = device.createTexture({
      label: 'test.notBindable',
      size: [1, 1],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.COPY_DST,
    });
    const colourAsDepth = device.createTexture({
      label: 'test.colourAsDepth',
      size: [4, 4],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.TEXTURE_BINDING,
    });
    bad.push(
      [
        { spriteImage: notBindable },
        /look\.spriteImage = "test\.notBindable" is invalid: must be a single-sampled 2d texture with TEXTURE_BINDING usage/,
      ],
      [
        { spriteImage: image, sceneDepth: colourAsDepth },
        /look\.sceneDepth = "test\.colourAsDepth" is invalid: must be a single-sampled depth texture/,
      ],
    );
    for (const [change, message] of bad) {
      await expect(
        drawLive(device, 4, [{ px: 0, py: 0, age: 0, lifetime: 1 }], { ...base, ...change }),
      ).rejects.toThrow(message);
    }
    notBindable.destroy();
    colourAsDepth.destroy();
    // A texture of the caller's is drawn from as it is (and stays the caller's).
    const red = device.createTexture({
      label: 'test.red',
      size: [1, 1],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
    device.queue.writeTexture({ texture: red }, new Uint8Array([255, 0, 0, 255]), { bytesPerRow: 4 }, [1, 1]);
    const pixels = await drawLive(device, 8, [{ px: 4, py: 4, age: 0, lifetime: 1 }], {
      ...base,
      size: 0.5,
      curves: { color: [{ at: 0, color: [1, 1, 1, 1] }] },
      spriteImage: red,
    });
    expect(pixelAt(pixels, 8, 4, 4)).toEqual([255, 0, 0, 255]);
    red.destroy();
  });
});
