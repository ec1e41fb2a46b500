/**
 * The emitters' refusals and the checks of values that recur across their
 * fields: vectors, directions, ranges (`x` or `[min, max]`) and colours, each
 * refusal naming the value and the limit it broke.
 */
import { RULES } from '../particles';
import { validator, type Validator } from '../validation';

/** The emitters' refusals: SparkworksInputError, in the shared wording (src/core/validation.ts). */
export const check: Validator = validator();

export type Vec3 = [number, number, number];

export function checkVector(what: string, value: unknown): Vec3 {
  return check.vector(what, value, 'must be 3 finite numbers [x, y, z]', { componentRule: RULES.vector }) as Vec3;
}

/** A unit vector from a non-zero one, normalised in float64. */
export function checkDirection(what: string, value: unknown): Vec3 {
  const v = checkVector(what, value);
  const length = Math.hypot(...v);
  if (!(length > 1e-30)) check.refuse(what, value, 'must be a non-zero direction');
  return [v[0] / length, v[1] / length, v[2] / length];
}

export interface Range {
  min: number;
  max: number;
}

/** `x` or `[min, max]`, each value finite and passing `ok`, min <= max. */
export function checkRange(what: string, value: unknown, rule: string, ok: (x: number) => boolean): Range {
  if (typeof value === 'number') {
    check.finite(what, value, rule, ok);
    return { min: value, max: value };
  }
  if (!Array.isArray(value) || value.length !== 2)
    check.refuse(what, value, `must be a number or [min, max] (${rule})`);
  const min = check.finite(`${what}[0]`, value[0], rule, ok);
  const max = check.finite(`${what}[1]`, value[1], rule, ok);
  if (min > max) check.refuse(what, value, `an empty range: min ${min} > max ${max}`);
  return { min, max };
}

/** An orthonormal basis (x, y) across the unit `z`, right-handed: Duff et al., "Building an Orthonormal Basis, Revisited" (JCGT 2017). */
export function basisAcross(z: readonly number[]): [number[], number[]] {
  const [nx, ny, nz] = z as [number, number, number];
  const sign = nz >= 0 ? 1 : -1;
  const a = -1 / (sign + nz);
  const b = nx * ny * a;
  return [
    [1 + sign * nx * nx * a, sign * b, -sign * nx],
    [b, sign + ny * ny * a, -ny],
  ];
}

/** rgba8 as WGSL's pack4x8unorm packs it: floor(0.5 + 255 * clamp(c, 0, 1)), r in the low byte. */
export function packColor(what: string, value: unknown): number {
  const c = value as ArrayLike<unknown> | null | undefined;
  if (c === null || typeof c !== 'object' || typeof c.length !== 'number' || (c.length !== 3 && c.length !== 4)) {
    check.refuse(what, value, 'must be [r, g, b] or [r, g, b, a], each in [0, 1]');
  }
  let packed = 0;
  for (let i = 0; i < 4; i++) {
    const x = i < c.length ? check.finite(`${what}[${i}]`, c[i], 'must be in [0, 1]', (v) => v >= 0 && v <= 1) : 1;
    packed |= Math.floor(0.5 + 255 * x) << (8 * i);
  }
  return packed >>> 0;
}
