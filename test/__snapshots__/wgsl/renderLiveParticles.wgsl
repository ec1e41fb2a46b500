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
// Generated from src/core/schema.ts: 192 bytes
struct DrawParams {
  viewProjection: mat4x4f, // offset 0
  viewport: vec4f, // offset 64: width, height (device px), focal length (px at clip w = 1), unused
  colorA: vec4f, // offset 80
  colorB: vec4f, // offset 96
  size: f32, // offset 112: sprite radius, world units
  pixelSize: f32, // offset 116: when > 0: sprite radius in device pixels instead
  minPixels: f32, // offset 120
  intensity: f32, // offset 124
  extrapolate: f32, // offset 128: seconds to move along the velocity: alpha * dt
  time: f32, // offset 132: simulated time drawn, for life colours
  speedRange: f32, // offset 136
  stretch: f32, // offset 140
  clipBelow: f32, // offset 144
  hueOffset: f32, // offset 148
  hueSpan: f32, // offset 152
  saturation: f32, // offset 156
  hotTime: f32, // offset 160
  fadeStart: f32, // offset 164
  endSize: f32, // offset 168
  count: u32, // offset 172: particles per sample: palette period and stride unit
  groupSize: u32, // offset 176: particles per GroupTimeline entry
  sampleStride: u32, // offset 180: draw every n-th sample of a history buffer (1: every record)
}
// Colour helpers shared by the render passes.

// HSV to linear-ish RGB; h wraps, s and v in [0, 1].
fn hsv(h: f32, s: f32, v: f32) -> vec3f {
  let k = vec3f(1.0, 2.0 / 3.0, 1.0 / 3.0);
  let p = abs(fract(vec3f(h) + k) * 6.0 - 3.0);
  return v * mix(vec3f(1.0), clamp(p - 1.0, vec3f(0.0), vec3f(1.0)), s);
}

// A vertex placed here is outside clip space: how a vertex shader drops a
// primitive (a hidden particle, a broken line) without a branch in the draw.
const OUTSIDE_CLIP = vec4f(2.0, 2.0, 2.0, 1.0);

// The corners of a quad drawn as two triangles, as bits: x = bit 0, y = bit 1,
// so corner c is (c & 1, c >> 1) in [0, 1]^2, i.e. (-1, -1), (1, -1), (-1, 1), (1, 1).
const QUAD_CORNERS = array<u32, 6>(0u, 1u, 2u, 2u, 1u, 3u);

// Draws particles straight from a storage buffer of Particle records: the
// simulation's own state (no readback, no copy), or a history of it.
// Camera-facing quads (a soft round sprite, or a spark stretched along the
// velocity), or one point per particle.
// Prepended: the Particle struct and accessors generated from src/core/layout.ts,
// the DrawParams struct generated from src/render/particleLook.ts, and
// shaders/render/color.wgsl. Appended: the source of the particles drawn, which
// defines lookOf(drawn), the Look of the drawn-th particle of the draw:
// shaders/render/records.wgsl (records by index: a state or a history of it) or
// shaders/render/liveRecords.wgsl (the live list of a system with emitters).

// 0: round sprite, 1: spark (the quad stretched along the screen-space velocity).
override SHAPE: u32 = 0u;
// 0: index, 1: speed, 2: life (see COLOR_MODES in src/render/particleLook.ts).
override COLOR_MODE: u32 = 0u;
// Quads: true, one instance a particle (draw(6, n)); false, 6 vertices a
// particle in one instance (draw(6 * n)). See QUAD_PATHS in src/render/particlePass.ts.
override INSTANCED: bool = false;

@group(0) @binding(0) var<uniform> params: DrawParams;
@group(0) @binding(1) var<storage, read> particles: array<Particle>;

struct Look {
  position: vec3f,
  velocity: vec3f,
  color: vec3f,
  alpha: f32,
  size: f32,
  visible: bool,
}

