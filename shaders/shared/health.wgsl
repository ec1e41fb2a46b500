// Particles whose state becomes non-finite (src/core/nonFinite.ts; the CPU
// twin is noteNonFinite in src/core/integrate.ts): counted in `health`, an
// array<atomic<u32>, HEALTH_WORDS> that the including pass declares, and
// parked when the policy says so. Only a particle that went bad reads the
// policy, so the cost for the others is the finiteness test alone.
// Prepended: the HEALTH_* constants generated from src/core/nonFinite.ts.

// Policy `off` compiles the test out (src/gpu/shared/health.ts).
override CHECK_FINITE: bool = true;

// NaN and the infinities are the floats whose exponent bits are all ones: a
// test on the bits, which no floating-point optimisation can fold away. The
// largest exponent field of the six values is all ones exactly when one of
// them is not finite (one comparison, not six).
const EXPONENT_BITS: u32 = 0x7f800000u;

fn isFiniteState(position: vec3f, velocity: vec3f) -> bool {
  let exponents = max(bitcast<vec3u>(position) & vec3u(EXPONENT_BITS), bitcast<vec3u>(velocity) & vec3u(EXPONENT_BITS));
  return max(max(exponents.x, exponents.y), exponents.z) != EXPONENT_BITS;
}

fn isFiniteVec3(v: vec3f) -> bool {
  return isFiniteState(v, vec3f(0.0));
}

// Particle `index`, as the pass stored it, went from finite to non-finite:
// counted (the first one counted is kept as firstIndex), and with policy
// `park` made immovable, collision-free and at rest where it is. The pass's
// particle store is read and written here; the CPU twin is noteNonFinite in
// src/core/integrate.ts.
fn noteNonFinite(index: u32) {
  let before = atomicAdd(&health[HEALTH_NON_FINITE], 1u);
  if (before == 0u) { atomicStore(&health[HEALTH_FIRST_INDEX], index); }
  if (atomicLoad(&health[HEALTH_POLICY]) == HEALTH_POLICY_PARK) {
    storePositionInverseMassW(index, 0.0);
    storeVelocityDamping(index, vec4f(vec3f(0.0), particleVelocityDampingW(index)));
    storeAccelerationRadiusW(index, HEALTH_PARKED_RADIUS);
  }
}
