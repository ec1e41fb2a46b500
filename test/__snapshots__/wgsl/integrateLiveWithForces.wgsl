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

// Generated from src/core/forces/records.ts: 48 bytes a generator record.
const MAX_FORCE_GENERATORS: u32 = 32u;
const NO_MASK: u32 = 4294967295u;
const FORCE_GRAVITY: u32 = 0u;
const FORCE_DRAG: u32 = 1u;
const FORCE_ANCHOREDSPRING: u32 = 2u;
const FORCE_ANCHOREDBUNGEE: u32 = 3u;
const FORCE_BUOYANCY: u32 = 4u;
const FORCE_STIFFSPRING: u32 = 5u;
const FORCE_ATTRACTOR: u32 = 6u;
const FORCE_VORTEX: u32 = 7u;
const FORCE_WIND: u32 = 8u;
const FORCE_TURBULENCE: u32 = 9u;
struct ForceRecord {
  kind: u32,  // offset 0
  first: u32, // offset 4: the target range is [first, end)
  end: u32,   // offset 8
  mask: u32,  // offset 12: first word of the target bitmask (bit i - first), or NO_MASK
  a: vec4f,   // offset 16: parameters, see the accessors
  b: vec4f,   // offset 32
}
struct ForceTable {
  count: u32,          // offset 0: particles
  generatorCount: u32, // offset 4
  records: array<ForceRecord, MAX_FORCE_GENERATORS>, // offset 16
}
fn gravity_g(r: ForceRecord) -> vec3f { return r.a.xyz; }
fn drag_k1(r: ForceRecord) -> f32 { return r.a.x; }
fn drag_k2(r: ForceRecord) -> f32 { return r.a.y; }
fn anchoredSpring_anchor(r: ForceRecord) -> vec3f { return r.a.xyz; }
fn anchoredSpring_restLength(r: ForceRecord) -> f32 { return r.a.w; }
fn anchoredSpring_stiffness(r: ForceRecord) -> f32 { return r.b.x; }
fn anchoredBungee_anchor(r: ForceRecord) -> vec3f { return r.a.xyz; }
fn anchoredBungee_restLength(r: ForceRecord) -> f32 { return r.a.w; }
fn anchoredBungee_stiffness(r: ForceRecord) -> f32 { return r.b.x; }
fn buoyancy_surfaceTop(r: ForceRecord) -> f32 { return r.a.x; }
fn buoyancy_inverseBand(r: ForceRecord) -> f32 { return r.a.y; }
fn buoyancy_fullForce(r: ForceRecord) -> f32 { return r.a.z; }
fn stiffSpring_anchor(r: ForceRecord) -> vec3f { return r.a.xyz; }
fn stiffSpring_positionCoefficient(r: ForceRecord) -> f32 { return r.b.x; }
fn stiffSpring_velocityCoefficient(r: ForceRecord) -> f32 { return r.b.y; }
fn attractor_position(r: ForceRecord) -> vec3f { return r.a.xyz; }
fn attractor_strength(r: ForceRecord) -> f32 { return r.a.w; }
fn attractor_softening2(r: ForceRecord) -> f32 { return r.b.x; }
fn vortex_position(r: ForceRecord) -> vec3f { return r.a.xyz; }
fn vortex_strength(r: ForceRecord) -> f32 { return r.a.w; }
fn vortex_axis(r: ForceRecord) -> vec3f { return r.b.xyz; }
fn vortex_softening2(r: ForceRecord) -> f32 { return r.b.w; }
fn wind_force(r: ForceRecord) -> vec3f { return r.a.xyz; }
fn turbulence_origin(r: ForceRecord) -> vec3f { return r.a.xyz; }
fn turbulence_strength(r: ForceRecord) -> f32 { return r.a.w; }
fn turbulence_frequency(r: ForceRecord) -> f32 { return r.b.x; }
// The turbulence generator's field: a sum of Fourier modes (plane waves whose
// amplitudes are perpendicular to their wave vectors), so divergence-free.
// The modes, and why the field is built this way, are in
// src/core/forces/turbulence.ts, which generates `turbulenceField` (one line
// a mode, the table as constants) after this file and holds the CPU twin.

// A periodic parabola, period 1, |wave| <= 1, C1: x = 2 fract(t) - 1 runs
// over [-1, 1) and x (4 - 4|x|) is 0 at both ends. Only + - * and floor, so
// the CPU twin agrees to float32 rounding (WGSL's cos is specified to 2^-11).
fn wave(t: f32) -> f32 {
  let x = 2.0 * fract(t) - 1.0;
  return x * (4.0 - 4.0 * abs(x));
}

