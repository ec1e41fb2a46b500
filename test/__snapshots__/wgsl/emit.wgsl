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

// Counter-based random numbers (PCG hash), mirrored line for line by
// src/core/emitters/random.ts: every draw is a pure function of (seed,
// particle number, draw index), so the result does not depend on which
// invocation runs it, nor on the backend. The floats are exact (24 or 23
// random bits times a power of two), the same value on the CPU and the GPU.

// pcg_hash (Jarzynski and Olano, JCGT 2020): one LCG step, then PCG's
// random xorshift, multiply, xorshift.
fn pcg(v: u32) -> u32 {
  let state = v * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

fn streamKey(seed: u32, n: u32) -> u32 {
  return pcg(pcg(seed) + n);
}

fn draw(key: u32, i: u32) -> u32 {
  return pcg(key + i * 0x9e3779b9u);
}

// [0, 1)
fn uniform01(bits: u32) -> f32 {
  return f32(bits >> 8u) * 0x1p-24f;
}

// (0, 1), never 0
fn open01(bits: u32) -> f32 {
  return (f32(bits >> 9u) + 0.5) * 0x1p-23f;
}

// Generated from src/core/emitters/random.ts: which draw feeds which quantity.
const DRAW_SHAPE_0: u32 = 0u;
const DRAW_SHAPE_1: u32 = 1u;
const DRAW_SHAPE_2: u32 = 2u;
const DRAW_SPREAD_ANGLE: u32 = 3u;
const DRAW_SPREAD_TURN: u32 = 4u;
const DRAW_SPEED: u32 = 5u;
const DRAW_BOX_X: u32 = 6u;
const DRAW_BOX_Y: u32 = 7u;
const DRAW_BOX_Z: u32 = 8u;
const DRAW_LIFETIME: u32 = 9u;
const DRAW_MASS: u32 = 10u;
const DRAW_DAMPING: u32 = 11u;
const DRAW_SIZE: u32 = 12u;
// Sampling a new particle from its spawn rule: the shape, the velocity and
// the ranges. Mirrored line for line by src/core/emitters/sampling.ts (the
// CPU reference), operation for operation in the same order, so the two
// differ only by what WGSL lets a GPU do differently (fused multiply-adds,
// and sin, cos, sqrt, pow within the accuracies the WGSL spec allows).
// Prepended: the lifecycle records (src/core/emitters/gpuRecords.ts) and
// shaders/pcg.wgsl with the draw indices.

// The float32 just below 2*pi: (u - 0.5) * TAU_BELOW stays inside [-pi, pi],
// the interval on which WGSL bounds sin and cos (absolute error 2^-11).
const TAU_BELOW: f32 = 6.2831850051879883;
// f32(1/3), for the cube roots of volume sampling.
const ONE_THIRD: f32 = 0.3333333432674408;

// min + span * u, never past max (a rounded-up span must not push a damping of 1 past 1).
fn within(low: f32, span: f32, high: f32, u: f32) -> f32 {
  return min(low + span * u, high);
}

// sqrt with sqrt(0) = 0 exactly: WGSL defines sqrt's accuracy through
// inverseSqrt, whose domain excludes 0.
fn safeSqrt(x: f32) -> f32 {
  return select(sqrt(x), 0.0, x <= 0.0);
}

// A uniform direction: z uniform in (-1, 1], the turn uniform in [-pi, pi).
// 1 - z^2 is written 4a(1 - a), exact up to one rounding, with no
// cancellation near the poles.
fn unitVector(a: f32, b: f32) -> vec3f {
  let z = 1.0 - 2.0 * a;
  let rxy = 2.0 * safeSqrt(a * (1.0 - a));
  let turn = (b - 0.5) * TAU_BELOW;
  return vec3f(rxy * cos(turn), rxy * sin(turn), z);
}

fn samplePosition(rule: SpawnRule, center: vec3f, key: u32) -> vec3f {
  let a = uniform01(draw(key, DRAW_SHAPE_0));
  let b = uniform01(draw(key, DRAW_SHAPE_1));
  let c = uniform01(draw(key, DRAW_SHAPE_2));
  switch rule.shape {
    case SHAPE_SPHERE: {
      // A ball: the radius as the cube root of a uniform share, for a uniform density.
      let r = rule.radius * pow(open01(draw(key, DRAW_SHAPE_2)), ONE_THIRD);
      return center + unitVector(a, b) * r;
    }
    case SHAPE_SPHERESURFACE: {
      return center + unitVector(a, b) * rule.radius;
    }
    case SHAPE_BOX: {
      return center + rule.halfExtents * (vec3f(a, b, c) * 2.0 - 1.0);
    }
    case SHAPE_DISC: {
      let r = rule.radius * safeSqrt(open01(draw(key, DRAW_SHAPE_0)));
      let turn = (b - 0.5) * TAU_BELOW;
      return center + rule.shapeX * (r * cos(turn)) + rule.shapeY * (r * sin(turn));
    }
    case SHAPE_CONE: {
      // Distance from the apex as a cube root (the cross-section grows as its square),
      // then uniform over that cross-section's disc.
      let along = rule.height * pow(open01(draw(key, DRAW_SHAPE_0)), ONE_THIRD);
      let r = (along * rule.tanAngle) * safeSqrt(open01(draw(key, DRAW_SHAPE_1)));
      let turn = (c - 0.5) * TAU_BELOW;
      return center + rule.shapeZ * along + rule.shapeX * (r * cos(turn)) + rule.shapeY * (r * sin(turn));
    }
    default: {
      return center;
    }
  }
}

// The velocity: a direction uniform over the spherical cap of the spread
// around velocityZ, times a speed in range; or Cyclone's randomVector(min,
// max). Plus the inherited share of the emitter's (or the parent's) velocity.
fn sampleVelocity(rule: SpawnRule, inheritFrom: vec3f, key: u32) -> vec3f {
  var v: vec3f;
  if (rule.velocityMode == VELOCITY_BOX) {
    let u = vec3f(
      uniform01(draw(key, DRAW_BOX_X)),
      uniform01(draw(key, DRAW_BOX_Y)),
      uniform01(draw(key, DRAW_BOX_Z)),
    );
    v = min(rule.boxMin + rule.boxSpan * u, rule.boxMax);
  } else {
    // cos of the angle off the axis uniform in [cos(spread), 1]; sin from
    // w(2 - w) with w = 1 - cos, no cancellation near the axis.
    let w = uniform01(draw(key, DRAW_SPREAD_ANGLE)) * rule.oneMinusCosSpread;
    let cosAngle = 1.0 - w;
    let sinAngle = safeSqrt(w * (2.0 - w));
    let turn = (uniform01(draw(key, DRAW_SPREAD_TURN)) - 0.5) * TAU_BELOW;
    let direction = rule.velocityX * (sinAngle * cos(turn)) + rule.velocityY * (sinAngle * sin(turn)) + rule.velocityZ * cosAngle;
    let speed = within(rule.speedMin, rule.speedSpan, rule.speedMax, uniform01(draw(key, DRAW_SPEED)));
    v = direction * speed;
  }
  return v + inheritFrom * rule.inherit;
}

// Cyclone's FireworkRule::create, generalised: the whole particle and its life record.
fn spawnParticle(rule: SpawnRule, center: vec3f, inheritFrom: vec3f, key: u32) -> Particle {
  let mass = within(rule.massMin, rule.massSpan, rule.massMax, uniform01(draw(key, DRAW_MASS)));
  let damping = within(rule.dampingMin, rule.dampingSpan, rule.dampingMax, uniform01(draw(key, DRAW_DAMPING)));
  var p: Particle;
  setPosition(&p, samplePosition(rule, center, key));
  setInverseMass(&p, 1.0 / mass);
  setVelocity(&p, sampleVelocity(rule, inheritFrom, key));
  setDamping(&p, damping);
  setAcceleration(&p, rule.acceleration);
  setRadius(&p, rule.collisionRadius);
  setForceAccum(&p, vec3f(0.0));
  return p;
}

fn spawnLifetime(rule: SpawnRule, key: u32) -> f32 {
  return within(rule.lifetimeMin, rule.lifetimeSpan, rule.lifetimeMax, uniform01(draw(key, DRAW_LIFETIME)));
}

fn spawnSize(rule: SpawnRule, key: u32) -> f32 {
  return within(rule.sizeMin, rule.sizeSpan, rule.sizeMax, uniform01(draw(key, DRAW_SIZE)));
}

// Emission: one invocation per particle granted this step. Invocation j takes
// the slot on top of the free list, freeList[freeTop - 1 - j], appends it to
// the live list at liveBase + j, and makes a particle there. Requests are
// numbered children first (the payloads of this step's deaths, in death
// order, each parent's payload entries in order), then the emitters' (in
// emitter order): every request's slot, rule and random key follow from j
// alone, with no atomics, so the result does not depend on scheduling. When
// the pool is short, the first `granted` requests are served and the rest
// were counted as shortfall by planEmit; nothing live is ever overwritten.
// Mirrored by src/core/emitters/lifecycle.ts (emit).
// Prepended: the Particle struct and accessors, the Life struct, the
// lifecycle records, shaders/dispatch.wgsl, shaders/pcg.wgsl, shaders/spawn.wgsl.

override CAPACITY: u32;

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<storage, read_write> life: array<Life>;
@group(1) @binding(1) var<storage, read_write> liveLists: array<u32>;
@group(1) @binding(2) var<storage, read> freeList: array<u32>;
@group(1) @binding(3) var<storage, read> deaths: array<Death>;
@group(1) @binding(4) var<storage, read> counters: LifeCounters;
// Births per spawn rule, then deaths per spawn rule.
@group(1) @binding(5) var<storage, read_write> ruleStats: array<atomic<u32>>;
@group(1) @binding(6) var<uniform> rules: array<SpawnRule, MAX_SPAWN_RULES>;
@group(2) @binding(0) var<uniform> frame: FrameParams;

// The death whose children include child c: the last with childStart <= c
// (deaths with no children share their successor's start and are skipped).
fn findParent(c: u32) -> u32 {
  var low = 0u;
  var high = counters.deaths;
  while (high - low > 1u) {
    let middle = (low + high) / 2u;
    if (deaths[middle].childStart <= c) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return low;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let j = particleIndex(invocation);
  if (j >= counters.granted) { return; }
  let slot = freeList[counters.freeTop - 1u - j];
  // planEmit has flipped the parity: this is the list the next step reads.
  liveLists[counters.parity * CAPACITY + counters.liveBase + j] = slot;

  var ruleIndex = 0u;
  var key = 0u;
  var center = vec3f(0.0);
  var inheritFrom = vec3f(0.0);
  if (j < counters.childRequests) {
    // A firework's child: at its parent's position, inheriting its velocity.
    let death = deaths[findParent(j)];
    let parent = rules[death.rule];
    var rest = j - death.childStart;
    var entry = 0u;
    for (; entry < MAX_PAYLOADS - 1u; entry++) {
      if (rest < parent.payloadCounts[entry]) { break; }
      rest -= parent.payloadCounts[entry];
    }
    ruleIndex = parent.payloadRules[entry];
    key = streamKey(rules[ruleIndex].seed, counters.childSequenceBase + j);
    center = death.position;
    inheritFrom = death.velocity;
  } else {
    // An emitter's request: the emitter whose share of the host requests holds h.
    let h = j - counters.childRequests;
    var e = 0u;
    for (; e + 1u < frame.emitterCount; e++) {
      if (h < counters.emitters[e].start + counters.emitters[e].requests) { break; }
    }
    let state = counters.emitters[e];
    ruleIndex = e;
    key = streamKey(rules[e].seed, state.sequenceBase + (h - state.start));
    center = frame.emitters[e].center;
    inheritFrom = frame.emitters[e].velocity;
  }

  let rule = rules[ruleIndex];
  particles[slot] = spawnParticle(rule, center, inheritFrom, key);
  var record = life[slot];
  record.age = 0.0;
  record.lifetime = spawnLifetime(rule, key);
  record.size = spawnSize(rule, key);
  record.color = rule.color;
  record.rule = rule.tag;
  record.alive = 1u;
  record.generation = record.generation + 1u;
  life[slot] = record;
  atomicAdd(&ruleStats[rule.tag], 1u);
}
