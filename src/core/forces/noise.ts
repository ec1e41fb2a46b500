/**
 * The CPU twin of shaders/noise.wgsl: PCG-hashed value noise with analytic
 * derivatives, and the curl of three such fields, line for line in the
 * shader's order so float32 results agree (the shader says why).
 */
import type { Rounding } from '../integrate';

/**
 * Jarzynski and Olano's PCG hash ("Hash Functions for GPU Rendering", 2020):
 * u32 in, u32 out, wrapping multiplies and shifts, so WGSL's u32 arithmetic
 * and this (Math.imul, >>> 0) agree bit for bit.
 */
export function pcgHash(input: number): number {
  const state = (Math.imul(input, 747796405) + 2891336453) >>> 0;
  const word = Math.imul(((state >>> ((state >>> 28) + 4)) ^ state) >>> 0, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

export const LATTICE_X = 0x8da6b343;
export const LATTICE_Y = 0xd8163841;
export const LATTICE_Z = 0xcb1ab31f;

/** The hash input of lattice point (x, y, z) (i32 coordinates) for a seed's key. */
export function latticeKey(x: number, y: number, z: number, key: number): number {
  return (Math.imul(x, LATTICE_X) + Math.imul(y, LATTICE_Y) + Math.imul(z, LATTICE_Z) + key) >>> 0;
}

/** Field k's value at a corner with hash h: ten bits, in [0, 1023]. */
export function cornerValue(h: number, k: number): number {
  return (h >>> (10 * k)) & 1023;
}

/** Quintic fade 6t⁵ - 15t⁴ + 10t³ and its derivative, in the shader's order. */
export function fade(t: number, round: Rounding): number {
  return round(round(round(t * t) * t) * round(round(t * round(round(t * 6) - 15)) + 10));
}
export function fadeDerivative(t: number, round: Rounding): number {
  return round(round(round(30 * t) * t) * round(round(t * round(t - 2)) + 1));
}

/** WGSL's f32 -> i32 conversion: truncation, clamped to the i32 range. */
export function toI32(x: number): number {
  return Math.max(-2147483648, Math.min(2147483647, Math.trunc(x))) | 0;
}

// Corner values v[corner * 3 + k], corner = x + 2y + 4z; scratch, so nothing allocates per particle.
const v = new Float64Array(24);
const u = [0, 0, 0];
const du = [0, 0, 0];
const dx = [0, 0, 0];
const dy = [0, 0, 0];
const dz = [0, 0, 0];

function lerp(a: number, b: number, t: number, round: Rounding): number {
  return round(a + round(round(b - a) * t));
}

/** Field k's differences along one axis (corner pairs `pairs`) blended over the other two, as the shader's lerp3 nest. */
function blend(k: number, pairs: readonly number[], s: number, t: number, round: Rounding): number {
  const difference = (at: number) =>
    round((v[(pairs[at] as number) * 3 + k] as number) - (v[(pairs[at + 1] as number) * 3 + k] as number));
  const near = lerp(difference(0), difference(2), s, round);
  const far = lerp(difference(4), difference(6), s, round);
  return lerp(near, far, t, round);
}

// Corner pairs (x + 2y + 4z) of each difference, in the shader's order.
const X_PAIRS = [1, 0, 3, 2, 5, 4, 7, 6]; // v100 - v000, v110 - v010 | v101 - v001, v111 - v011
const Y_PAIRS = [2, 0, 3, 1, 6, 4, 7, 5]; // v010 - v000, v110 - v100 | v011 - v001, v111 - v101
const Z_PAIRS = [4, 0, 5, 1, 6, 2, 7, 3]; // v001 - v000, v101 - v100 | v011 - v010, v111 - v110
const CORNER_OFFSETS = [
  0,
  LATTICE_X,
  LATTICE_Y,
  LATTICE_X + LATTICE_Y,
  LATTICE_Z,
  LATTICE_X + LATTICE_Z,
  LATTICE_Y + LATTICE_Z,
  LATTICE_X + LATTICE_Y + LATTICE_Z,
];

/** `out` = curl(n0, n1, n2) at q (lattice units): the twin of `curlNoise` in shaders/noise.wgsl. */
export function curlNoise(
  qx: number,
  qy: number,
  qz: number,
  key: number,
  round: Rounding,
  out: number[] | Float64Array,
): void {
  const cx = Math.floor(qx);
  const cy = Math.floor(qy);
  const cz = Math.floor(qz);
  const fx = round(qx - cx);
  const fy = round(qy - cy);
  const fz = round(qz - cz);
  u[0] = fade(fx, round);
  u[1] = fade(fy, round);
  u[2] = fade(fz, round);
  du[0] = fadeDerivative(fx, round);
  du[1] = fadeDerivative(fy, round);
  du[2] = fadeDerivative(fz, round);
  const base = latticeKey(toI32(cx), toI32(cy), toI32(cz), key);
  for (let corner = 0; corner < 8; corner++) {
    const h = pcgHash((base + (CORNER_OFFSETS[corner] as number)) >>> 0);
    for (let k = 0; k < 3; k++) v[corner * 3 + k] = cornerValue(h, k);
  }
  for (let k = 0; k < 3; k++) {
    dx[k] = round(blend(k, X_PAIRS, u[1] as number, u[2] as number, round) * (du[0] as number));
    dy[k] = round(blend(k, Y_PAIRS, u[0] as number, u[2] as number, round) * (du[1] as number));
    dz[k] = round(blend(k, Z_PAIRS, u[0] as number, u[1] as number, round) * (du[2] as number));
  }
  out[0] = round(round((dy[2] as number) - (dz[1] as number)) * 0.001953125);
  out[1] = round(round((dz[0] as number) - (dx[2] as number)) * 0.001953125);
  out[2] = round(round((dx[1] as number) - (dy[0] as number)) * 0.001953125);
}

/** Noise field k at q in float64, (trilinear blend of the corner values) / 512: the potential the tests differentiate. */
export function noiseValue(q: readonly number[], key: number, k: number): number {
  const c = q.map(Math.floor) as [number, number, number];
  const s = q.map((x, axis) => {
    const t = x - (c[axis] as number);
    return t * t * t * (t * (t * 6 - 15) + 10);
  });
  const base = latticeKey(toI32(c[0]), toI32(c[1]), toI32(c[2]), key);
  let sum = 0;
  for (let corner = 0; corner < 8; corner++) {
    const h = pcgHash((base + (CORNER_OFFSETS[corner] as number)) >>> 0);
    let weight = 1;
    for (let axis = 0; axis < 3; axis++) {
      const t = s[axis] as number;
      weight *= (corner >> axis) & 1 ? t : 1 - t;
    }
    sum += weight * cornerValue(h, k);
  }
  return sum / 512;
}

/** The analytic gradient of field k at q, float64 (the twin's blends with no rounding), scaled as noiseValue. */
export function noiseGradient(q: readonly number[], key: number, k: number): [number, number, number] {
  const identity = (x: number) => x;
  const saved = Array.from(v);
  const cx = Math.floor(q[0] as number);
  const cy = Math.floor(q[1] as number);
  const cz = Math.floor(q[2] as number);
  const t = [(q[0] as number) - cx, (q[1] as number) - cy, (q[2] as number) - cz];
  const base = latticeKey(toI32(cx), toI32(cy), toI32(cz), key);
  for (let corner = 0; corner < 8; corner++) {
    const h = pcgHash((base + (CORNER_OFFSETS[corner] as number)) >>> 0);
    for (let field = 0; field < 3; field++) v[corner * 3 + field] = cornerValue(h, field);
  }
  const s = t.map((x) => fade(x, identity));
  const ds = t.map((x) => fadeDerivative(x, identity));
  const out: [number, number, number] = [
    (blend(k, X_PAIRS, s[1] as number, s[2] as number, identity) * (ds[0] as number)) / 512,
    (blend(k, Y_PAIRS, s[0] as number, s[2] as number, identity) * (ds[1] as number)) / 512,
    (blend(k, Z_PAIRS, s[0] as number, s[1] as number, identity) * (ds[2] as number)) / 512,
  ];
  v.set(saved);
  return out;
}
