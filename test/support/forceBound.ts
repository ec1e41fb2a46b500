/**
 * How far the GPU's forces may be from the CPU reference's (src/core/forces),
 * derived by running the reference's operations again on tracked values: each
 * value carries `v`, exactly what the float32 reference computes (the tests
 * check it is bit for bit the reference's accumulator), and `e`, a bound on
 * |GPU - reference| for that value. The input state's own GPU-reference
 * differences (the carried bound of test/support/errorBound.ts) enter as the
 * inputs' `e`, so the bound propagates through the forces step after step.
 *
 * The rules, one per WGSL operation (u = 2^-24; the ULP of r is at most 2u|r|;
 * WGSL §15.7):
 * - `+ - *` are "correctly rounded" but WGSL fixes no rounding mode: the GPU
 *   may round either way (< 1 ULP, 2u|r|) where the reference rounds to
 *   nearest (u|r|), so a result may differ by 3u|r| on equal inputs, plus what
 *   the inputs' errors propagate (|a| e_b + |b| e_a + e_a e_b for a product).
 *   A product contracted into the add that follows (fma) skips its rounding:
 *   already inside the product's 3u. An add uses 3u(|a| + |b|), and a sum of
 *   n terms 3u (n - 1) Σ|t|, whatever order the GPU reassociates it in.
 * - `x / y`: 2.5 ULP on the GPU (5u|q|) against the reference's u|q|: 6u|q|,
 *   plus (e_x + |q| e_y) / (|y| - e_y).
 * - `inverseSqrt`: 2 ULP (4u), the reference's fround(1 / Math.sqrt) within
 *   u(1 + 2^-28): 5u|r| plus e_x / (2 (x - e_x)^(3/2)).
 * - `sqrt` is inherited from 1 / inverseSqrt(x): (1 + 4u)(1 + 5u) - 1 < 9.1u,
 *   plus the reference's u: 10.1u|r|, plus min(e_x / √x, √e_x).
 * - A difference of two values within a factor 2 of each other is exact
 *   (Sterbenz), on both sides, in any rounding mode.
 * - `floor`, `clamp`, `min`, `max`, `select`, negation, integer and bit
 *   operations, and products by powers of two are exact on both sides
 *   (clamp and min/max are 1-Lipschitz, so they pass the error through).
 * - Any input or output may be a flushed subnormal: 2^-126 per operation.
 * - A branch whose condition the errors could flip: the GPU may have taken
 *   the other side; the bound covers both (see each case).
 */
import { OFFSET, FLOATS_PER_PARTICLE } from '../../src/core/layout';
import type { FloatArray } from '../../src/core/particles';
import {
  FORCE_KINDS,
  RECORD_FLOATS,
  RECORD_INTS,
  RECORD_INT_AT,
  slotIndex,
  type PackedForces,
} from '../../src/core/forces/records';
import type { ForceRegistry, SpringNetwork, SpringRows } from '../../src/core/forces/registry';
import { isTarget } from '../../src/core/forces/fieldForces';
import { FOURIER_MODES } from '../../src/core/forces/turbulence';

export const U = 2 ** -24;
const TINY = 2 ** -126;
const f32 = Math.fround;

/** A value as the float32 reference computes it, and a bound on the GPU's distance from it. */
export interface T {
  readonly v: number;
  readonly e: number;
}

export const exact = (v: number): T => ({ v, e: 0 });
export const tracked = (v: number, e: number): T => ({ v, e });

/**
 * Sterbenz: x - y is exact when y/2 <= x <= 2y, so whatever the rounding mode
 * no rounding happens. True of a + b when a and b have opposite signs and,
 * for every input within the errors, magnitudes within a factor 2.
 */
function sterbenz(a: T, b: T): boolean {
  if (a.v === 0 || b.v === 0 || Math.sign(a.v) === Math.sign(b.v)) return false;
  const [x, ex, y, ey] = [Math.abs(a.v), a.e, Math.abs(b.v), b.e];
  return x - ex > 0 && y - ey > 0 && x + ex <= 2 * (y - ey) && y + ey <= 2 * (x - ex);
}

