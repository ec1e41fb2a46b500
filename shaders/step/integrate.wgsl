// One step of Cyclone's Particle::integrate per invocation.
// Mirrored line for line by src/core/integrate.ts (the CPU reference).
// Prepended: the Particle struct and accessors generated from src/core/layout.ts,
// shaders/shared/dispatch.wgsl, and `fieldForces`: shaders/forces/noFieldForces.wgsl, or the
// registry's generators fused into the step (shaders/forces/integrateForces.wgsl).

// Variants are fixed per pipeline, so every branch on them is uniform and
// compiled away: no per-particle branching on the variant.
override SEMI_IMPLICIT: bool = false;
// 0: per-second, v *= pow(damping, dt) (Millington eq. 3.6)
// 1: per-step,   v *= damping          (eq. 3.5)
// Either as Cyclone's code does it, v = (v + a dt) k, not the book's printed
// v d + a t (docs/step.md).
// 2: off
override DAMPING_MODE: u32 = 0u;
// False when every movable particle's acceleration holds +0 (gravity from
// the registry), and its radius too when colliders are fused in: the
// acceleration|radius lane is not read and the +0 it holds is used instead
// (ParticleSystem knows from what it wrote). A pipeline, not a uniform: it
// changes only with writes.
override ACCELERATION_LANE: bool = true;

// Fused with the ageing over the live list (set by src/gpu/step/liveIntegratePass.ts
// for shaders/step/liveAge.wgsl): the step keeps what it leaves of position.y and
// the radius for the death test, which then reads neither lane again; the
// acceleration|radius lane is loaded before an immovable particle returns, so
// its radius is kept too.
override AGED_AFTER: bool = false;
var<private> leftPositionY: f32;
var<private> leftRadius: f32;

// StepParams: generated from src/shaders/params.ts (the schema) and prepended;
// so is shaders/shared/health.wgsl, whose counters are `health`.
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

// The entry point is the composition's: shaders/step/stepEntry.wgsl alone, or
// shaders/step/liveAge.wgsl, which ages the particle after it.
fn stepParticle(invocation: Invocation) {
  let index = particleIndex(invocation);
  if (index >= params.count) { return; }
  // Each lane loaded only where it is used: what a GPU pays is the bytes moved.
  let positionInverseMass = particlePositionInverseMass(index);

  // We don't integrate things with infinite mass.
  let inverseMass = positionInverseMass.w;
  var accelerationRadius = vec4f(0.0);
  if (AGED_AFTER) {
    if (ACCELERATION_LANE) { accelerationRadius = particleAccelerationRadius(index); }
    leftPositionY = positionInverseMass.y;
    leftRadius = accelerationRadius.w;
  }
  if (inverseMass <= 0.0) { return; }
  let velocityDamping = particleVelocityDamping(index);
  if (ACCELERATION_LANE & !AGED_AFTER) { accelerationRadius = particleAccelerationRadius(index); }
  // With params.forceAccumulator 0 nothing wrote an accumulator since the last
  // step cleared them (src/gpu/particleSystem.ts knows): it holds zeros, so it
  // is neither read nor cleared, and the step adds the same zero it would have
  // read. A uniform branch, not a pipeline: no compile when that changes.
  let forceAccumulator = params.forceAccumulator != 0u;
  var accumulated = vec3f(0.0);
  var spare = 0.0;
  if (forceAccumulator) {
    let forceAccumSpare = particleForceAccumSpare(index);
    accumulated = forceAccumSpare.xyz;
    spare = forceAccumSpare.w;
  }

  let dt = params.dt;
  let oldVelocity = velocityDamping.xyz;
  let oldPosition = positionInverseMass.xyz;
  let acceleration = accelerationRadius.xyz;
  // The accumulator, plus the field forces when they are fused into the step.
  let forceAccum = fieldForces(index, oldPosition, oldVelocity, inverseMass, accumulated);
  // Work out the acceleration from the force: a + f * (1/m).
  let resultingAcc = acceleration + forceAccum * inverseMass;
  // Update linear velocity from the acceleration, then impose drag.
  var velocity = oldVelocity + resultingAcc * dt;
  if (DAMPING_MODE != 2u) { velocity = velocity * dampingFactor(velocityDamping.w, dt); }
  // Explicit (Cyclone, Lander): position moves with the old velocity.
  // Semi-implicit (Bourg): with the new one.
  let moveWith = select(oldVelocity, velocity, SEMI_IMPLICIT);
  let position = oldPosition + moveWith * dt;
  // The colliders when they are fused into the step (shaders/collisions/fusedColliders.wgsl),
  // from where the step left the particle, as the colliders pass would see it.
  var collided = position;
  var collidedVelocity = velocity;
  let killed = worldColliders(&collided, &collidedVelocity, acceleration, accelerationRadius.w, dt);
  // Went from finite to NaN or infinity in this step (in the step itself, or
  // in a contact after it, as the colliders pass counts it): worked out
  // without a branch (`&`, not `&&`), the rare branch placed after the stores,
  // where nothing else is live (a branch before them cost the software adapter
  // more than half a step).
  let steppedFinite = isFiniteState(position, velocity);
  let collidedBad = WORLD_COLLIDERS && !isFiniteState(collided, select(collidedVelocity, vec3f(0.0), killed));
  let wentBad = CHECK_FINITE && ((!steppedFinite | collidedBad) & isFiniteState(oldPosition, oldVelocity));
  // Store only the lanes the step changes: the acceleration lane is read-only
  // here (measured ~10% faster on SwiftShader than storing the whole struct).
  // A killed particle: immovable, at rest where it touched, "no particle".
  storePositionInverseMass(index, vec4f(collided, select(inverseMass, 0.0, killed)));
  storeVelocityDamping(index, vec4f(select(collidedVelocity, vec3f(0.0), killed), velocityDamping.w));
  // Clear the forces.
  if (forceAccumulator) { storeForceAccumSpare(index, vec4f(vec3f(0.0), spare)); }
  if (killed) { storeAccelerationRadiusW(index, DEAD_RADIUS); }
  if (AGED_AFTER) {
    leftPositionY = collided.y;
    leftRadius = select(accelerationRadius.w, DEAD_RADIUS, killed);
  }
  if (wentBad) {
    // Parked by the step, a particle is skipped by the colliders pass: it stays where the step left it.
    if (WORLD_COLLIDERS && !steppedFinite && atomicLoad(&health[HEALTH_POLICY]) == HEALTH_POLICY_PARK) {
      storePositionInverseMass(index, vec4f(position, inverseMass));
      // Nor does the colliders pass touch it (shaders/step/liveAge.wgsl reads this).
      worldTouched = false;
    }
    // Counted, and parked (immovable, collision-free, at rest) when the policy says so.
    noteNonFinite(index);
    // What the parking left, for the ageing.
    if (AGED_AFTER) {
      leftPositionY = particlePositionInverseMassY(index);
      leftRadius = particleAccelerationRadiusW(index);
    }
  }
}
