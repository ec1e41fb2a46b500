/**
 * The look as data (src/core/look), on the CPU: curves and gradients
 * evaluated piecewise linearly (constant outside, steps where two stops
 * share a position), per-rule curves falling back field by field to the
 * draw's, the records written where the schema says, the flipbook frame and
 * the sprite's spin, the built-in shapes; and every new field's bad values
 * refused, naming the value and the limit (the renderer's look too:
 * ParticlePass refuses before drawing).
 */
import { describe, expect, it } from 'vitest';
import {
  curvesOfRule,
  evaluateCurve,
  evaluateGradient,
  MAX_CURVE_STOPS,
  validateLookCurves,
  type LookCurves,
} from '../src/core/look/curves';
import { CURVE_SET, SPRITE_PARAMS, writeCurveSet, writeSpriteParams } from '../src/core/look/records';
import { BUILT_IN_SHAPES, SHAPE_SIZE, shapePixels } from '../src/core/look/shapes';
import { flipbookFrame, lookHash, spinOf, validateSprite } from '../src/core/look/sprite';
import { validateLook } from '../src/render/lookBinding';

describe('curves over life (CPU twins)', () => {
  const size = [
    { at: 0.2, value: 1 },
    { at: 0.6, value: 3 },
    { at: 0.6, value: 0 },
    { at: 1, value: 2 },
  ];

  it('is constant outside its stops, linear between them, and steps where two stops share a position', () => {
    expect(evaluateCurve(size, 0)).toBe(1);
    expect(evaluateCurve(size, 0.2)).toBe(1);
    expect(evaluateCurve(size, 0.4)).toBeCloseTo(2, 6);
    expect(evaluateCurve(size, 0.5999)).toBeCloseTo(3, 3);
    expect(evaluateCurve(size, 0.6)).toBe(0);
    expect(evaluateCurve(size, 0.8)).toBeCloseTo(1, 6);
    expect(evaluateCurve(size, 1)).toBe(2);
    expect(evaluateCurve([{ at: 0.5, value: 7 }], 0.9)).toBe(7);
  });

  it('interpolates a gradient component by component, alpha included, a missing alpha as 1', () => {
    const gradient = [
      { at: 0, color: [1, 0, 0] as const },
      { at: 1, color: [0, 0, 1, 0] as const },
    ];
    const mid = evaluateGradient(gradient, 0.25);
    [0.75, 0, 0.25, 0.75].forEach((want, k) => expect(mid[k]).toBeCloseTo(want, 6));
  });

  it('gives each rule its own fields and the draw’s for the rest', () => {
    const draw: LookCurves = { size, opacity: [{ at: 0, value: 0.5 }] };
    const rules: (LookCurves | null)[] = [null, { opacity: [{ at: 0, value: 1 }] }];
    expect(curvesOfRule(draw, rules, 0)).toEqual(draw);
    expect(curvesOfRule(draw, rules, 1)).toEqual({ size, opacity: [{ at: 0, value: 1 }] });
    expect(curvesOfRule(draw, rules, 5)).toEqual(draw);
  });

  it('writes a curve set where the schema puts each field, four positions a lane', () => {
    const sets = CURVE_SET.array(2);
    writeCurveSet(sets, 1, {
      color: [
        { at: 0, color: [1, 0.5, 0.25, 1] },
        { at: 0.5, color: [0, 0, 0, 0] },
      ],
      size,
      colorBySpeed: { speedRange: 4, gradient: [{ at: 0, color: [0.1, 0.2, 0.3, 0.4] }] },
    });
    expect(sets.getVector(1, 'stops', [0, 0, 0, 0])).toEqual([2, 4, 0, 1]);
    expect(sets.get(1, 'speedRange')).toBe(4);
    const at = sets.index(1, 'at');
    // Colour's positions in lanes 0-1, size's in lanes 2-3.
    expect(Array.from(sets.floats.subarray(at, at + 2))).toEqual([0, 0.5]);
    expect(Array.from(sets.floats.subarray(at + 8, at + 12))).toEqual([0.2, 0.6, 0.6, 1].map(Math.fround));
    const values = sets.index(1, 'values');
    expect(Array.from(sets.floats.subarray(values, values + 4))).toEqual([1, 3, 0, 2]);
    // Colour by speed's colours after the 8 of colour over life.
    const speedColor = sets.index(1, 'colors') + 4 * 8;
    expect(Array.from(sets.floats.subarray(speedColor, speedColor + 4))).toEqual([0.1, 0.2, 0.3, 0.4].map(Math.fround));
    // Record 0 untouched; the WGSL struct printed from the same declaration.
    expect(sets.words.subarray(0, CURVE_SET.words).every((w) => w === 0)).toBe(true);
    expect(CURVE_SET.wgsl()).toContain('colors: array<vec4f, 16>');
    expect(CURVE_SET.size % 16).toBe(0);
  });
});