export function add(a: T, b: T): T {
  const p = a.e + b.e;
  if (sterbenz(a, b)) return { v: f32(a.v + b.v), e: p };
  return { v: f32(a.v + b.v), e: p + 3 * U * (Math.abs(a.v) + Math.abs(b.v) + p) + TINY };
}
export function sub(a: T, b: T): T {
  return add(a, neg(b));
}
export function neg(a: T): T {
  return { v: -a.v, e: a.e };
}
/** |x| e, 0 when x is exactly 0 even if e is infinite (no NaN). */
const times = (x: number, e: number) => (x === 0 || e === 0 ? 0 : Math.abs(x) * e);

export function mul(a: T, b: T): T {
  const p = times(a.v, b.e) + times(b.v, a.e) + times(a.e, b.e);
  return { v: f32(a.v * b.v), e: p + 3 * U * (Math.abs(a.v * b.v) + p) + TINY };
}
/** A sum of terms in this order (the reference's), its bound valid in any order. */
export function sum(terms: readonly T[]): T {
  let v = 0;
  let e = 0;
  let magnitude = 0;
  terms.forEach((t, k) => {
    v = k === 0 ? t.v : f32(v + t.v);
    e += t.e;
    magnitude += Math.abs(t.v) + t.e;
  });
  return { v, e: e + 3 * U * Math.max(terms.length - 1, 0) * magnitude + TINY };
}
export function div(a: T, b: T): T {
  const q = f32(a.v / b.v);
  const room = Math.abs(b.v) - b.e;
  if (!(room > 0)) return { v: q, e: Number.POSITIVE_INFINITY };
  const p = (a.e + times(q, b.e)) / room;
  return { v: q, e: p + 6 * U * (Math.abs(q) + p) + TINY };
}
export function sqrt(a: T): T {
  const r = f32(Math.sqrt(a.v));
  const p = a.v > 0 ? Math.min(a.e / Math.sqrt(a.v), Math.sqrt(a.e)) : Math.sqrt(a.e);
  return { v: r, e: p + 10.1 * U * (r + p) + TINY };
}
export function inverseSqrt(a: T): T {
  const r = f32(1 / Math.sqrt(a.v));
  const room = a.v - a.e;
  if (!(room > 0)) return { v: r, e: Number.POSITIVE_INFINITY };
  const p = a.e / (2 * room ** 1.5);
  return { v: r, e: p + 5 * U * (r + p) + TINY };
}
export function clamp01(a: T): T {
  return { v: Math.min(Math.max(a.v, 0), 1), e: a.e };
}
/** A product by an exact power of two (exact on both sides but for flushed subnormals). */
export function scale2(a: T, power: number): T {
  return { v: a.v * power, e: a.e * power + TINY };
}

type Vec = [T, T, T];
const vec = (x: T, y: T, z: T): Vec => [x, y, z];
const subV = (a: Vec, b: Vec): Vec => [sub(a[0], b[0]), sub(a[1], b[1]), sub(a[2], b[2])];
const dot = (a: Vec, b: Vec): T => sum([mul(a[0], b[0]), mul(a[1], b[1]), mul(a[2], b[2])]);
const scaleV = (a: Vec, s: T): Vec => [mul(a[0], s), mul(a[1], s), mul(a[2], s)];
const ZERO: Vec = [exact(0), exact(0), exact(0)];

/**
 * Hooke's law along d with the twin's branches. Both branches can be in
 * doubt: |d|² near 0 (where the force of a positive rest length jumps: the
 * GPU may return 0 while the reference returns up to stiffness * rest, or the
 * reverse), and a bungee's stretch near 0 (continuous, the force there is
 * small). Either way the bound covers the force the other side can produce.
 */
