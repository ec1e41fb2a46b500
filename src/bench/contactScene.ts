/**
 * The particle-contact benchmark's scene, shared by `npm run bench:collisions`,
 * its per-pass profile and the bench's contacts case: a cube of balls dense
 * enough that each has about two others in reach, under gravity.
 */
import type { ParticleInit } from '../core/particles';

export const CONTACT_RADIUS = 0.01;
/** Two others in reach (centres within 2r) on average: n (4/3) pi (2r)^3 / V = 2. */
export const CONTACT_NEIGHBOURS = 2;

/** A deterministic cube of balls (a linear congruential generator, so the scene does not depend on Math.random). */
export function contactCube(count: number): ParticleInit[] {
  const side = Math.cbrt((count * (4 / 3) * Math.PI * (2 * CONTACT_RADIUS) ** 3) / CONTACT_NEIGHBOURS);
  let seed = 12345;
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  return Array.from({ length: count }, () => ({
    position: [random() * side, random() * side, random() * side],
    velocity: [random() - 0.5, random() - 0.5, random() - 0.5],
    acceleration: [0, -9.81, 0],
    radius: CONTACT_RADIUS,
  }));
}
