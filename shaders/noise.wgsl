// Curl noise for the turbulence generator (Bridson et al., "Curl-Noise for
// Procedural Fluid Flow", 2007): the curl of a vector potential ψ = (n0, n1, n2)
// is divergence-free. Each n_k is a value noise with the quintic fade: the
// trilinear blend of random values at the 8 corners of the lattice cell.
// Its derivatives are analytic (differences of corner values blended along
// the other two axes, times the fade's derivative), so div(curl ψ) = 0 holds
// up to rounding, not up to a finite-difference step.
// Mirrored line for line by src/core/forces/noise.ts.
//
// Value noise rather than gradient noise: on the software adapter the whole
// field costs about 2.5 times less (one hash and no dot products a corner),
// at the price of derivatives that vanish on the lattice planes.

// Jarzynski and Olano's PCG hash ("Hash Functions for GPU Rendering", 2020):
// integer multiplies and shifts only, so the CPU twin agrees bit for bit.
fn pcgHash(input: u32) -> u32 {
  let state = input * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

// A lattice point's hash input: a wrapping linear mix of its coordinates
// plus the seed's key, so the 8 corners of a cell cost one add each.
const LATTICE_X: u32 = 0x8da6b343u;
const LATTICE_Y: u32 = 0xd8163841u;
const LATTICE_Z: u32 = 0xcb1ab31fu;

// The three fields' values at a corner: ten bits of its hash each, in [0, 1023]
// (exact in float32; only differences of them are ever used).
fn cornerValues(h: u32) -> vec3f {
  return vec3f(f32(h & 1023u), f32((h >> 10u) & 1023u), f32((h >> 20u) & 1023u));
}

// Quintic fade 6t^5 - 15t^4 + 10t^3 (Perlin 2002): the noise is C2, its
// derivatives, and so the curl, continuous across cells.
fn fade(t: vec3f) -> vec3f {
  return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}
fn fadeDerivative(t: vec3f) -> vec3f {
  return 30.0 * t * t * (t * (t - 2.0) + 1.0);
}

fn lerp3(a: vec3f, b: vec3f, t: f32) -> vec3f {
  return a + (b - a) * t;
}

// curl(n0, n1, n2) at q (lattice units), each n_k = (trilinear blend of the
// values) / 512, about unit size: components up to 7.5, typically ~1.
fn curlNoise(q: vec3f, key: u32) -> vec3f {
  let cell = floor(q);
  let f = q - cell;
  let i = bitcast<vec3u>(vec3i(cell));
  let u = fade(f);
  let du = fadeDerivative(f);
  let base = i.x * LATTICE_X + i.y * LATTICE_Y + i.z * LATTICE_Z + key;
  let v000 = cornerValues(pcgHash(base));
  let v100 = cornerValues(pcgHash(base + LATTICE_X));
  let v010 = cornerValues(pcgHash(base + LATTICE_Y));
  let v110 = cornerValues(pcgHash(base + LATTICE_X + LATTICE_Y));
  let v001 = cornerValues(pcgHash(base + LATTICE_Z));
  let v101 = cornerValues(pcgHash(base + LATTICE_X + LATTICE_Z));
  let v011 = cornerValues(pcgHash(base + LATTICE_Y + LATTICE_Z));
  let v111 = cornerValues(pcgHash(base + LATTICE_X + LATTICE_Y + LATTICE_Z));
  // Component k of dx is ∂n_k/∂x: the x-differences blended over y and z.
  let dx = lerp3(lerp3(v100 - v000, v110 - v010, u.y), lerp3(v101 - v001, v111 - v011, u.y), u.z) * du.x;
  let dy = lerp3(lerp3(v010 - v000, v110 - v100, u.x), lerp3(v011 - v001, v111 - v101, u.x), u.z) * du.y;
  let dz = lerp3(lerp3(v001 - v000, v101 - v100, u.x), lerp3(v011 - v010, v111 - v110, u.x), u.y) * du.z;
  // curl ψ = (∂n2/∂y - ∂n1/∂z, ∂n0/∂z - ∂n2/∂x, ∂n1/∂x - ∂n0/∂y)
  return vec3f(dy.z - dz.y, dz.x - dx.z, dx.y - dy.x) * 0.001953125;
}
