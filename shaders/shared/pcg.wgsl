// Counter-based random numbers (PCG hash), mirrored line for line by
// src/core/emitters/random.ts: every draw is a pure function of (seed,
// particle number, draw index), so the result does not depend on which
// invocation runs it, nor on the backend. The floats are exact (24 or 23
// random bits times a power of two), the same value on the CPU and the GPU.

// pcg_hash (Jarzynski and Olano, JCGT 2020): one LCG step, then PCG's
// random xorshift, multiply, xorshift.
fn pcg(v: u32) -> u32 {
  let state = v * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

fn streamKey(seed: u32, n: u32) -> u32 {
  return pcg(pcg(seed) + n);
}

fn draw(key: u32, i: u32) -> u32 {
  return pcg(key + i * 0x9e3779b9u);
}

// [0, 1)
fn uniform01(bits: u32) -> f32 {
  return f32(bits >> 8u) * 0x1p-24f;
}

// (0, 1), never 0
fn open01(bits: u32) -> f32 {
  return (f32(bits >> 9u) + 0.5) * 0x1p-23f;
}
