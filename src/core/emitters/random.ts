/**
 * Counter-based random numbers: every draw is a pure function of (seed,
 * particle number, draw index), hashed with PCG, so the n-th particle of an
 * emitter gets the same numbers whichever invocation, frame or backend makes
 * it. Mirrored line for line by shaders/shared/pcg.wgsl.
 *
 * The hash is the PCG-RXS-M-XS 32-bit output function over one LCG step, as
 * recommended for GPU use by Jarzynski and Olano, "Hash Functions for GPU
 * Rendering" (JCGT 2020). The floats are exact: 24 (or 23) random bits times
 * a power of two, so the CPU and the GPU hold the very same value.
 */

/** pcg_hash(v): one LCG step, then PCG's random xorshift, multiply, xorshift. */
export function pcg(v: number): number {
  const state = (Math.imul(v >>> 0, 747796405) + 2891336453) >>> 0;
  const word = Math.imul((state >>> ((state >>> 28) + 4)) ^ state, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

/** The key of particle `n` of a stream seeded `seed`: the counter hashed into the seed's stream. */
export function streamKey(seed: number, n: number): number {
  return pcg((pcg(seed) + (n >>> 0)) >>> 0);
}

/** Draw `i` (0, 1, 2, ...) of the particle keyed `key`; golden-ratio steps keep draws of neighbouring keys apart. */
export function draw(key: number, i: number): number {
  return pcg((key + Math.imul(i, 0x9e3779b9)) >>> 0);
}

const TWO_TO_MINUS_24 = 2 ** -24;
const TWO_TO_MINUS_23 = 2 ** -23;

/** In [0, 1): the top 24 bits, exactly representable as a float32. */
export function uniform01(bits: number): number {
  return (bits >>> 8) * TWO_TO_MINUS_24;
}

/** In (0, 1), never 0 (for pow and sqrt of a share): the top 23 bits plus a half, exact as a float32. */
export function open01(bits: number): number {
  return ((bits >>> 9) + 0.5) * TWO_TO_MINUS_23;
}

/**
 * Which draw feeds which quantity, fixed for every shape and velocity mode so
 * one quantity's draw never shifts another's.
 */
export const DRAW = {
  shape0: 0,
  shape1: 1,
  shape2: 2,
  spreadAngle: 3,
  spreadTurn: 4,
  speed: 5,
  boxX: 6,
  boxY: 7,
  boxZ: 8,
  lifetime: 9,
  mass: 10,
  damping: 11,
  size: 12,
} as const;

/** The draw indices as WGSL constants (`DRAW_SHAPE0`...), generated so the two sides cannot drift. */
export function wgslDrawConstants(): string {
  const snake = (name: string) => name.replace(/([a-z])([A-Z0-9])/g, '$1_$2').toUpperCase();
  return [
    '// Generated from src/core/emitters/random.ts: which draw feeds which quantity.',
    ...Object.entries(DRAW).map(([name, i]) => `const DRAW_${snake(name)}: u32 = ${i}u;`),
  ].join('\n');
}
