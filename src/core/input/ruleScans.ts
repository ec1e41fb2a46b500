/**
 * One tight loop per rule, finding the first value of an array that breaks
 * it (or -1), with no allocation: what makes a bulk write of a million
 * particles cheap to check.
 */
import {
  FLOAT32_MIN_NORMAL,
  MAX_RADIUS,
  isFiniteFloat32,
  isValidDamping,
  isValidInverseMass,
  isValidMass,
  isValidRadius,
} from './rules';

/*
 * The rules as bindings of this module, for the loops below (see STRIDE in
 * particleArrays.ts for why an imported name would be slow here).
 */
const finiteFloat32 = isFiniteFloat32;
const validMass = isValidMass;
const validInverseMass = isValidInverseMass;
const validDamping = isValidDamping;
const validRadius = isValidRadius;
const MIN_NORMAL = FLOAT32_MIN_NORMAL;
const LARGEST_RADIUS = MAX_RADIUS;

/** The largest finite float32, 3.4028235e38. */
const FLOAT32_MAX = (2 - 2 ** -23) * 2 ** 127;

/*
 * A Float32Array (what callers pass, and what is stored) takes a loop of
 * plain comparisons; anything else (a Float64Array, an array that may hold
 * non-numbers) calls the predicates writeParticles uses. For a float32 x
 * the two agree: x is finite exactly when x - x is 0 (NaN and the
 * infinities give NaN), and finite exactly when |x| <= FLOAT32_MAX; a test
 * (test/bulkWrite.test.ts) checks them on the edge values.
 */
export function firstNotFinite(values: ArrayLike<number>): number {
  if (values instanceof Float32Array) {
    // x * 0 is +-0 for a finite x and NaN otherwise: four running sums per block of 4096 (twice as fast
    // here as a test per value), and the first block whose sums are not 0 is searched value by value.
    const length = values.length;
    for (let block = 0; block < length; block += 4096) {
      const end = Math.min(block + 4096, length);
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = block;
      for (; i + 3 < end; i += 4) {
        s0 += (values[i] as number) * 0;
        s1 += (values[i + 1] as number) * 0;
        s2 += (values[i + 2] as number) * 0;
        s3 += (values[i + 3] as number) * 0;
      }
      for (; i < end; i++) s0 += (values[i] as number) * 0;
      if (s0 + s1 + s2 + s3 !== 0) {
        for (i = block; i < end; i++) {
          const x = values[i] as number;
          if (x - x !== 0) return i;
        }
      }
    }
    return -1;
  }
  for (let i = 0; i < values.length; i++) if (!finiteFloat32(values[i] as number)) return i;
  return -1;
}
export function firstBadMass(values: ArrayLike<number>): number {
  for (let i = 0; i < values.length; i++) if (!validMass(values[i] as number)) return i;
  return -1;
}
export function firstBadInverseMass(values: ArrayLike<number>): number {
  if (values instanceof Float32Array) {
    for (let i = 0; i < values.length; i++) {
      const x = values[i] as number;
      if (!(x === 0 || (x >= MIN_NORMAL && x <= FLOAT32_MAX))) return i;
    }
    return -1;
  }
  for (let i = 0; i < values.length; i++) if (!validInverseMass(values[i] as number)) return i;
  return -1;
}
export function firstBadDamping(values: ArrayLike<number>): number {
  // Already plain comparisons (NaN fails both); the same loop for every array.
  for (let i = 0; i < values.length; i++) if (!validDamping(values[i] as number)) return i;
  return -1;
}
export function firstBadRadius(values: ArrayLike<number>): number {
  if (values instanceof Float32Array) {
    for (let i = 0; i < values.length; i++) {
      const x = values[i] as number;
      if (!(x >= 0 && x <= LARGEST_RADIUS)) return i;
    }
    return -1;
  }
  for (let i = 0; i < values.length; i++) if (!validRadius(values[i] as number)) return i;
  return -1;
}