fn speedColor(speed: f32) -> vec3f {
  let t = clamp(speed / max(params.speedRange, 1e-6), 0.0, 1.0);
  let low = mix(params.colorA.rgb, params.colorB.rgb, t * 2.0);
  let high = mix(params.colorB.rgb, vec3f(1.0), t * 2.0 - 1.0);
  return select(high, low, t < 0.5);
}

// What every source of particles shares: the particle drawn at the clock's
// time, and its colour by index (`member` of `count`) or by speed. The life
// colours are the source's own (lookOf, in the file composed after this one).
fn particleLook(p: Particle, member: u32) -> Look {
  var out: Look;
  // An immovable particle (inverse mass 0) is skipped by the step, whatever its velocity.
  let moving = getInverseMass(p) > 0.0;
  out.velocity = select(vec3f(0.0), getVelocity(p), moving);
  // Drawn at the clock's time, alpha * dt past the stored state: see src/render/fixedStep.ts.
  out.position = getPosition(p) + out.velocity * params.extrapolate;
  out.size = params.size;
  out.alpha = 1.0;
  out.visible = out.position.y >= params.clipBelow;
  if (COLOR_MODE == 1u) {
    out.color = speedColor(length(out.velocity));
  } else {
    let share = f32(member) / f32(max(params.count, 1u));
    out.color = hsv(params.hueOffset + params.hueSpan * share, params.saturation, 1.0);
  }
  return out;
}

struct SpriteOut {
  @builtin(position) clip: vec4f,
  // Position in the quad in units of the radius; x runs along a spark.
  @location(0) local: vec2f,
  // Premultiplied colour times intensity, and alpha.
  @location(1) @interpolate(flat) color: vec4f,
  // Half the spark's length between its end caps, in radii (0 for a round sprite).
  @location(2) @interpolate(flat) halfLength: f32,
}

// Two triangles a particle, the same either way: instanced (the particle is
// the instance, vertex_index 0..5 the corner), the usual way on a GPU; or
// pulled (vertex_index / 6 is the particle, in one instance), because software
// rasterisers such as SwiftShader set up every instance of an instanced draw
// separately, which made 65,536 instanced quads take seconds a frame.
@vertex
fn spriteVertex(@builtin(vertex_index) index: u32, @builtin(instance_index) instance: u32) -> SpriteOut {
  let vertex = QUAD_CORNERS[index % 6u];
  var out: SpriteOut;
  out.clip = OUTSIDE_CLIP;
  let l = lookOf(select(index / 6u, instance, INSTANCED));
  let head = params.viewProjection * vec4f(l.position, 1.0);
  if (!l.visible || head.w <= 1e-5) { return out; }
  // The radius in device pixels; below minPixels the sprite is drawn bigger and
  // dimmer by the ratio of areas, so it keeps its light and does not shimmer.
  var radius = select(l.size * params.viewport.z / head.w, params.pixelSize, params.pixelSize > 0.0);
  var alpha = l.alpha;
  if (radius < params.minPixels) {
    alpha *= (radius * radius) / (params.minPixels * params.minPixels);
    radius = params.minPixels;
  }
  var axis = vec2f(1.0, 0.0);
  var halfLength = 0.0;
  if (SHAPE == 1u) {
    let tail = params.viewProjection * vec4f(l.position - l.velocity * params.stretch, 1.0);
    if (tail.w > 1e-5) {
      // From the head to the tail, in pixels (y up, as clip space).
      let toTail = (tail.xy / tail.w - head.xy / head.w) * 0.5 * params.viewport.xy;
      let pixels = length(toTail);
      if (pixels > 1e-3) {
        axis = -toTail / pixels;
        halfLength = 0.5 * pixels;
      }
    }
    // A longer streak spreads about the same light.
    alpha *= radius / (radius + 0.5 * halfLength);
  }
  let corner = vec2f(f32(vertex & 1u), f32(vertex >> 1u)) * 2.0 - 1.0;
  let side = vec2f(-axis.y, axis.x);
  // Pixels from the head: the quad spans the tail's cap to the head's cap.
  let along = corner.x * (halfLength + radius) - halfLength;
  let offset = axis * along + side * corner.y * radius;
  out.clip = vec4f(head.xy + offset * 2.0 / params.viewport.xy * head.w, head.z, head.w);
  out.local = vec2f(corner.x * (halfLength + radius) / radius, corner.y);
  out.halfLength = halfLength / radius;
  out.color = vec4f(l.color * alpha * params.intensity, alpha);
  return out;
}

