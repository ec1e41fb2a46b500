/**
 * Input checks shared by the collision inputs (colliders, links, options):
 * the shared vocabulary (src/core/validation.ts) throwing SparkworksInputError,
 * which names the value and the limit, before anything is changed.
 */
import { SparkworksInputError } from '../errors';
import { isFiniteFloat32, validator, type Validator } from '../validation';

/** The collisions' refusals: SparkworksInputError, in the shared wording (src/core/validation.ts). */
export const check: Validator = validator();

export function refuse(what: string, value: unknown, rule: string): never {
  return check.refuse(what, value, rule);
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

export const isFinite32 = (x: number): boolean => isFiniteFloat32(x);
export const isUnitInterval = (x: number): boolean => x >= 0 && x <= 1;
export const isPositiveFinite32 = (x: number): boolean => isFiniteFloat32(x) && Math.fround(x) > 0;
export const isNonNegativeFinite32 = (x: number): boolean => isFiniteFloat32(x) && x >= 0;

/** `length` numbers, each finite as a float32. */
export function checkVec3(what: string, value: unknown, length = 3): number[] {
  const rule = COLLISION_RULES.vector.replace('3', String(length));
  return check.vector(what, value, rule, { length, componentRule: COLLISION_RULES.vector });
}

export function checkFlag(what: string, value: unknown): boolean {
  return check.flag(what, value, COLLISION_RULES.flag);
}

export function checkObject(what: string, value: unknown): Record<string, unknown> {
  return check.object(what, value);
}

/** Refuses keys outside `known`, so a typo ("restitusion") is not silently ignored. */
export function checkKeys(what: string, value: Record<string, unknown>, known: readonly string[]): void {
  check.keys(what, value, known);
}
