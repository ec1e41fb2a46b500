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

// Generated from src/core/schema.ts: 8 bytes
struct SpringParams {
  first: u32, // offset 0: the first particle with a spring
  count: u32, // offset 4: particles from first to the last one with a spring
}
// Generated from src/core/schema.ts: 16 bytes
struct SpringLink {
  restLength: f32, // offset 0
  stiffness: f32, // offset 4
  bungee: u32, // offset 8: 1: pulls only
  spare: u32, // offset 12
}
// Springs and bungees between particle pairs (Cyclone's ParticleSpring and
// ParticleBungee, both ends at once): each particle gathers the forces of its
// own springs, so no two invocations write the same accumulator, no atomics
// are needed and the sums come out the same every run.
// Mirrored line for line by src/core/forces/springForces.ts (the CPU reference).
// Prepended: the Particle struct and accessors (src/core/layout.ts) and
// shaders/dispatch.wgsl.
//
// The links in compressed sparse rows, built on the host (src/core/forces/registry.ts):
// particle first + i owns ends[offsets[i]] .. ends[offsets[i + 1]] - 1, each the
// particle at the spring's other end and the spring's index in `links`.

// SpringParams and SpringLink: generated from src/gpu/passParams.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<uniform> params: SpringParams;
@group(1) @binding(1) var<storage, read> offsets: array<u32>;
@group(1) @binding(2) var<storage, read> ends: array<vec2u>;
@group(1) @binding(3) var<storage, read> links: array<SpringLink>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let row = particleIndex(invocation);
  if (row >= params.count) { return; }
  let index = params.first + row;
  let p = particles[index];
  // Nothing for immovable particles: the step never clears their accumulator.
  if (getInverseMass(p) <= 0.0) { return; }
  let position = getPosition(p);
  var force = getForceAccum(p);
  for (var e = offsets[row]; e < offsets[row + 1u]; e++) {
    let end = ends[e];
    let link = links[end.y];
    // Another particle's position lane: this pass writes only accumulator
    // lanes, so reading it races with nothing.
    let d = position - particles[end.x].positionInverseMass.xyz;
    let length2 = dot(d, d);
    if (length2 <= 0.0) { continue; } // coincident ends: no direction, no force
    let length = sqrt(length2);
    let stretch = length - link.restLength;
    if (link.bungee != 0u && stretch <= 0.0) { continue; }
    // -k (|d| - rest) d/|d|: the other end sees -d, the same length and so
    // exactly the opposite force.
    force += d * (-link.stiffness * stretch / length);
  }
  particles[index].forceAccumSpare = vec4f(force, p.forceAccumSpare.w);
}