@fragment
fn spriteFragment(in: SpriteOut) -> @location(0) vec4f {
  // Distance to the spark's core segment (a point for a round sprite), in radii.
  let dx = max(abs(in.local.x) - in.halfLength, 0.0);
  let r2 = dx * dx + in.local.y * in.local.y;
  if (r2 >= 1.0) { discard; }
  // Soft round: a bright core falling smoothly to zero at the rim.
  let falloff = exp(-3.0 * r2) * (1.0 - r2);
  return in.color * falloff;
}

struct PointOut {
  @builtin(position) clip: vec4f,
  @location(0) @interpolate(flat) color: vec4f,
}

@vertex
fn pointVertex(@builtin(vertex_index) index: u32) -> PointOut {
  var out: PointOut;
  out.clip = OUTSIDE_CLIP;
  let l = lookOf(index);
  if (!l.visible) { return out; }
  out.clip = params.viewProjection * vec4f(l.position, 1.0);
  out.color = vec4f(l.color * l.alpha * params.intensity, l.alpha);
  return out;
}

@fragment
fn pointFragment(in: PointOut) -> @location(0) vec4f {
  return in.color;
}

// The particles a ParticlePass draws from the live list of a system with
// emitters (src/gpu/lifeBuffers.ts): the draw is indirect, its vertex or
// instance count written on the GPU by planEmit from the live count
// (shaders/lifePlan.wgsl: points, pulled quads and instanced quads each have
// their own arguments), and the drawn-th particle is the drawn-th live slot,
// so free (parked) slots are never drawn and nothing is read back. Life colours come from the
// particle's life record: white-hot at birth, its rule's colour (a firework
// type's, an emitter's), fading and shrinking towards the end of its life.
// Composed after shaders/render/particles.wgsl, whose bindings and Look it
// uses; prepended: the Life and LifeCounters structs, generated from
// src/core/layout.ts and src/core/emitters/gpuRecords.ts. params.count is the
// system's capacity: the length of each half of the live lists.

@group(0) @binding(2) var<storage, read> life: array<Life>;
// Two halves of `capacity` slots; the counters' parity says which holds the live list.
@group(0) @binding(3) var<storage, read> liveLists: array<u32>;
@group(0) @binding(4) var<storage, read> liveCounters: LifeCounters;

fn lookOf(drawn: u32) -> Look {
  var out: Look;
  // Past the live count (no draw is sized so; kept as the kernels keep their guards).
  if (drawn >= liveCounters.live) {
    out.visible = false;
    return out;
  }
  let slot = liveLists[liveCounters.parity * params.count + drawn];
  out = particleLook(particles[slot], slot);
  if (COLOR_MODE == 2u) {
    let record = life[slot];
    // The share of its life lived at the drawn time (0 for a particle that never dies).
    let share = (record.age + params.extrapolate) / record.lifetime;
    let lived = select(0.0, clamp(share, 0.0, 1.0), record.lifetime > 0.0);
    let rgb = unpack4x8unorm(record.color).rgb;
    let hot = select(1.0, smoothstep(0.0, params.hotTime, lived), params.hotTime > 0.0);
    out.color = mix(vec3f(1.0), rgb, params.saturation * hot);
    out.alpha = 1.0 - smoothstep(params.fadeStart, 1.0, lived);
    out.size = params.size * record.size * mix(1.0, params.endSize, lived);
  }
  return out;
}
