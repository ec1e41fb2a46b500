/**
 * Mulberry32, a small seeded generator of floats in [0, 1): the same sequence
 * in every runtime for a seed, so the bench state, a demo's URL and a test
 * scene are each the same every time. Host-side only; the emitters draw from
 * the counter-based PCG of src/core/emitters/random.ts, which the GPU mirrors.
 */

/** Mulberry32 seeded with `seed` (taken as an unsigned 32-bit integer). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
