/**
 * The look in scene files (issue 14 item 6): every field of `look` (the top
 * level's, an emitter's, a firework rule's) refused with its JSON path when
 * bad, by the core's own validators; a rule's look kept from the core's
 * emitter checks; the look split into draws; and a scene's colour curves
 * reaching the pixels of a real draw (ParticlePass on the adapter).
 */
import { describe, expect, it } from 'vitest';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { DEFAULT_LOOK, type ParticleLook } from '../src/render/particleLook';
import { ParticlePass } from '../src/render/particlePass';
import { parseScene, sceneCapacity, sceneToLifecycle, sceneToLook } from '../src/scene/scene';
import { useDevice } from './support/gpu';
import { OffscreenTarget } from './support/offscreen';
import { sceneRefusal } from './support/refusal';

/** An emitter of 4 particles at rest at (x, y); x and y default to pixel centres of an 8 x 8 target through the identity view. */
const emitterAt = (x: number, look?: unknown, y = 0.125) => ({
  burst: 4,
  lifetime: 10,
  shape: { type: 'point', center: [x, y, 0.5] },
  ...(look === undefined ? {} : { look }),
});

const rule = (look?: unknown) => ({ type: 1, fuse: [1, 2], ...(look === undefined ? {} : { look }) });

/** A scene with two emitters and one firework rule, `extra` merged in at the top level. */
function sceneText(extra: Record<string, unknown>): string {
  return JSON.stringify({ capacity: 64, emitters: [emitterAt(-0.4), emitterAt(0.4)], fireworks: [rule()], ...extra });
}

const refusal = (text: string): string => sceneRefusal(text, 'look.json').message;

const stops = (values: number[]) => values.map((value, i) => ({ at: i / Math.max(values.length - 1, 1), value }));
const white = [{ at: 0, color: [1, 1, 1] }];