function hooke(d: Vec, restLength: T, stiffness: T, bungee: boolean): Vec {
  const length2 = dot(d, d);
  if (length2.v <= 0) {
    if (length2.e === 0) return ZERO;
    // The GPU may see |d| up to sqrt(e): force at most k (|d| + rest), along d.
    const worst = stiffness.v * (Math.sqrt(length2.e) + restLength.v) * (1 + 32 * U);
    return [tracked(0, worst), tracked(0, worst), tracked(0, worst)];
  }
  const length = sqrt(length2);
  const stretch = sub(length, restLength);
  const force = () => scaleV(d, div(mul(neg(stiffness), stretch), length));
  const widen = (f: Vec, by: number): Vec => f.map((c) => tracked(c.v, c.e + by)) as Vec;
  let f: Vec;
  if (bungee && stretch.v <= 0) {
    if (stretch.v < -stretch.e) return ZERO;
    // The GPU may pull with a stretch up to its error: k * e_stretch * |d_c| / |d| <= k e_stretch.
    const worst = stiffness.v * (stretch.e + Math.abs(stretch.v)) * (1 + 32 * U);
    return [tracked(0, worst), tracked(0, worst), tracked(0, worst)];
  }
  f = force();
  if (bungee && stretch.v <= stretch.e) {
    // The GPU may have returned 0 instead: the force itself.
    f = f.map((c) => tracked(c.v, c.e + Math.abs(c.v))) as Vec;
  }
  if (length2.v <= length2.e) {
    // The GPU may have seen |d| = 0 and returned nothing.
    f = widen(f, Math.max(...f.map((c) => Math.abs(c.v))));
  }
  return f;
}

const P = (type: Parameters<typeof slotIndex>[0], name: string) => slotIndex(type, name as never);
const S = {
  gravity: P('gravity', 'g'),
  k1: P('drag', 'k1'),
  k2: P('drag', 'k2'),
  anchor: P('anchoredSpring', 'anchor'),
  rest: P('anchoredSpring', 'restLength'),
  stiffness: P('anchoredSpring', 'stiffness'),
  top: P('buoyancy', 'surfaceTop'),
  band: P('buoyancy', 'inverseBand'),
  full: P('buoyancy', 'fullForce'),
  stiffAnchor: P('stiffSpring', 'anchor'),
  stiffA: P('stiffSpring', 'positionCoefficient'),
  stiffB: P('stiffSpring', 'velocityCoefficient'),
  attractor: P('attractor', 'position'),
  attractorStrength: P('attractor', 'strength'),
  attractorSoftening: P('attractor', 'softening2'),
  vortex: P('vortex', 'position'),
  vortexStrength: P('vortex', 'strength'),
  axis: P('vortex', 'axis'),
  vortexSoftening: P('vortex', 'softening2'),
  wind: P('wind', 'force'),
  origin: P('turbulence', 'origin'),
  turbulenceStrength: P('turbulence', 'strength'),
  frequency: P('turbulence', 'frequency'),
};

const absolute = (a: T): T => ({ v: Math.abs(a.v), e: a.e });

/**
 * The turbulence field's parabola, x = 2 (t - floor t) - 1, x (4 - 4|x|),
 * tracked. Where t is within its error of an integer the GPU's floor may be
 * the other one and its x at the other end of [-1, 1); wave is 0 at both ends
 * with slope at most 8 in t, so either side is within 8 e_t of 0 (plus the
 * rounding of x near ±1: 2 f - 1 within 9u, times the slope 4 in x, under 64u).
 */
function wave(t: T): T {
  const n = Math.floor(t.v);
  const x = add(scale2(sub(t, exact(n)), 2), exact(-1));
  const y = mul(x, sub(exact(4), scale2(absolute(x), 4)));
  if (t.v - n <= t.e || n + 1 - t.v <= t.e) return tracked(y.v, y.e + 16 * t.e + 64 * U);
  return y;
}

/** The turbulence field at q, tracked mode by mode as the twin (src/core/forces/turbulence.ts) computes it. */
function turbulenceField(q: Vec): Vec {
  const terms: T[][] = [[], [], []];
  for (const { k, phase, amplitude } of FOURIER_MODES) {
    const w = wave(add(dot(k.map(exact) as Vec, q), exact(phase)));
    amplitude.forEach((a, c) => terms[c]!.push(mul(exact(a), w)));
  }
  return terms.map(sum) as Vec;
}

