/**
 * The rules a particle's values obey, worded once for every caller (the API,
 * the scene file, the CLI, the emitters): the predicates, and the float32
 * limits they stand on.
 */
import { isFiniteFloat32 } from '../validation';

/** The smallest normal float32. GPUs may flush anything smaller to zero. */
export const FLOAT32_MIN_NORMAL = 2 ** -126;

export { isFiniteFloat32 };
/** isFiniteFloat32 as a binding of this module, for the predicates in loops (see STRIDE in particleArrays.ts for why). */
const finiteFloat32 = isFiniteFloat32;

/**
 * A stored inverse mass is 0 (immovable) or a normal float32: a subnormal one
 * would be flushed to 0 by some GPUs and not by the CPU reference, so the two
 * would disagree on whether the particle moves.
 */
export function isValidInverseMass(inverseMass: number): boolean {
  if (typeof inverseMass !== 'number' || !finiteFloat32(inverseMass)) return false;
  const stored = Math.fround(inverseMass);
  return stored === 0 || stored >= FLOAT32_MIN_NORMAL;
}
export function isValidMass(mass: number): boolean {
  return (
    typeof mass === 'number' &&
    Number.isFinite(mass) &&
    mass > 0 &&
    Math.fround(1 / mass) >= FLOAT32_MIN_NORMAL &&
    finiteFloat32(1 / mass)
  );
}
/**
 * A damping in [0, 1] whose float32 is 0 or normal: a subnormal one is
 * flushed to 0 by some GPUs (SwiftShader) and not by the CPU reference, and
 * per-second damping keeps d^dt, about a fifth of the velocity a step at 1/60 s
 * for d = 1e-40 against none: the backends would disagree (as for dt).
 */
export function isValidDamping(damping: number): boolean {
  if (typeof damping !== 'number' || !(damping >= 0 && damping <= 1)) return false;
  const stored = Math.fround(damping);
  return stored === 0 || stored >= FLOAT32_MIN_NORMAL;
}
/**
 * The largest collision radius, 2^62 (about 4.6e18 m): the contact tests
 * square the reach of two particles, (2 r + skin)², which must stay finite in
 * float32 (a radius of 3e38 with particle collisions made NaN; issue 17).
 */
export const MAX_RADIUS = 2 ** 62;

/** A collision radius: finite, >= 0 and at most MAX_RADIUS (negative radii mark killed particles, set only by a kill collider). */
export function isValidRadius(radius: number): boolean {
  return typeof radius === 'number' && radius >= 0 && radius <= MAX_RADIUS;
}

/** The rules, worded once for every caller (the API, the scene file, the CLI). */
export const RULES = {
  mass: 'mass must be finite and > 0, with 1/mass a normal float32 (mass in (0, 8.5e37]); an immovable particle has inverseMass 0',
  inverseMass: 'inverseMass must be 0 or a normal float32 in [1.18e-38, 3.4e38]',
  damping:
    'damping must be in [0, 1] (the share of velocity kept), 0 or at least 1.18e-38 (a normal float32: a GPU may flush a subnormal one to 0)',
  radius: 'radius must be finite and >= 0 (0: a point), at most 4.6e18 (2^62: squared contact distances stay finite)',
  vector: 'must be finite as a float32 (|x| < 3.4e38)',
} as const;