describe('the look in scene files: bad values refused with their JSON path', () => {
  it.each<[string, unknown, string]>([
    ['$.look', 3, 'must be an object'],
    ['$.look.shape', { shape: 'disc' }, 'unknown field (known: curves, mode, blend'],
    ['$.look.mode', { mode: 'quads' }, 'must be one of sprites, sparks, points; got "quads"'],
    ['$.look.blend', { blend: 1 }, 'must be one of additive, alpha; got 1'],
    ['$.look.colorMode', { colorMode: 'hue' }, 'must be one of index, speed, life'],
    ['$.look.size', { size: 0 }, 'must be a finite number > 0; got 0'],
    ['$.look.intensity', { intensity: -1 }, 'must be a finite number >= 0; got -1'],
    ['$.look.stretch', { stretch: 'long' }, 'must be a finite number >= 0'],
    ['$.look.sort', { sort: 'front-to-back' }, 'must be one of none, back-to-front'],
    ['$.look.curves', { curves: [] }, 'must be an object'],
    [
      '$.look.curves.colour',
      { curves: { colour: white } },
      'unknown field (known: color, size, opacity, colorBySpeed)',
    ],
    ['$.look.curves.color', { curves: { color: [] } }, 'must be a list of 1 to 8 stops'],
    [
      '$.look.curves.color[1].at',
      { curves: { color: [...white, { at: -0.5, color: [1, 0, 0] }] } },
      'must be a number in [0, 1]; got -0.5',
    ],
    [
      '$.look.curves.color[1].at',
      {
        curves: {
          color: [
            { at: 0.5, color: [1, 1, 1] },
            { at: 0.25, color: [1, 0, 0] },
          ],
        },
      },
      'stops must be sorted by at',
    ],
    ['$.look.curves.color[0].color', { curves: { color: [{ at: 0, color: [1, 1] }] } }, 'must be [r, g, b] or'],
    ['$.look.curves.color[0].color[2]', { curves: { color: [{ at: 0, color: [1, 1, 2] }] } }, 'in [0, 1]; got 2'],
    ['$.look.curves.size[1].value', { curves: { size: stops([1, -1]) } }, 'must be a finite number >= 0; got -1'],
    ['$.look.curves.opacity[0].value', { curves: { opacity: stops([2]) } }, 'must be a number in [0, 1]; got 2'],
    [
      '$.look.curves.colorBySpeed.speedRange',
      { curves: { colorBySpeed: { speedRange: 0, gradient: white } } },
      'must be a finite number > 0; got 0',
    ],
    [
      '$.look.curves.colorBySpeed.gradient',
      { curves: { colorBySpeed: { speedRange: 1 } } },
      'must be a list of 1 to 8 stops',
    ],
    [
      '$.look.sprite.shape',
      { sprite: { shape: 'cube' } },
      'must be one of soft, disc, ring, star, smoke, spark, image',
    ],
    ['$.look.sprite.flipbook.rows', { sprite: { flipbook: { rows: 0, columns: 2 } } }, 'in [1, 64]; got 0'],
    ['$.look.sprite.flipbook.columns', { sprite: { flipbook: { rows: 2, columns: 65 } } }, 'in [1, 64]; got 65'],
    ['$.look.sprite.flipbook.frames', { sprite: { flipbook: { rows: 2, columns: 2, frames: 5 } } }, 'in [1, 4]'],
    ['$.look.sprite.flipbook.mode', { sprite: { flipbook: { rows: 1, columns: 2, mode: 'loop' } } }, 'age, fps'],
    ['$.look.sprite.flipbook.fps', { sprite: { flipbook: { rows: 1, columns: 2, mode: 'fps' } } }, '> 0'],
    ['$.look.sprite.flipbook.cycles', { sprite: { flipbook: { rows: 1, columns: 2, cycles: 0 } } }, '> 0; got 0'],
    ['$.look.sprite.flipbook.blend', { sprite: { flipbook: { rows: 1, columns: 2, blend: 1 } } }, 'true or false'],
    ['$.look.sprite.flipbook.speed', { sprite: { flipbook: { rows: 1, columns: 2, speed: 1 } } }, 'unknown field'],
    ['$.look.sprite.rotation', { sprite: { rotation: [1, 0] } }, 'an empty range: min 1 > max 0'],
    ['$.look.sprite.spin', { sprite: { spin: [0] } }, 'must be [min, max]'],
    ['$.look.sprite.spin[1]', { sprite: { spin: [0, 1e5] } }, 'must be a number in [-10000, 10000]'],
    ['$.look.sprite.orient', { sprite: { orient: 'up' } }, 'must be one of screen, velocity'],
    ['$.look.sprite.softDistance', { sprite: { softDistance: 0 } }, 'must be a finite number > 0; got 0'],
    ['$.look.sprite.filter', { sprite: { filter: 'cubic' } }, 'must be one of linear, nearest'],
    ['$.look.sprite.image', { sprite: { image: 'flame.png' } }, 'unknown field'],
    ['$.look.trails', { trails: 16 }, 'must be an object'],
    ['$.look.trails.length', { trails: {} }, 'is required: samples a trail keeps'],
    ['$.look.trails.length', { trails: { length: 1 } }, 'must be an integer in [2, 256]; got 1'],
    ['$.look.trails.length', { trails: { length: 2.5 } }, 'must be an integer in [2, 256]; got 2.5'],
    ['$.look.trails.width', { trails: { length: 8, width: 0 } }, 'must be a finite number > 0; got 0'],
    ['$.look.trails.curves.color', { trails: { length: 8, curves: { width: stops([1]) } } }, '1 to 8 stops'],
    [
      '$.look.trails.curves.width[0].value',
      { trails: { length: 8, curves: { width: stops([-1]), color: white } } },
      'must be a finite number >= 0; got -1',
    ],
    ['$.look.trails.blend', { trails: { length: 8, blend: 'multiply' } }, 'must be one of additive, alpha'],
    ['$.look.trails.intensity', { trails: { length: 8, intensity: -2 } }, 'must be a finite number >= 0; got -2'],
    ['$.look.trails.fade', { trails: { length: 8, fade: 1 } }, 'unknown field'],
  ])('%s: %j refused', (path, look, rule) => {
    const message = refusal(sceneText({ look }));
    expect(message).toContain(`look.json: ${path}: `);
    expect(message).toContain(rule);
    expect(message.split('\n')).toHaveLength(1);
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      '$.emitters[1].look.curves.opacity[0].value',
      { emitters: [emitterAt(0), emitterAt(1, { curves: { opacity: stops([1.5]) } })] },
      'must be a number in [0, 1]; got 1.5',
    ],
    ['$.emitters[0].look', { emitters: [emitterAt(0, [])] }, 'must be an object'],
    [
      '$.emitters[0].look.trails.length',
      { emitters: [emitterAt(0, { trails: { length: 1 } })] },
      'must be an integer in [2, 256]; got 1',
    ],
    [
      '$.fireworks[0].look.trails.fade',
      { fireworks: [rule({ trails: { length: 4, fade: 1 } })] },
      'unknown field (known: length, width, curves, blend, intensity)',
    ],
    [
      '$.emitters[0].look.trail',
      { emitters: [emitterAt(0, { trail: { length: 4 } })] },
      'unknown field (known: curves, mode, blend, colorMode, size, intensity, stretch, sort, sprite, trails)',
    ],
    ['$.emitters[0].look.blend', { emitters: [emitterAt(0, { blend: 'screen' })] }, 'must be one of additive, alpha'],
    ['$.fireworks[0].look.sprite.shape', { fireworks: [rule({ sprite: { shape: 'x' } })] }, 'must be one of soft'],
    ['$.fireworks[0].look.size', { fireworks: [rule({ size: -1 })] }, 'must be a finite number > 0; got -1'],
  ])('%s refused', (path, extra, rule) => {
    const message = refusal(sceneText(extra));
    expect(message).toContain(`look.json: ${path}: `);
    expect(message).toContain(rule);
  });

  it("keeps a rule's look from the core's emitter checks (which refuse unknown keys), and still checks the emitter", () => {
    const scene = parseScene(sceneText({ emitters: [emitterAt(0, { curves: { color: white } })] }), 'ok.json');
    const lifecycle = sceneToLifecycle(scene);
    expect(lifecycle.emitters?.[0]).not.toHaveProperty('look');
    expect(scene.emitters?.[0]).toHaveProperty('look');
    expect(refusal(sceneText({ emitters: [{ ...emitterAt(0, {}), burst: -1 }] }))).toContain('$.emitters[0].burst');
    expect(refusal(sceneText({ emitters: [{ ...emitterAt(0), lok: {} }] }))).toContain('$.emitters[0].lok');
  });
});