describe('sprites (CPU twins)', () => {
  const book = validateSprite('sprite', { flipbook: { rows: 2, columns: 3, frames: 5 } }).flipbook;

  it('chooses the flipbook frame by age over life, holding the last at the end', () => {
    expect([0, 0.19, 0.2, 0.5, 0.99, 1].map((share) => flipbookFrame(book, share, 0).frame)).toEqual([
      0, 0, 1, 2, 4, 4,
    ]);
  });

  it('chooses it by frames a second, looping, and blends into the next when asked', () => {
    const fps = validateSprite('sprite', {
      flipbook: { rows: 2, columns: 2, mode: 'fps', fps: 10, blend: true },
    }).flipbook;
    expect(flipbookFrame(fps, 0, 0.25)).toEqual({ frame: 2, next: 3, weight: expect.closeTo(0.5, 5) });
    expect(flipbookFrame(fps, 0, 0.35)).toMatchObject({ frame: 3, next: 0 });
    expect(flipbookFrame(fps, 0, 1.05).frame).toBe(2);
  });

  it('draws the same rotation for a slot and generation, within the ranges, and anew for a new generation', () => {
    const a = spinOf(7, 3, [-1, 2], [0.5, 0.75]);
    expect(spinOf(7, 3, [-1, 2], [0.5, 0.75])).toEqual(a);
    expect(spinOf(7, 4, [-1, 2], [0.5, 0.75])).not.toEqual(a);
    for (let slot = 0; slot < 200; slot++) {
      const { angle, angularVelocity } = spinOf(slot, slot >> 2, [-1, 2], [0.5, 0.75]);
      expect(angle).toBeGreaterThanOrEqual(-1);
      expect(angle).toBeLessThanOrEqual(2);
      expect(angularVelocity).toBeGreaterThanOrEqual(0.5);
      expect(angularVelocity).toBeLessThanOrEqual(0.75);
    }
    expect(lookHash(0)).not.toBe(lookHash(1));
  });

  it('writes SpriteParams from a resolved sprite', () => {
    const block = SPRITE_PARAMS.value();
    writeSpriteParams(
      block,
      validateSprite('s', { flipbook: { rows: 4, columns: 2, mode: 'fps', fps: 24 }, spin: [1, 2] }),
    );
    expect([block.get('columns'), block.get('rows'), block.get('frames'), block.get('byFps')]).toEqual([2, 4, 8, 1]);
    expect([block.get('fps'), block.get('spin', 0), block.get('spin', 1)]).toEqual([24, 1, 2]);
  });

  it('rasterises every built-in shape: white, its alpha in [0, 255], opaque somewhere and clear in a corner', () => {
    for (const shape of BUILT_IN_SHAPES) {
      const pixels = shapePixels(shape);
      expect(pixels.length).toBe(SHAPE_SIZE * SHAPE_SIZE * 4);
      let most = 0;
      for (let p = 0; p < pixels.length; p += 4) {
        expect(pixels[p]).toBe(255);
        most = Math.max(most, pixels[p + 3]!);
      }
      expect(most, shape).toBeGreaterThan(150);
      expect(pixels[3], `${shape}: the top-left corner`).toBe(0);
    }
  });
});

