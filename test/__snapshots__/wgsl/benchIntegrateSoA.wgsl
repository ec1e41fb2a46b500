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

// Generated from src/core/schema.ts: 8 bytes
struct StepParams {
  dt: f32, // offset 0: seconds, > 0
  count: u32, // offset 4: particles (or slots) the dispatch covers
}
// Bench only: the particle step over a structure of arrays, six buffers, one
// per attribute, vectors packed xyz (12 bytes, no padding), to compare with
// the packed vec4 records of shaders/integrate.wgsl on the same counts.
// Reads 56 bytes a particle, writes 36 (the packed layout: 64 and 48).
// Prepended: shaders/dispatch.wgsl and shaders/bench/stepMath.wgsl.

// StepParams: generated from src/gpu/passParams.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read_write> positions: array<f32>;
@group(0) @binding(1) var<storage, read_write> velocities: array<f32>;
@group(0) @binding(2) var<storage, read> accelerations: array<f32>;
@group(0) @binding(3) var<storage, read_write> forceAccums: array<f32>;
@group(0) @binding(4) var<storage, read> inverseMasses: array<f32>;
@group(0) @binding(5) var<storage, read> dampings: array<f32>;
@group(1) @binding(0) var<uniform> params: StepParams;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let index = particleIndex(invocation);
  if (index >= params.count) { return; }
  // We don't integrate things with infinite mass.
  let inverseMass = inverseMasses[index];
  if (inverseMass <= 0.0) { return; }

  let first = index * 3u;
  let stepped = stepParticle(
    vec3f(positions[first], positions[first + 1u], positions[first + 2u]),
    vec3f(velocities[first], velocities[first + 1u], velocities[first + 2u]),
    vec3f(accelerations[first], accelerations[first + 1u], accelerations[first + 2u]),
    vec3f(forceAccums[first], forceAccums[first + 1u], forceAccums[first + 2u]),
    inverseMass,
    dampings[index],
    params.dt,
  );
  positions[first] = stepped.position.x;
  positions[first + 1u] = stepped.position.y;
  positions[first + 2u] = stepped.position.z;
  velocities[first] = stepped.velocity.x;
  velocities[first + 1u] = stepped.velocity.y;
  velocities[first + 2u] = stepped.velocity.z;
  // Clear the forces.
  forceAccums[first] = 0.0;
  forceAccums[first + 1u] = 0.0;
  forceAccums[first + 2u] = 0.0;
}
