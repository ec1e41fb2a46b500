/**
 * Depth sorting's CPU reference (no GPU): the view depth of each particle,
 * its sort key, and the back-to-front order the GPU sort
 * (src/render/depthSort.ts, shaders/render/depthSort.wgsl) must reproduce
 * exactly. Every float step is rounded to float32 in the shader's order, so
 * the keys are the GPU's bit for bit where the GPU does not fuse a multiply
 * and an add (test/depthSort.test.ts checks both the keys and the order).
 */
import { FLOATS_PER_PARTICLE, OFFSET } from './layout';

const { POSITION, INVERSE_MASS, VELOCITY } = OFFSET;
const f32 = Math.fround;

/** Whether a look's particles are drawn sorted: `back-to-front` (for alpha blending) or `none` (the default). */
export const SORT_ORDERS = ['none', 'back-to-front'] as const;
/** `none` or `back-to-front` (see SORT_ORDERS). */
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * The row of a column-major world-to-clip matrix whose dot product with
 * (position, 1) grows with the distance from the eye: clip w for a
 * perspective projection (the view depth), clip z where w is constant
 * (orthographic). Written into `out` (4 floats), rounded to float32.
 */
export function depthRow(out: Float32Array, viewProjection: ArrayLike<number>): Float32Array {
  const m = (k: number) => viewProjection[k] ?? 0;
  const constantW = m(3) === 0 && m(7) === 0 && m(11) === 0;
  const row = constantW ? 2 : 3;
  for (let c = 0; c < 4; c++) out[c] = m(4 * c + row);
  return out;
}

/**
 * The view depth of a particle as the shader computes it: the position drawn
 * (moved `extrapolate` seconds along the velocity unless immovable, as
 * shaders/render/particles.wgsl draws it) dotted with `row`, left to right.
 */
export function particleDepth(records: Float32Array, slot: number, row: Float32Array, extrapolate: number): number {
  const b = slot * FLOATS_PER_PARTICLE;
  const moving = (records[b + INVERSE_MASS] ?? 0) > 0;
  const e = f32(extrapolate);
  const at = (k: number) =>
    f32((records[b + POSITION + k] ?? 0) + (moving ? f32((records[b + VELOCITY + k] ?? 0) * e) : 0));
  const x = at(0);
  const y = at(1);
  const z = at(2);
  let d = f32((row[0] ?? 0) * x);
  d = f32(d + f32((row[1] ?? 0) * y));
  d = f32(d + f32((row[2] ?? 0) * z));
  return f32(d + (row[3] ?? 0));
}

const scratch = new DataView(new ArrayBuffer(4));

/**
 * The sort key of a float32 depth: a u32 that orders as the depth does,
 * reversed, so ascending keys run back to front. The float's bits, sign bit
 * set for positives and all bits flipped for negatives, is monotone in the
 * float (-0 just below +0); the key is that flipped.
 */
export function depthKey(depth: number): number {
  scratch.setFloat32(0, depth, true);
  const bits = scratch.getUint32(0, true);
  const ordered = bits & 0x80000000 ? ~bits >>> 0 : (bits | 0x80000000) >>> 0;
  return ~ordered >>> 0;
}

/** The key of a free slot of a system with emitters: after every live particle's (but a NaN depth's with all bits set). */
export const DEAD_KEY = 0xffffffff;

/**
 * The keys of slots [0, count) of packed particle records; with `alive`
 * (a system with emitters: the life records' `alive`, one a slot), the free
 * slots' DEAD_KEY, so the live ones sort first.
 */
export function depthKeys(
  records: Float32Array,
  count: number,
  row: Float32Array,
  extrapolate: number,
  alive?: ArrayLike<number>,
): Uint32Array {
  const keys = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    keys[i] = alive && !alive[i] ? DEAD_KEY : depthKey(particleDepth(records, i, row, extrapolate));
  }
  return keys;
}

/** The slots in drawing order: keys ascending (back to front), ties by slot ascending. */
export function backToFront(keys: Uint32Array): Uint32Array {
  const slots = Uint32Array.from(keys.keys());
  return slots.sort((a, b) => (keys[a] ?? 0) - (keys[b] ?? 0) || a - b);
}
