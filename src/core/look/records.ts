/**
 * The look's GPU records, declared once with the schema (src/core/schema.ts):
 * CurveSet (one set of curves over life: a draw's, or one spawn rule's) and
 * SpriteParams (a draw's sprite image, flipbook, rotation and softness), and
 * how validated looks are written into them. The WGSL structs are printed
 * from these declarations (wgslLookRecords); shaders/render/particles.wgsl
 * reads them.
 *
 * Why stops four to a vec4f: a uniform or storage array of f32 has a 16-byte
 * stride in a uniform block, so positions and scalar values are packed four
 * to a lane and read as `lane[i / 4][i % 4]`.
 */
import { arrayOf, defineStruct, type StructArray } from '../schema';
import { MAX_CURVE_STOPS, type ColorStop, type CurveStop, type LookCurves } from './curves';
import type { ResolvedSprite } from './sprite';

const LANES = MAX_CURVE_STOPS / 4;

/** Curve k's positions are lanes 2k and 2k + 1 of CurveSet.at: colour, size, opacity, colour by speed. */
export const CURVE_KIND = { color: 0, size: 1, opacity: 2, speed: 3 } as const;
/** Where colour by speed's stops start in CurveSet.colors (colour over life's at 0). */
export const SPEED_COLORS = MAX_CURVE_STOPS;

/**
 * One set of curves over life; a count of 0 stops leaves that curve out.
 * Why one array of positions and one of colours, indexed by the curve: the
 * shader reads a stop where it lies (`curveSets[set].at[...]`) instead of
 * copying a field's array into a function's argument, which costs a load a
 * lane for every vertex on a software rasteriser.
 */
export const CURVE_SET = defineStruct(
  'CurveSet',
  {
    at: { type: arrayOf('vec4f', 4 * LANES), doc: 'stop positions, four a lane: colour, size, opacity, speed' },
    colors: {
      type: arrayOf('vec4f', 2 * MAX_CURVE_STOPS),
      doc: 'rgba, linear-light sRGB: colour over life, then colour by speed',
    },
    values: { type: arrayOf('vec4f', 2 * LANES), doc: 'size multipliers, then opacity multipliers, four a lane' },
    stops: { type: 'vec4u', doc: 'stops of colour, size, opacity, colour by speed (0: not used)' },
    speedRange: { type: 'f32', doc: 'm/s drawn at the end of the speed gradient' },
  },
  'The curves over life of a draw or a spawn rule (src/core/look/curves.ts)',
);

export type CurveSets = StructArray<typeof CURVE_SET.fields>;

/** Whether a set of curves sets anything. */
export function hasCurves(curves: LookCurves | undefined | null): boolean {
  return !!curves && (!!curves.color || !!curves.size || !!curves.opacity || !!curves.colorBySpeed);
}

function writePositions(sets: CurveSets, record: number, kind: number, stops: readonly { at: number }[]): void {
  const base = sets.index(record, 'at') + kind * 4 * LANES;
  stops.forEach((stop, i) => (sets.floats[base + i] = stop.at));
}

function writeColors(sets: CurveSets, record: number, first: number, stops: readonly ColorStop[]): void {
  const base = sets.index(record, 'colors') + 4 * first;
  stops.forEach((stop, i) => {
    for (let k = 0; k < 4; k++) sets.floats[base + 4 * i + k] = stop.color[k] ?? 1;
  });
}

function writeValues(sets: CurveSets, record: number, lane: number, stops: readonly CurveStop[]): void {
  const base = sets.index(record, 'values') + 4 * lane;
  stops.forEach((stop, i) => (sets.floats[base + i] = stop.value));
}

/** Writes validated `curves` into record `record` of `sets` (its other words zeroed). */
export function writeCurveSet(sets: CurveSets, record: number, curves: LookCurves): void {
  sets.words.fill(0, record * CURVE_SET.words, (record + 1) * CURVE_SET.words);
  const { color, size, opacity, colorBySpeed } = curves;
  if (color) {
    writePositions(sets, record, CURVE_KIND.color, color);
    writeColors(sets, record, 0, color);
  }
  if (size) {
    writePositions(sets, record, CURVE_KIND.size, size);
    writeValues(sets, record, 0, size);
  }
  if (opacity) {
    writePositions(sets, record, CURVE_KIND.opacity, opacity);
    writeValues(sets, record, LANES, opacity);
  }
  if (colorBySpeed) {
    writePositions(sets, record, CURVE_KIND.speed, colorBySpeed.gradient);
    writeColors(sets, record, SPEED_COLORS, colorBySpeed.gradient);
    sets.set(record, 'speedRange', colorBySpeed.speedRange);
  }
  sets.set(record, 'stops', [
    color?.length ?? 0,
    size?.length ?? 0,
    opacity?.length ?? 0,
    colorBySpeed?.gradient.length ?? 0,
  ]);
}

/** A draw's sprite: its atlas, flipbook timing, rotation ranges and soft-particle distance. */
export const SPRITE_PARAMS = defineStruct(
  'SpriteParams',
  {
    columns: 'u32',
    rows: 'u32',
    frames: { type: 'u32', doc: 'frames used of rows * columns' },
    byFps: { type: 'u32', doc: '1: frame = age * fps, looping; 0: by age over life' },
    fps: 'f32',
    cycles: { type: 'f32', doc: 'by age: times the frames play over a life' },
    blendFrames: { type: 'u32', doc: '1: blend each frame into the next' },
    softDistance: { type: 'f32', doc: 'soft particles: view depth over which a sprite fades in front of the scene' },
    rotation: { type: 'vec2f', doc: 'initial angle range, radians' },
    spin: { type: 'vec2f', doc: 'angular velocity range, radians a second' },
  },
  'The sprite image and motion of a draw (src/core/look/sprite.ts)',
);

/** Writes a resolved sprite into a SpriteParams block. */
export function writeSpriteParams(
  block: { set(field: keyof typeof SPRITE_PARAMS.fields, value: number | ArrayLike<number>): unknown },
  sprite: ResolvedSprite,
): void {
  const book = sprite.flipbook;
  block.set('columns', book.columns);
  block.set('rows', book.rows);
  block.set('frames', book.frames);
  block.set('byFps', book.mode === 'fps' ? 1 : 0);
  block.set('fps', book.fps);
  block.set('cycles', book.cycles);
  block.set('blendFrames', book.blend ? 1 : 0);
  block.set('softDistance', sprite.softDistance);
  block.set('rotation', sprite.rotation);
  block.set('spin', sprite.spin);
}

/** The look's WGSL declarations (CurveSet, SpriteParams), printed from the schema. */
export function wgslLookRecords(): string {
  return [
    CURVE_SET.wgsl(),
    SPRITE_PARAMS.wgsl(),
    `const CURVE_LANES: u32 = ${LANES}u;`,
    `const CURVE_SPEED_COLORS: u32 = ${SPEED_COLORS}u;`,
  ].join('\n');
}
