// One step of Cyclone's Particle::integrate per invocation.
// Mirrored line for line by src/core/integrate.ts (the CPU reference).
// Prepended: the Particle struct and accessors generated from src/core/layout.ts,
// shaders/dispatch.wgsl, and `fieldForces`: shaders/noFieldForces.wgsl, or the
// registry's generators fused into the step (shaders/integrateForces.wgsl).

// Variants are fixed per pipeline, so every branch on them is uniform and
// compiled away: no per-particle branching on the variant.
override SEMI_IMPLICIT: bool = false;
// 0: per-second, v *= pow(damping, dt) (Millington eq. 3.6)
// 1: per-step,   v *= damping          (eq. 3.5)
// Either as Cyclone's code does it, v = (v + a dt) k, not the book's printed
// v d + a t (docs/step.md).
// 2: off
override DAMPING_MODE: u32 = 0u;

// StepParams: generated from src/gpu/passParams.ts (the schema) and prepended;
// so is shaders/health.wgsl, whose counters are `health`.
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<uniform> params: StepParams;
@group(1) @binding(1) var<storage, read_write> health: array<atomic<u32>, HEALTH_WORDS>;

fn dampingFactor(damping: f32, dt: f32) -> f32 {
  switch DAMPING_MODE {
    // pow(0, dt) = 0 and pow(1, dt) = 1 exactly; a GPU pow is exp2(dt * log2(d))
    // and need not hit them, and log2(0) is outside its domain.
    case 0u: { return select(pow(damping, dt), damping, damping == 0.0 || damping == 1.0); }
    case 1u: { return damping; }
    default: { return 1.0; }
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let index = particleIndex(invocation);
  if (index >= params.count) { return; }
  var p = particles[index];

  // We don't integrate things with infinite mass.
  let inverseMass = getInverseMass(p);
  if (inverseMass <= 0.0) { return; }

  let dt = params.dt;
  let oldVelocity = getVelocity(p);
  let oldPosition = getPosition(p);
  // The accumulator, plus the field forces when they are fused into the step.
  let forceAccum = fieldForces(index, getPosition(p), oldVelocity, inverseMass, getForceAccum(p));
  // Work out the acceleration from the force: a + f * (1/m).
  let resultingAcc = getAcceleration(p) + forceAccum * inverseMass;
  // Update linear velocity from the acceleration, then impose drag.
  var velocity = oldVelocity + resultingAcc * dt;
  if (DAMPING_MODE != 2u) { velocity = velocity * dampingFactor(getDamping(p), dt); }
  // Explicit (Cyclone, Lander): position moves with the old velocity.
  // Semi-implicit (Bourg): with the new one.
  let moveWith = select(oldVelocity, velocity, SEMI_IMPLICIT);
  setPosition(&p, getPosition(p) + moveWith * dt);
  setVelocity(&p, velocity);
  // Clear the forces.
  setForceAccum(&p, vec3f(0.0));
  // Store only the lanes the step changes: the acceleration lane is read-only
  // here (measured ~10% faster on SwiftShader than storing the whole struct).
  // Lanes are named after what they hold, so a layout change that moves these
  // attributes renames the lanes and this fails to compile rather than drift.
  // Went from finite to NaN or infinity in this step: worked out without a
  // branch (`&`, not `&&`), the rare branch placed after the stores, where
  // nothing else is live (a branch before them cost the software adapter more
  // than half a step).
  let wentBad = CHECK_FINITE && (!isFiniteState(getPosition(p), velocity) & isFiniteState(oldPosition, oldVelocity));
  particles[index].positionInverseMass = p.positionInverseMass;
  particles[index].velocityDamping = p.velocityDamping;
  particles[index].forceAccumSpare = p.forceAccumSpare;
  // Counted, and parked (immovable, collision-free, at rest) when the policy says so.
  if (wentBad) { noteNonFinite(index); }
}