// Generated from src/core/forces/turbulence.ts: 8 Fourier modes, A_m · k_m = 0.
fn turbulenceField(q: vec3f) -> vec3f {
  var field = vec3f(0.0);
  field += vec3f(0.00000000, 1.03279877, 0.00000000) * wave(dot(vec3f(0.173992634, 0.00000000, 0.468750000), q) + 0.00000000);
  field += vec3f(-0.288636744, -0.765994012, 0.218540311) * wave(dot(vec3f(-0.389332056, 0.356660068, 0.735900462), q) + 0.754877687);
  field += vec3f(-0.388107002, -0.414722860, -0.400541514) * wave(dot(vec3f(0.104161583, -1.18686748, 1.12796116), q) + 0.509755313);
  field += vec3f(-0.473800898, -0.308937430, 0.784100533) * wave(dot(vec3f(0.306615829, 0.399926037, 0.342847586), q) + 0.264633000);
  field += vec3f(-0.294106573, -0.261116356, -0.688734412) * wave(dot(vec3f(-0.977640867, -0.172930911, 0.483039171), q) + 0.0195106659);
  field += vec3f(-0.359379619, -0.280404717, 0.464251041) * wave(dot(vec3f(1.60299623, -1.01969504, 0.625000000), q) + 0.774388313);
  field += vec3f(-0.824713707, -0.154651925, -0.339206278) * wave(dot(vec3f(-0.189464360, 0.704797983, 0.139311969), q) + 0.529266000);
  field += vec3f(-0.658843875, 0.338684440, -0.0495157316) * wave(dot(vec3f(-0.619122088, -1.19208193, 0.0841187611), q) + 0.284143656);
  return field;
}
// The force registry's field generators (Millington ch. 5, Cyclone's force
// generators) as functions of one particle: each returns the force it adds.
// Mirrored line for line by src/core/forces/fieldForces.ts (the CPU reference).
// Used by two passes: the force pass (shaders/forces.wgsl) and the step with
// the forces fused in (shaders/integrateForces.wgsl); each declares the
// `table` and `masks` bindings these read. Prepended: the generator records
// (src/core/forces/records.ts), shaders/turbulence.wgsl and the generated
// `turbulenceField` (src/core/forces/turbulence.ts). Appended:
// `registeredForces`, generated from the registry's composition, one call a
// generator.

// What a generator may read of its particle.
struct ForceInput {
  position: vec3f,
  velocity: vec3f,
  inverseMass: f32,
}

// A range target: [first, end).
fn inRange(r: ForceRecord, index: u32) -> bool {
  return index >= r.first && index < r.end;
}

// An index-list target: the range, then the particle's bit.
fn inMask(r: ForceRecord, index: u32) -> bool {
  if (!inRange(r, index)) { return false; }
  let bit = index - r.first;
  return (masks[r.mask + bit / 32u] & (1u << (bit % 32u))) != 0u;
}

// Cyclone's ParticleGravity: f = g * mass, written g / inverseMass (one rounding).
fn force_gravity(r: ForceRecord, s: ForceInput) -> vec3f {
  return gravity_g(r) / s.inverseMass;
}

// Cyclone's ParticleDrag, -normalize(v) * (k1 |v| + k2 |v|^2) = -v * (k1 + k2 |v|):
// no normalize, so no 0/0 at rest.
fn force_drag(r: ForceRecord, s: ForceInput) -> vec3f {
  let speed2 = dot(s.velocity, s.velocity);
  if (speed2 <= 0.0) { return vec3f(0.0); }
  let speed = sqrt(speed2);
  return -(s.velocity * (drag_k1(r) + drag_k2(r) * speed));
}

// Hooke's law along d = position - anchor: -k (|d| - rest) d/|d|, pushing
// when compressed, pulling when stretched; a bungee only pulls. No direction,
// no force, at |d| = 0.
fn hooke(anchor: vec3f, restLength: f32, stiffness: f32, bungee: bool, position: vec3f) -> vec3f {
  let d = position - anchor;
  let length2 = dot(d, d);
  if (length2 <= 0.0) { return vec3f(0.0); }
  let length = sqrt(length2);
  let stretch = length - restLength;
  if (bungee && stretch <= 0.0) { return vec3f(0.0); }
  return d * (-stiffness * stretch / length);
}

fn force_anchoredSpring(r: ForceRecord, s: ForceInput) -> vec3f {
  return hooke(anchoredSpring_anchor(r), anchoredSpring_restLength(r), anchoredSpring_stiffness(r), false, s.position);
}