/** One generator's force on one particle, tracked; mirrors src/core/forces/fieldForces.ts. */
function generatorForce(kind: number, params: FloatArray, r: number, x: Vec, v: Vec, inverseMass: T): Vec {
  const p = (slot: number) => exact(params[r + slot] as number);
  const pv = (slot: number): Vec => [p(slot), p(slot + 1), p(slot + 2)];
  switch (kind) {
    case FORCE_KINDS.gravity:
      return pv(S.gravity).map((g) => div(g, inverseMass)) as Vec;
    case FORCE_KINDS.drag: {
      const speed2 = dot(v, v);
      const k1 = params[r + S.k1] as number;
      const k2 = params[r + S.k2] as number;
      if (speed2.v <= 0) {
        // The GPU may see a speed up to sqrt(e): |f_c| <= (k1 + k2 |v|) |v|.
        const speed = Math.sqrt(speed2.e);
        const worst = (k1 + k2 * speed) * speed * (1 + 32 * U);
        return [tracked(0, worst), tracked(0, worst), tracked(0, worst)];
      }
      const coefficient = add(p(S.k1), mul(p(S.k2), sqrt(speed2)));
      let f = v.map((c) => neg(mul(c, coefficient))) as Vec;
      // Near rest the GPU may return 0: add the force itself.
      if (speed2.v <= speed2.e) f = f.map((c) => tracked(c.v, c.e + Math.abs(c.v))) as Vec;
      return f;
    }
    case FORCE_KINDS.anchoredSpring:
    case FORCE_KINDS.anchoredBungee:
      return hooke(subV(x, pv(S.anchor)), p(S.rest), p(S.stiffness), kind === FORCE_KINDS.anchoredBungee);
    case FORCE_KINDS.buoyancy: {
      const submerged = clamp01(mul(sub(p(S.top), x[1]), p(S.band)));
      return [exact(0), mul(p(S.full), submerged), exact(0)];
    }
    case FORCE_KINDS.stiffSpring: {
      const offset = subV(x, pv(S.stiffAnchor));
      return [0, 1, 2].map((c) =>
        div(add(mul(offset[c] as T, p(S.stiffA)), mul(v[c] as T, p(S.stiffB))), inverseMass),
      ) as Vec;
    }
    case FORCE_KINDS.attractor: {
      const d = subV(pv(S.attractor), x);
      const inverse = inverseSqrt(add(dot(d, d), p(S.attractorSoftening)));
      const scale = mul(mul(mul(p(S.attractorStrength), inverse), inverse), inverse);
      return scaleV(d, scale);
    }
    case FORCE_KINDS.vortex: {
      const a = pv(S.axis);
      const rel = subV(x, pv(S.vortex));
      const t: Vec = [
        sub(mul(a[1], rel[2]), mul(a[2], rel[1])),
        sub(mul(a[2], rel[0]), mul(a[0], rel[2])),
        sub(mul(a[0], rel[1]), mul(a[1], rel[0])),
      ];
      const scale = div(p(S.vortexStrength), add(dot(t, t), p(S.vortexSoftening)));
      return scaleV(t, scale);
    }
    case FORCE_KINDS.wind:
      return pv(S.wind);
    case FORCE_KINDS.turbulence: {
      const frequency = p(S.frequency);
      const q = [0, 1, 2].map((c) => add(mul(x[c] as T, frequency), p(S.origin + c))) as Vec;
      return turbulenceField(q).map((c) => mul(c, p(S.turbulenceStrength))) as Vec;
    }
  }
  throw new Error(`forceBound: unknown kind ${kind}`);
}

const { POSITION, VELOCITY, INVERSE_MASS, FORCE_ACCUM } = OFFSET;

export interface ForceBound {
  /** Bound on |GPU - reference| of each particle's accumulator after the forces, xyz. */
  readonly error: Float64Array;
  /** The accumulator the tracked run computed: must equal the reference's bit for bit. */
  readonly value: Float32Array;
}

/**
 * The bound for one accumulation of `registry` then `springs` (the reference's
 * order) on the reference state `state` (before the forces), the state's own
 * GPU-reference differences given per particle component (null: none).
 */
