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

// The particle step's arithmetic, shared by the bench-only layouts
// (integrateSoA.wgsl, integrateUniformAcceleration.wgsl) so they differ from
// shaders/integrate.wgsl only in where the state lives. The same expressions
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

// Generated from src/core/schema.ts: 32 bytes
struct UniformStepParams {
  acceleration: vec3f, // offset 0
  dt: f32, // offset 12
  count: u32, // offset 16
}
// Bench only: the packed-record step with one acceleration for every particle,
// read from the uniform instead of each particle's acceleration lane, to
// measure what the per-particle lane costs. Reads 48 bytes a particle (three
// lanes), writes 48.
// Prepended: the Particle struct and accessors from src/core/layout.ts,
// shaders/dispatch.wgsl and shaders/bench/stepMath.wgsl.

// UniformStepParams: generated from src/gpu/passParams.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<uniform> params: UniformStepParams;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let index = particleIndex(invocation);
  if (index >= params.count) { return; }
  // Load only the lanes this step reads: never the acceleration lane.
  var p: Particle;
  p.positionInverseMass = particles[index].positionInverseMass;
  p.velocityDamping = particles[index].velocityDamping;
  p.forceAccumSpare = particles[index].forceAccumSpare;

  // We don't integrate things with infinite mass.
  let inverseMass = getInverseMass(p);
  if (inverseMass <= 0.0) { return; }

  let stepped = stepParticle(
    getPosition(p),
    getVelocity(p),
    params.acceleration,
    getForceAccum(p),
    inverseMass,
    getDamping(p),
    params.dt,
  );
  setPosition(&p, stepped.position);
  setVelocity(&p, stepped.velocity);
  // Clear the forces.
  setForceAccum(&p, vec3f(0.0));
  particles[index].positionInverseMass = p.positionInverseMass;
  particles[index].velocityDamping = p.velocityDamping;
  particles[index].forceAccumSpare = p.forceAccumSpare;
}