describe('the look in scene files: split into draws', () => {
  const red = { color: [{ at: 0, color: [1, 0, 0, 1] }] };
  const hidden = { size: [{ at: 0, value: 0 }], opacity: [{ at: 0, value: 0 }] };

  it('without a look: one draw with the page’s look', () => {
    const look = sceneToLook(parseScene(sceneText({}), 'plain.json'));
    expect(look.layers).toEqual([{ rule: null, look: { rules: [null, null, null] } }]);
    expect(look.trails).toBeNull();
  });

  it("a rule's curves go to `rules` at its spawn-rule index (emitters, then firework rules); a rule with draw settings gets its own draw, hidden in the others", () => {
    const scene = parseScene(
      sceneText({
        look: { blend: 'alpha', size: 0.2, trails: { length: 8 } },
        emitters: [emitterAt(0, { curves: red }), emitterAt(1, { blend: 'additive', sprite: { shape: 'star' } })],
        fireworks: [rule({ curves: red })],
      }),
      'layers.json',
    );
    const look = sceneToLook(scene);
    expect(look.rules).toEqual([red, null, red]);
    expect(look.layers).toEqual([
      { rule: null, look: { blend: 'alpha', size: 0.2, rules: [red, hidden, red] } },
      {
        rule: 1,
        look: { blend: 'additive', size: 0.2, sprite: { shape: 'star' }, rules: [hidden, null, hidden] },
      },
    ]);
    expect(look.trails).toMatchObject({ length: 8, width: 0.05, blend: 'additive', intensity: 1 });
    expect(look.ruleTrails).toEqual([]);
  });

  it("a rule's trails are its own (by spawn-rule index), each with its own length; they give it no draw of its own", () => {
    const scene = parseScene(
      sceneText({
        emitters: [emitterAt(0), emitterAt(1, { trails: { length: 6, width: 0.01 } })],
        fireworks: [rule({ trails: { length: 3 } })],
      }),
      'ruleTrails.json',
    );
    const look = sceneToLook(scene);
    expect(look.trails).toBeNull();
    expect(look.ruleTrails.map(({ rule, trails }) => [rule, trails.length, trails.width])).toEqual([
      [1, 6, 0.01],
      [2, 3, 0.05],
    ]);
    expect(look.layers).toHaveLength(1);
  });
});

const gpu = useDevice();
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const pixelAt = (pixels: Uint8Array, size: number, x: number, y: number): number[] =>
  Array.from(pixels.subarray((y * size + x) * 4, (y * size + x) * 4 + 4));