export function forceBound(
  state: FloatArray,
  count: number,
  registry: ForceRegistry | null,
  springs: SpringNetwork | null,
  dt: number,
  positionError: Float64Array | null = null,
  velocityError: Float64Array | null = null,
): ForceBound {
  const error = new Float64Array(count * 3);
  const value = new Float32Array(count * 3);
  const packed: PackedForces | null = registry && registry.size > 0 ? registry.pack(Math.fround(dt)) : null;
  const masks = registry?.maskWords ?? new Uint32Array(0);
  const rows: SpringRows | null = springs && springs.size > 0 ? springs.rows : null;
  const position = (i: number): Vec =>
    [0, 1, 2].map((c) =>
      tracked(state[i * FLOATS_PER_PARTICLE + POSITION + c] as number, positionError?.[i * 3 + c] ?? 0),
    ) as Vec;
  // Row of each particle in the spring rows, for the gather.
  for (let i = 0; i < count; i++) {
    const base = i * FLOATS_PER_PARTICLE;
    const accumulator = [0, 1, 2].map((c) => exact(state[base + FORCE_ACCUM + c] as number));
    const inverseMass = state[base + INVERSE_MASS] as number;
    let total: T[] = accumulator;
    if (inverseMass > 0) {
      const x = position(i);
      const v = [0, 1, 2].map((c) =>
        tracked(state[base + VELOCITY + c] as number, velocityError?.[i * 3 + c] ?? 0),
      ) as Vec;
      // One sum per component: the accumulator, then each force in application order.
      const terms: T[][] = accumulator.map((a) => [a]);
      if (packed) {
        for (let g = 0; g < packed.generatorCount; g++) {
          if (!isTarget(packed.ints, g, masks, i)) continue;
          const kind = packed.ints[g * RECORD_INTS + RECORD_INT_AT.kind] as number;
          const f = generatorForce(kind, packed.params32, g * RECORD_FLOATS, x, v, exact(inverseMass));
          f.forEach((c, axis) => terms[axis]!.push(c));
        }
      }
      // The reference rounds the field forces' sum before the springs add to it;
      // the springs' gather is a second chain of adds.
      const afterFields = terms.map(sum);
      total = afterFields;
      if (rows && i >= rows.first && i < rows.first + rows.count) {
        const row = i - rows.first;
        const chain: T[][] = afterFields.map((t) => [t]);
        for (let e = rows.offsets[row] as number; e < (rows.offsets[row + 1] as number); e++) {
          const other = rows.ends[2 * e] as number;
          const link = rows.ends[2 * e + 1] as number;
          const d = subV(x, position(other));
          const f = hooke(
            d,
            exact(rows.params32[2 * link] as number),
            exact(rows.params32[2 * link + 1] as number),
            rows.bungee[link] !== 0,
          );
          f.forEach((c, axis) => chain[axis]!.push(c));
        }
        total = chain.map(sum);
      }
    }
    for (let c = 0; c < 3; c++) {
      error[i * 3 + c] = (total[c] as T).e;
      value[i * 3 + c] = (total[c] as T).v;
    }
  }
  return { error, value };
}

/** The accumulators of packed state, xyz per particle. */
export function accumulators(state: FloatArray, count: number): Float32Array {
  const out = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 3; c++) out[i * 3 + c] = state[i * FLOATS_PER_PARTICLE + FORCE_ACCUM + c] as number;
  }
  return out;
}

/** First mismatches of GPU accumulators against the reference's beyond the bound, or null. */
export function compareForces(
  gpu: Float32Array,
  reference: Float32Array,
  bound: Float64Array,
  context: string,
): string | null {
  const lines: string[] = [];
  let total = 0;
  for (let j = 0; j < bound.length; j++) {
    const diff = Math.abs((gpu[j] as number) - (reference[j] as number));
    if (!(diff <= (bound[j] as number))) {
      total++;
      if (lines.length < 5) {
        lines.push(
          `particle ${Math.floor(j / 3)} force[${'xyz'[j % 3]}]: GPU ${gpu[j]}, reference ${reference[j]}, ` +
            `|diff| ${diff} > allowed ${bound[j]}`,
        );
      }
    }
  }
  return total === 0 ? null : `${context}: ${total} mismatches, first:\n  ${lines.join('\n  ')}`;
}