describe('the look’s bad values are refused, naming the value and the limit', () => {
  const stops9 = Array.from({ length: MAX_CURVE_STOPS + 1 }, (_, i) => ({ at: i / 10, value: 1 }));
  const cases: [string, unknown, RegExp][] = [
    ['not an object', 3, /^look\.curves = 3 is invalid: must be an object/],
    ['an unknown field', { colour: [] }, /^look\.curves\.colour = \[\] is invalid: unknown field \(known: color, size/],
    ['no stops', { size: [] }, /^look\.curves\.size = \[\] is invalid: must be a list of 1 to 8 stops/],
    ['too many stops', { opacity: stops9 }, /^look\.curves\.opacity = .* is invalid: must be a list of 1 to 8 stops/],
    [
      'a stop past 1',
      { size: [{ at: 1.5, value: 1 }] },
      /^look\.curves\.size\[0\]\.at = 1\.5 is invalid: must be a number in \[0, 1\]/,
    ],
    ['a NaN position', { size: [{ at: NaN, value: 1 }] }, /^look\.curves\.size\[0\]\.at = NaN is invalid/],
    [
      'stops out of order',
      {
        size: [
          { at: 0.5, value: 1 },
          { at: 0.2, value: 1 },
        ],
      },
      /^look\.curves\.size\[1\]\.at = 0\.2 is invalid: stops must be sorted by at: 0\.2 < 0\.5/,
    ],
    [
      'a negative size',
      { size: [{ at: 0, value: -1 }] },
      /size\[0\]\.value = -1 is invalid: must be a finite number >= 0/,
    ],
    ['an infinite size', { size: [{ at: 0, value: Infinity }] }, /size\[0\]\.value = Infinity is invalid/],
    [
      'an opacity past 1',
      { opacity: [{ at: 0, value: 2 }] },
      /opacity\[0\]\.value = 2 is invalid: must be a number in \[0, 1\]/,
    ],
    [
      'a colour past 1',
      { color: [{ at: 0, color: [1, 2, 0] }] },
      /color\[0\]\.color\[1\] = 2 is invalid: must be a number in \[0, 1\]/,
    ],
    [
      'a colour of 2',
      { color: [{ at: 0, color: [1, 0] }] },
      /color\[0\]\.color = \[1,0\] is invalid: must be \[r, g, b\] or \[r, g, b, a\]/,
    ],
    ['a NaN alpha', { color: [{ at: 0, color: [1, 0, 0, NaN] }] }, /color\[0\]\.color\[3\] = NaN is invalid/],
    [
      'an unknown stop field',
      { size: [{ at: 0, value: 1, ease: 'in' }] },
      /size\[0\]\.ease = "in" is invalid: unknown field/,
    ],
    [
      'a speed range of 0',
      { colorBySpeed: { speedRange: 0, gradient: [{ at: 0, color: [1, 1, 1] }] } },
      /colorBySpeed\.speedRange = 0 is invalid: must be a finite number > 0/,
    ],
    ['a speed gradient missing', { colorBySpeed: { speedRange: 1 } }, /colorBySpeed\.gradient = nothing is invalid/],
  ];
  it.each(cases)('curves: %s', (_, value, message) => {
    expect(() => validateLookCurves('look.curves', value)).toThrow(message);
  });

  const spriteCases: [string, object, RegExp][] = [
    [
      'an unknown shape',
      { shape: 'heart' },
      /^look\.sprite\.shape = "heart" is invalid: must be one of soft, disc, ring, star, smoke, spark, image/,
    ],
    ['an unknown field', { spin: [0, 1], size: 2 }, /^look\.sprite\.size = 2 is invalid: unknown field/],
    ['0 rows', { flipbook: { rows: 0, columns: 2 } }, /flipbook\.rows = 0 is invalid: must be an integer in \[1, 64\]/],
    [
      '65 columns',
      { flipbook: { rows: 1, columns: 65 } },
      /flipbook\.columns = 65 is invalid: must be an integer in \[1, 64\]/,
    ],
    [
      'more frames than cells',
      { flipbook: { rows: 2, columns: 2, frames: 5 } },
      /flipbook\.frames = 5 is invalid: must be an integer in \[1, 4\]/,
    ],
    [
      'an unknown mode',
      { flipbook: { rows: 1, columns: 2, mode: 'time' } },
      /flipbook\.mode = "time" is invalid: must be one of age, fps/,
    ],
    [
      'fps without a rate',
      { flipbook: { rows: 1, columns: 2, mode: 'fps' } },
      /flipbook\.fps = nothing is invalid: must be a finite number > 0/,
    ],
    ['a negative rate', { flipbook: { rows: 1, columns: 2, fps: -3 } }, /flipbook\.fps = -3 is invalid/],
    [
      '0 cycles',
      { flipbook: { rows: 1, columns: 2, cycles: 0 } },
      /flipbook\.cycles = 0 is invalid: must be a finite number > 0/,
    ],
    ['blend not a flag', { flipbook: { rows: 1, columns: 2, blend: 'yes' } }, /flipbook\.blend = "yes" is invalid/],
    ['an empty rotation range', { rotation: [1, 0] }, /rotation = \[1,0\] is invalid: an empty range: min 1 > max 0/],
    ['a rotation of 3', { rotation: [0, 1, 2] }, /rotation = \[0,1,2\] is invalid: must be \[min, max\]/],
    ['a huge spin', { spin: [0, 1e9] }, /spin\[1\] = 1000000000 is invalid: must be a number in \[-10000, 10000\]/],
    ['a NaN spin', { spin: [NaN, 0] }, /spin\[0\] = NaN is invalid/],
    ['an unknown orientation', { orient: 'world' }, /orient = "world" is invalid: must be one of screen, velocity/],
    ['a soft distance of 0', { softDistance: 0 }, /softDistance = 0 is invalid: must be a finite number > 0/],
    ['an unknown filter', { filter: 'cubic' }, /filter = "cubic" is invalid: must be one of linear, nearest/],
  ];
  it.each(spriteCases)('sprite: %s', (_, value, message) => {
    expect(() => validateSprite('look.sprite', value)).toThrow(message);
  });

  it('refuses rules that are not a list of at most 64, a bad rule by its index, and an image shape with no image', () => {
    expect(() => validateLook({ rules: {} as never })).toThrow(
      /^look\.rules = \{\} is invalid: must be a list of at most 64/,
    );
    expect(() => validateLook({ rules: Array(65).fill(null) })).toThrow(
      /look\.rules = .* is invalid: must be a list of at most 64/,
    );
    expect(() => validateLook({ rules: [null, { size: [{ at: 2, value: 1 }] }] })).toThrow(
      /^look\.rules\[1\]\.size\[0\]\.at = 2 is invalid/,
    );
    expect(() => validateLook({ sprite: { shape: 'image' } })).toThrow(
      /^look\.spriteImage = nothing is invalid: must be given where look\.sprite\.shape is 'image'/,
    );
    expect(validateLook({ rules: [null, undefined] }).rules).toEqual([undefined, undefined]);
  });
});
