/**
 * Input checks shared by the collision inputs (colliders, links, options).
 * Every refusal is a SparkworksInputError naming the value and the limit,
 * thrown before anything is changed.
 */
import { SparkworksInputError } from '../errors';
import { isFiniteFloat32 } from '../particles';

/** A refused collision input; `rule` is the limit alone, so the scene file can word it its own way. */
export class CollisionInputError extends SparkworksInputError {
  constructor(
    message: string,
    what: string,
    value: unknown,
    readonly rule: string,
  ) {
    super(message, what, value);
  }
}

export function refuse(what: string, value: unknown, rule: string): never {
  const shown =
    value === undefined
      ? 'nothing'
      : typeof value === 'object' && value !== null
        ? JSON.stringify(value)
        : String(value);
  throw new CollisionInputError(`${what} = ${shown} is invalid: ${rule}`, what, value, rule);
}

/** The rules, worded once for the API and the scene file. */
export const COLLISION_RULES = {
  vector: 'must be 3 numbers, each finite as a float32 (|x| < 3.4e38)',
  restitution: 'restitution must be in [0, 1] (the share of closing speed given back)',
  friction: 'friction must be finite and >= 0 (a Coulomb coefficient)',
  positive: 'must be finite and > 0',
  offset: 'must be finite as a float32',
  normal: 'a plane normal must be a nonzero vector (it is normalised)',
  rotation: 'rotation must be a nonzero quaternion [x, y, z, w] (it is normalised)',
  radius: 'radius must be finite and >= 0 (0: a point)',
  iterations: 'iterations must be an integer in [1, 256]',
  skin: 'skin must be finite and in [0, 1] (a distance)',
  flag: 'must be true or false',
} as const;

export function checkNumber(what: string, value: unknown, ok: (x: number) => boolean, rule: string): number {
  if (typeof value !== 'number' || !ok(value)) refuse(what, value, rule);
  return value;
}

export const isFinite32 = (x: number): boolean => isFiniteFloat32(x);
export const isUnitInterval = (x: number): boolean => x >= 0 && x <= 1;
export const isPositiveFinite32 = (x: number): boolean => isFiniteFloat32(x) && Math.fround(x) > 0;
export const isNonNegativeFinite32 = (x: number): boolean => isFiniteFloat32(x) && x >= 0;

export function checkVec3(what: string, value: unknown, length = 3): number[] {
  const v = value as ArrayLike<number> | undefined;
  if (v === null || typeof v !== 'object' || typeof v.length !== 'number' || v.length !== length) {
    refuse(what, value, COLLISION_RULES.vector.replace('3', String(length)));
  }
  const out: number[] = [];
  for (let c = 0; c < length; c++) {
    const x = v[c];
    if (typeof x !== 'number' || !isFiniteFloat32(x)) refuse(`${what}[${c}]`, x, COLLISION_RULES.vector);
    out.push(x);
  }
  return out;
}

export function checkFlag(what: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') refuse(what, value, COLLISION_RULES.flag);
  return value;
}

export function checkObject(what: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) refuse(what, value, 'must be an object');
  return value as Record<string, unknown>;
}

/** Refuses keys outside `known`, so a typo ("restitusion") is not silently ignored. */
export function checkKeys(what: string, value: Record<string, unknown>, known: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) refuse(`${what}.${key}`, value[key], `unknown field (known: ${known.join(', ')})`);
  }
}