fn force_anchoredBungee(r: ForceRecord, s: ForceInput) -> vec3f {
  return hooke(anchoredBungee_anchor(r), anchoredBungee_restLength(r), anchoredBungee_stiffness(r), true, s.position);
}

// Cyclone's ParticleBuoyancy with the partly submerged band fixed: the
// submerged share runs linearly from 0 at the top of the band to 1 at its
// bottom, so the force is continuous.
fn force_buoyancy(r: ForceRecord, s: ForceInput) -> vec3f {
  let submerged = clamp((buoyancy_surfaceTop(r) - s.position.y) * buoyancy_inverseBand(r), 0.0, 1.0);
  return vec3f(0.0, buoyancy_fullForce(r) * submerged, 0.0);
}

// Cyclone's ParticleFakeSpring: the acceleration that lands the particle on
// the damped oscillator's exact position after dt, from coefficients the host
// computed for this dt (every damping regime, no NaN).
fn force_stiffSpring(r: ForceRecord, s: ForceInput) -> vec3f {
  let offset = s.position - stiffSpring_anchor(r);
  let accel = offset * stiffSpring_positionCoefficient(r) + s.velocity * stiffSpring_velocityCoefficient(r);
  return accel / s.inverseMass;
}

// strength * d / (|d|^2 + softening^2)^(3/2), d from the particle to the attractor.
fn force_attractor(r: ForceRecord, s: ForceInput) -> vec3f {
  let d = attractor_position(r) - s.position;
  let r2 = dot(d, d) + attractor_softening2(r);
  let inverse = inverseSqrt(r2);
  return d * (attractor_strength(r) * inverse * inverse * inverse);
}

// strength * (a x r) / (|a x r|^2 + softening^2): tangential about the unit axis a.
fn force_vortex(r: ForceRecord, s: ForceInput) -> vec3f {
  let tangent = cross(vortex_axis(r), s.position - vortex_position(r));
  let denominator = dot(tangent, tangent) + vortex_softening2(r);
  return tangent * (vortex_strength(r) / denominator);
}

fn force_wind(r: ForceRecord, s: ForceInput) -> vec3f {
  return wind_force(r);
}

fn force_turbulence(r: ForceRecord, s: ForceInput) -> vec3f {
  let q = s.position * turbulence_frequency(r) + turbulence_origin(r);
  return turbulenceField(q) * turbulence_strength(r);
}

// Generated from src/core/forces/records.ts for the composition gravity:all,drag:range,attractor:all,turbulence:mask,vortex:range.
fn registeredForces(index: u32, input: ForceInput, accumulated: vec3f) -> vec3f {
  var force = accumulated;
  force += force_gravity(table.records[0u], input);
  if (inRange(table.records[1u], index)) { force += force_drag(table.records[1u], input); }
  force += force_attractor(table.records[2u], input);
  if (inMask(table.records[3u], index)) { force += force_turbulence(table.records[3u], input); }
  if (inRange(table.records[4u], index)) { force += force_vortex(table.records[4u], input); }
  return force;
}
// The step with the registry's field forces fused in: shaders/integrate.wgsl
// asks `fieldForces` for the accumulator it integrates, and here that is the
// accumulator plus every registered generator's force, computed from the same
// position and velocity the force pass would read (Cyclone's order: forces
// accumulate, then the step integrates and clears). One pass instead of two:
// the record is read and written once a step, not twice (112 B a
// particle-step instead of 176 B), which is what counts on a GPU, where memory
// is the limit. On the software adapter, where each invocation and each
// uniform load costs, the typical effect fused measured 0.6-0.9x the step and
// as a pass of its own 1.0-1.2x (`npm run bench:forces` prints both).
// Composed over every slot (shaders/dispatch.wgsl) or over the live list of a
// system with emitters (shaders/liveDispatch.wgsl, whose lists take group 2).
// Prepended: the records, shaders/turbulence.wgsl and its generated modes, shaders/forceGenerators.wgsl and
// `registeredForces` for the composition. Appended: shaders/integrate.wgsl.

// The group after the step's own: src/gpu/wgsl.ts writes the index in.
@group(3) @binding(0) var<uniform> table: ForceTable;
// Index-list targets: one bit a particle from `first`, per generator.
@group(3) @binding(1) var<storage, read> masks: array<u32>;

fn fieldForces(index: u32, position: vec3f, velocity: vec3f, inverseMass: f32, accumulated: vec3f) -> vec3f {
  return registeredForces(index, ForceInput(position, velocity, inverseMass), accumulated);
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
