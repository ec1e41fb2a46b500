/**
 * The look on a real adapter, read back pixel by pixel: particles of known
 * ages (life records written by the test, drawn through ParticlePass.bindLive)
 * in the colours the CPU twins of the curves give (per draw and per spawn
 * rule, over life and by speed), at the sizes the size curve gives; a
 * flipbook frame chosen by age shows its cell; an image's texels appear, turned
 * by the rotation drawn for the particle; sprites fade in front of the
 * scene's depth.
 *
 * The setups and helpers live in test/support/lookPixels.ts: the view is
 * the identity and a particle at a pixel's centre lands on that pixel.
 */
import { describe, expect, it } from 'vitest';
import { withErrorScopes } from '../src/gpu/device/errors';
import { DEFAULT_LOOK, type ParticleLook } from '../src/render/particleLook';
import { ParticlePass } from '../src/render/particlePass';
import { BUILT_IN_SHAPES, SHAPE_SIZE, shapePixels, type BuiltInShape } from '../src/core/look/shapes';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { useDevice } from './support/gpu';
import {
  COLOUR_CHECK,
  IDENTITY,
  SIZE_CHECK,
  colourFailures,
  drawLive,
  pixelAt,
  renderColourCheck,
  renderSizeCheck,
  sizeFailures,
} from './support/lookPixels';
import { OffscreenTarget } from './support/offscreen';

const gpu = useDevice();

// The first two checks run in Chromium too (test/browser.look.test.ts), from the same setup and expectations.
describe('the look: curves over life, on the GPU', () => {
  it('draws particles of known ages in the colours of their rule’s curves, within 1/255', async () => {
    const { device } = gpu.get();
    const pixels = await renderColourCheck(device);
    expect(COLOUR_CHECK.particles.length).toBe(26);
    expect(colourFailures(pixels)).toEqual([]);
  });

  it('draws sprites at the sizes of the size curve, within a pixel', async () => {
    const { device } = gpu.get();
    const pixels = await renderSizeCheck(device);
    expect(SIZE_CHECK.particles.length).toBe(4);
    expect(sizeFailures(pixels)).toEqual([]);
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
  /** Additive sprites of world radius `size` drawn as `sprite`, white by their curves unless `extra` says otherwise. */
  const whiteSprites = (
    size: number,
    sprite: ParticleLook['sprite'],
    extra: Partial<ParticleLook> = {},
  ): ParticleLook => ({
    ...DEFAULT_LOOK,
    mode: 'sprites',
    blend: 'additive',
    size,
    curves: { color: [{ at: 0, color: [1, 1, 1, 1] }] },
    sprite,
    ...extra,
  });

  it('shows the flipbook frame chosen by age, and the image’s texels', async () => {
    const { device } = gpu.get();
    const SIZE = 64;
    const shares = [0.1, 0.3, 0.6, 0.9, 1];
    const frames = [0, 1, 2, 3, 3];
    const particles = shares.map((share, k) => ({ px: 8 + 12 * k, py: 32, age: share, lifetime: 1 }));
    const look: ParticleLook = whiteSprites(
      0.1,
      { shape: 'image', flipbook: { rows: 2, columns: 2 }, filter: 'nearest' },
      { spriteImage: image },
    );
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
    const base: ParticleLook = whiteSprites(0.5, { shape: 'image', filter: 'nearest' }, { spriteImage: image });
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
    const look = (shape: BuiltInShape): ParticleLook => whiteSprites(1, { shape });
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
    const look: ParticleLook = whiteSprites(
      0.1,
      { shape: 'image', flipbook: { rows: 2, columns: 2, mode: 'fps', fps: 10 }, filter: 'nearest' },
      {
        spriteImage: image,
        curves: {
          color: [
            { at: 0, color: [1, 1, 1, 1] },
            { at: 1, color: [0, 0, 0, 1] },
          ],
        },
      },
    );
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
    const look: ParticleLook = whiteSprites(0.4, { shape: 'image', filter: 'nearest' }, { spriteImage: halves });
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
        const look = whiteSprites(
          0.5,
          { shape: 'image', filter: 'nearest', softDistance: 0.5 },
          { spriteImage: white, sceneDepth },
        );
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
