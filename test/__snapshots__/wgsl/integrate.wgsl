// Generated from src/core/schema.ts: 64 bytes
struct Particle {
  positionInverseMass: vec4f, // offset 0: position.xyz, inverseMass.w
  velocityDamping: vec4f, // offset 16: velocity.xyz, damping.w
  accelerationRadius: vec4f, // offset 32: acceleration.xyz, radius.w
  forceAccumSpare: vec4f, // offset 48: forceAccum.xyz
}
const LANES_PER_PARTICLE: u32 = 4u;
fn getPosition(p: Particle) -> vec3f { return p.positionInverseMass.xyz; }
fn setPosition(p: ptr<function, Particle>, value: vec3f) { (*p).positionInverseMass = vec4f(value.x, value.y, value.z, (*p).positionInverseMass.w); }
fn getInverseMass(p: Particle) -> f32 { return p.positionInverseMass.w; }
fn setInverseMass(p: ptr<function, Particle>, value: f32) { (*p).positionInverseMass = vec4f((*p).positionInverseMass.x, (*p).positionInverseMass.y, (*p).positionInverseMass.z, value); }
fn getVelocity(p: Particle) -> vec3f { return p.velocityDamping.xyz; }
fn setVelocity(p: ptr<function, Particle>, value: vec3f) { (*p).velocityDamping = vec4f(value.x, value.y, value.z, (*p).velocityDamping.w); }
fn getDamping(p: Particle) -> f32 { return p.velocityDamping.w; }
fn setDamping(p: ptr<function, Particle>, value: f32) { (*p).velocityDamping = vec4f((*p).velocityDamping.x, (*p).velocityDamping.y, (*p).velocityDamping.z, value); }
fn getAcceleration(p: Particle) -> vec3f { return p.accelerationRadius.xyz; }
fn setAcceleration(p: ptr<function, Particle>, value: vec3f) { (*p).accelerationRadius = vec4f(value.x, value.y, value.z, (*p).accelerationRadius.w); }
fn getForceAccum(p: Particle) -> vec3f { return p.forceAccumSpare.xyz; }
fn setForceAccum(p: ptr<function, Particle>, value: vec3f) { (*p).forceAccumSpare = vec4f(value.x, value.y, value.z, (*p).forceAccumSpare.w); }
fn getRadius(p: Particle) -> f32 { return p.accelerationRadius.w; }
fn setRadius(p: ptr<function, Particle>, value: f32) { (*p).accelerationRadius = vec4f((*p).accelerationRadius.x, (*p).accelerationRadius.y, (*p).accelerationRadius.z, value); }
// Shared by every per-particle pass: the workgroup size comes from TypeScript,
// and counts past 65,535 workgroups are dispatched as a 2D grid of workgroups,
// flattened back to one index here (the kernel then checks it against its count).
override WORKGROUP_SIZE: u32 = 64u;

// A kernel's entry point takes `invocation: Invocation` and asks particleIndex for its index.
struct Invocation {
  @builtin(workgroup_id) workgroup: vec3u,
  @builtin(num_workgroups) workgroups: vec3u,
  @builtin(local_invocation_index) local: u32,
}

fn flatIndex(invocation: Invocation) -> u32 {
  return (invocation.workgroup.y * invocation.workgroups.x + invocation.workgroup.x) * WORKGROUP_SIZE + invocation.local;
}

fn particleIndex(invocation: Invocation) -> u32 {
  return flatIndex(invocation);
}

// The plain step: no field forces fused in (shaders/integrateForces.wgsl is
// the other choice), so the step integrates the accumulator as the host and
// any force passes left it. Inlined away.

fn fieldForces(index: u32, position: vec3f, velocity: vec3f, inverseMass: f32, accumulated: vec3f) -> vec3f {
  return accumulated;
}

// Generated from src/core/schema.ts: 8 bytes
struct StepParams {
  dt: f32, // offset 0: seconds, > 0
  count: u32, // offset 4: particles (or slots) the dispatch covers
}
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
// 2: off
override DAMPING_MODE: u32 = 0u;

// StepParams: generated from src/gpu/passParams.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<uniform> params: StepParams;

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
  particles[index].positionInverseMass = p.positionInverseMass;
  particles[index].velocityDamping = p.velocityDamping;
  particles[index].forceAccumSpare = p.forceAccumSpare;
}
