// The particle step's arithmetic, shared by the bench-only layouts
// (integrateSoA.wgsl, integrateUniformAcceleration.wgsl) so they differ from
// shaders/step/integrate.wgsl only in where the state lives. The same expressions
// in the same order as integrate.wgsl and src/core/integrate.ts; the bench
// test checks each layout against the CPU reference, so a drift fails there.
override SEMI_IMPLICIT: bool = false;
// 0: per-second, 1: per-step, 2: off (as in integrate.wgsl).
override DAMPING_MODE: u32 = 0u;

fn dampingFactor(damping: f32, dt: f32) -> f32 {
  switch DAMPING_MODE {
    case 0u: { return select(pow(damping, dt), damping, damping == 0.0 || damping == 1.0); }
    case 1u: { return damping; }
    default: { return 1.0; }
  }
}

struct Stepped {
  position: vec3f,
  velocity: vec3f,
}

fn stepParticle(
  position: vec3f,
  oldVelocity: vec3f,
  acceleration: vec3f,
  forceAccum: vec3f,
  inverseMass: f32,
  damping: f32,
  dt: f32,
) -> Stepped {
  // Work out the acceleration from the force: a + f * (1/m).
  let resultingAcc = acceleration + forceAccum * inverseMass;
  // Update linear velocity from the acceleration, then impose drag.
  var velocity = oldVelocity + resultingAcc * dt;
  if (DAMPING_MODE != 2u) { velocity = velocity * dampingFactor(damping, dt); }
  // Explicit: position moves with the old velocity; semi-implicit: with the new one.
  let moveWith = select(oldVelocity, velocity, SEMI_IMPLICIT);
  return Stepped(position + moveWith * dt, velocity);
}
