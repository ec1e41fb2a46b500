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

// The particles a ParticlePass draws by index: every record of a buffer of
// Particle records (the simulation's state), or every sampleStride-th sample
// of a history of it; life colours from a GroupTimeline (src/render/groupTimeline.ts).
// Composed after shaders/render/particles.wgsl, whose bindings and Look it uses.

// Per group: birth time, lifetime, hue, kind (0 hidden, 1 rocket, 2 burst).
@group(0) @binding(2) var<storage, read> groups: array<vec4f>;

// The record behind the n-th particle drawn: every sampleStride-th sample of
// `count` particles (a history buffer holds samples of `count` records one after another).
fn recordOf(drawn: u32) -> u32 {
  let count = max(params.count, 1u);
  return (drawn / count) * params.sampleStride * count + drawn % count;
}

fn lookOf(drawn: u32) -> Look {
  let record = recordOf(drawn);
  let member = record % max(params.count, 1u);
  var out = particleLook(particles[record], member);
  if (COLOR_MODE == 2u) {
    let groupSize = max(params.groupSize, 1u);
    let group = groups[member / groupSize];
    let age = (params.time - group.x) / max(group.y, 1e-6);
    let kind = u32(group.w);
    // A rocket's particles all share one state until it bursts: draw the first only.
    let drawn = kind == 2u || (kind == 1u && member % groupSize == 0u);
    out.visible = out.visible && drawn && age >= 0.0 && age <= 1.0;
    if (kind == 1u) {
      out.color = vec3f(1.0, 0.72, 0.42);
      out.size = params.size * 1.5;
    } else {
      let hot = select(1.0, smoothstep(0.0, params.hotTime, age), params.hotTime > 0.0);
      out.color = hsv(group.z, params.saturation * hot, 1.0);
      out.alpha = 1.0 - smoothstep(params.fadeStart, 1.0, age);
      out.size = params.size * mix(1.0, params.endSize, age);
    }
  }
  return out;
}