describe('the look in scene files: drawn', () => {
  it("a scene's colour curves colour its particles, each draw showing only its own rules", async () => {
    const { device } = gpu.get();
    // Points, alpha "over", opaque colours: a pixel shows its particles' colour exactly (0 and 1 are exact in unorm8).
    const scene = parseScene(
      JSON.stringify({
        capacity: 64,
        look: { mode: 'points', blend: 'alpha', curves: { color: [{ at: 0, color: [0, 0, 1] }] } },
        emitters: [
          emitterAt(-0.625, { curves: { color: [{ at: 0, color: [1, 0, 0] }] } }),
          emitterAt(0.625, { blend: 'additive', curves: { color: [{ at: 0, color: [0, 1, 0] }] } }),
          emitterAt(0.125),
        ],
      }),
      'drawn.json',
    );
    const look = sceneToLook(scene);
    const system = await ParticleSystem.create(device, { capacity: sceneCapacity(scene), ...sceneToLifecycle(scene) });
    const pass = new ParticlePass(device, 'rgba8unorm', 'depth24plus');
    const SIZE = 8;
    const target = new OffscreenTarget(device, SIZE, 'rgba8unorm');
    const bindings = look.layers.map((_, k) =>
      pass.bindLive(`test.scene.layer${k}`, system.particles.buffer, system.lifecycle!.buffers),
    );
    try {
      await system.step(0.01);
      const view = { viewProjection: IDENTITY, width: SIZE, height: SIZE, focalPixels: SIZE / 2 };
      const draw = async (layers: number[]) =>
        new Uint8Array(
          await target.render('scene look', (render) => {
            for (const k of layers) {
              const layer = look.layers[k]!;
              const drawLook: ParticleLook = { ...DEFAULT_LOOK, ...layer.look };
              pass.draw(render, bindings[k]!, drawLook, view, { extrapolate: 0, time: 0 });
            }
          }),
        );
      // x = -0.625, 0.125, 0.625 at y = 0.125: the centres of pixels (1, 3), (4, 3), (6, 3) of 8 x 8.
      const all = await draw([0, 1]);
      expect(pixelAt(all, SIZE, 1, 3), "emitter 0: its rule's curve").toEqual([255, 0, 0, 255]);
      expect(pixelAt(all, SIZE, 6, 3), 'emitter 1: its own draw').toEqual([0, 255, 0, 255]);
      expect(pixelAt(all, SIZE, 4, 3), "emitter 2: the system's curve").toEqual([0, 0, 255, 255]);
      const systemDraw = await draw([0]);
      expect(pixelAt(systemDraw, SIZE, 6, 3), "emitter 1 is hidden in the system's draw").toEqual([0, 0, 0, 0]);
      const ownDraw = await draw([1]);
      expect(pixelAt(ownDraw, SIZE, 1, 3), "emitter 0 is hidden in emitter 1's draw").toEqual([0, 0, 0, 0]);
      expect(pixelAt(ownDraw, SIZE, 6, 3)).toEqual([0, 255, 0, 255]);
      // As sprites (radius 2 px), a hidden rule is a sprite of no pixels: only emitter 1's sprite is lit.
      const spriteLook: ParticleLook = { ...DEFAULT_LOOK, ...look.layers[1]!.look, mode: 'sprites', size: 0.5 };
      const sprites = new Uint8Array(
        await target.render('scene look, sprites', (render) =>
          pass.draw(render, bindings[1]!, spriteLook, view, { extrapolate: 0, time: 0 }),
        ),
      );
      const far: number[][] = [];
      for (let y = 0; y < SIZE; y++) {
        for (let x = 0; x < SIZE; x++) {
          const lit = pixelAt(sprites, SIZE, x, y).some((c) => c > 0);
          if (lit && Math.hypot(x + 0.5 - 6.5, y + 0.5 - 3.5) > 2) far.push([x, y]);
        }
      }
      expect(far, 'pixels lit beyond emitter 1’s sprite').toEqual([]);
      expect(pixelAt(sprites, SIZE, 6, 3)[1], 'emitter 1’s sprite').toBeGreaterThan(0);
    } finally {
      bindings.forEach((b) => b.destroy());
      pass.destroy();
      target.destroy();
      system.destroy();
    }
  });
});
