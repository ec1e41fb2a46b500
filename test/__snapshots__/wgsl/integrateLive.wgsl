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
// Generated from src/core/emitters: 272 bytes a record.
struct SpawnRule {
  shapeX: vec3f, // offset 0
  shape: u32, // offset 12
  shapeY: vec3f, // offset 16
  radius: f32, // offset 28
  shapeZ: vec3f, // offset 32
  height: f32, // offset 44
  halfExtents: vec3f, // offset 48
  tanAngle: f32, // offset 60
  velocityX: vec3f, // offset 64
  velocityMode: u32, // offset 76
  velocityY: vec3f, // offset 80
  oneMinusCosSpread: f32, // offset 92
  velocityZ: vec3f, // offset 96
  speedMin: f32, // offset 108
  boxMin: vec3f, // offset 112
  speedSpan: f32, // offset 124
  boxSpan: vec3f, // offset 128
  speedMax: f32, // offset 140
  boxMax: vec3f, // offset 144
  inherit: f32, // offset 156
  acceleration: vec3f, // offset 160
  collisionRadius: f32, // offset 172
  lifetimeMin: f32, // offset 176
  lifetimeSpan: f32, // offset 180
  lifetimeMax: f32, // offset 184
  massMin: f32, // offset 188
  massSpan: f32, // offset 192
  massMax: f32, // offset 196
  dampingMin: f32, // offset 200
  dampingSpan: f32, // offset 204
  dampingMax: f32, // offset 208
  sizeMin: f32, // offset 212
  sizeSpan: f32, // offset 216
  sizeMax: f32, // offset 220
  color: u32, // offset 224
  seed: u32, // offset 228
  tag: u32, // offset 232
  floor: f32, // offset 236
  payloadRules: vec4u, // offset 240
  payloadCounts: vec4u, // offset 256
}
// Generated from src/core/emitters: 48 bytes a record.
struct EmitterFrame {
  center: vec3f, // offset 0
  incrementWhole: u32, // offset 12
  velocity: vec3f, // offset 16
  incrementFraction: u32, // offset 28
  burstTotal: u32, // offset 32
  pad0: u32, // offset 36
  pad1: u32, // offset 40
  pad2: u32, // offset 44
}
// Generated from src/core/emitters: 1552 bytes a record.
struct FrameParams {
  dt: f32, // offset 0
  emitterCount: u32, // offset 4
  pad0: u32, // offset 8
  pad1: u32, // offset 12
  emitters: array<EmitterFrame, 32>, // offset 16
}
// Generated from src/core/emitters: 32 bytes a record.
struct EmitterState {
  carry: u32, // offset 0
  sequence: u32, // offset 4
  burstServed: u32, // offset 8
  requests: u32, // offset 12
  start: u32, // offset 16
  sequenceBase: u32, // offset 20
  pad0: u32, // offset 24
  pad1: u32, // offset 28
}
// Generated from src/core/emitters: 1120 bytes a record.
struct LifeCounters {
  live: u32, // offset 0
  free: u32, // offset 4
  parity: u32, // offset 8
  steps: u32, // offset 12
  emitted: vec2u, // offset 16
  killed: vec2u, // offset 24
  shortfall: vec2u, // offset 32
  childSequence: u32, // offset 40
  childRequests: u32, // offset 44
  hostRequests: u32, // offset 48
  granted: u32, // offset 52
  freeTop: u32, // offset 56
  liveBase: u32, // offset 60
  deaths: u32, // offset 64
  childSequenceBase: u32, // offset 68
  pad0: u32, // offset 72
  pad1: u32, // offset 76
  pad2: u32, // offset 80
  pad3: u32, // offset 84
  pad4: u32, // offset 88
  pad5: u32, // offset 92
  emitters: array<EmitterState, 32>, // offset 96
}
// Generated from src/core/emitters: 32 bytes a record.
struct Death {
  position: vec3f, // offset 0
  childStart: u32, // offset 12
  velocity: vec3f, // offset 16
  rule: u32, // offset 28
}
const MAX_EMITTERS: u32 = 32u;
const MAX_SPAWN_RULES: u32 = 64u;
const MAX_PAYLOADS: u32 = 4u;
const SHAPE_POINT: u32 = 0u;
const SHAPE_SPHERE: u32 = 1u;
const SHAPE_SPHERESURFACE: u32 = 2u;
const SHAPE_BOX: u32 = 3u;
const SHAPE_DISC: u32 = 4u;
const SHAPE_CONE: u32 = 5u;
const VELOCITY_CONE: u32 = 0u;
const VELOCITY_BOX: u32 = 1u;
// The live-list twin of shaders/dispatch.wgsl: composed in its place, it
// turns any per-particle pass (the step, the forces) into a pass over the
// live particles only. Invocation k of an indirect dispatch sized by the
// live count (planStep) gets the k-th live slot; past the live count it gets
// NO_PARTICLE, which every kernel's `index >= count` guard rejects (the
// kernels' count is the capacity). The pass itself is unchanged.
override WORKGROUP_SIZE: u32 = 64u;
override CAPACITY: u32;

const NO_PARTICLE: u32 = 0xffffffffu;

// Group 2 of a live pass: the live lists (two halves) and the counters (live count, parity).
@group(2) @binding(0) var<storage, read> liveLists: array<u32>;
@group(2) @binding(1) var<storage, read> liveCounters: LifeCounters;

// As in shaders/dispatch.wgsl, which this replaces.
struct Invocation {
  @builtin(workgroup_id) workgroup: vec3u,
  @builtin(num_workgroups) workgroups: vec3u,
  @builtin(local_invocation_index) local: u32,
}

fn particleIndex(invocation: Invocation) -> u32 {
  let k = (invocation.workgroup.y * invocation.workgroups.x + invocation.workgroup.x) * WORKGROUP_SIZE + invocation.local;
  if (k >= liveCounters.live) { return NO_PARTICLE; }
  return liveLists[liveCounters.parity * CAPACITY + k];
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
