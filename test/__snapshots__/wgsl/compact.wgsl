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
// Generated from src/core/schema.ts: 32 bytes
struct Life {
  age: f32, // offset 0
  lifetime: f32, // offset 4
  size: f32, // offset 8
  color: u32, // offset 12
  rule: u32, // offset 16
  alive: u32, // offset 20
  generation: u32, // offset 24
  spare: u32, // offset 28
}
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
const NO_RULE: u32 = 4294967295u;
const DEAD_RADIUS: f32 = -1.0;
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

// Compaction: one invocation per live index of this step (indirect dispatch).
// With the exclusive prefix sums of (lives on, children) over the live list
// (level 0's block-local sums plus level 1's offset of the block),
// a survivor keeps its order in the other half of the live-list buffer, and
// the d-th death (d = k - survivors before it) pushes its slot onto the free
// list at free + d: every position follows from the scan, so the lists are
// the same whatever order the invocations run in. A dying particle's
// position, velocity and rule go to deaths[d] for its payload, and its slot
// is parked: immovable (the step skips inverse mass 0), at rest, and radius
// DEAD_RADIUS, which every collision pass reads as "no particle".
// Mirrored by src/core/emitters/lifecycle.ts (compact).
// Prepended: the Particle struct and accessors, the Life struct, the
// lifecycle records, shaders/dispatch.wgsl.

override CAPACITY: u32;
override HAS_PAYLOADS: bool = false;
// Where level 1's scanned block sums start in `scanned` (0: a single level,
// level 0's sums are already global). Added here rather than written back
// into level 0 by the scan: one pass over the live list fewer.
override LEVEL1_AT: u32 = 0u;
const SCAN_BLOCK: u32 = 1024u;

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<storage, read_write> life: array<Life>;
@group(1) @binding(1) var<storage, read_write> liveLists: array<u32>;
@group(1) @binding(2) var<storage, read_write> freeList: array<u32>;
@group(1) @binding(3) var<storage, read> scanned: array<vec2u>;
@group(1) @binding(4) var<storage, read_write> deaths: array<Death>;
@group(1) @binding(5) var<storage, read> counters: LifeCounters;
@group(1) @binding(6) var<storage, read_write> ruleStats: array<atomic<u32>>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let k = particleIndex(invocation);
  if (k >= counters.live) { return; }
  let parity = counters.parity;
  let slot = liveLists[parity * CAPACITY + k];
  var before = scanned[k];
  if (LEVEL1_AT != 0u) { before += scanned[LEVEL1_AT + k / SCAN_BLOCK]; }
  if (life[slot].alive == 1u) {
    liveLists[(1u - parity) * CAPACITY + before.x] = slot;
    return;
  }
  let d = k - before.x;
  freeList[counters.free + d] = slot;
  let rule = life[slot].rule;
  var p = particles[slot];
  if (HAS_PAYLOADS) {
    var death: Death;
    death.position = getPosition(p);
    death.childStart = before.y;
    death.velocity = getVelocity(p);
    death.rule = rule;
    deaths[d] = death;
  }
  setInverseMass(&p, 0.0);
  setVelocity(&p, vec3f(0.0));
  setRadius(&p, DEAD_RADIUS);
  setForceAccum(&p, vec3f(0.0));
  particles[slot] = p;
  if (rule != NO_RULE) { atomicAdd(&ruleStats[MAX_SPAWN_RULES + rule], 1u); }
}
