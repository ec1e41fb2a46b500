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
// Generated from src/core/schema.ts: 12 bytes
struct DrawnLink {
  a: u32, // offset 0
  b: u32, // offset 4
  restLength: f32, // offset 8: 0: no rest length known, the link keeps its colour
}
// Generated from src/core/schema.ts: 128 bytes
struct LinkParams {
  viewProjection: mat4x4f, // offset 0
  viewport: vec4f, // offset 64: width, height (device px), unused, unused
  color: vec4f, // offset 80: straight colour (not premultiplied) at rest length or shorter
  stretchColor: vec4f, // offset 96: straight colour at a strain of stretchRange or more
  width: f32, // offset 112: device pixels
  extrapolate: f32, // offset 116: seconds past the stored state, as the particles are drawn
  stretchRange: f32, // offset 120: strain at which a link is all stretchColor; 0: no stretch colours
  count: u32, // offset 124: links drawn
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

// A segment of constant pixel width, shared by lines.wgsl and links.wgsl: one
// corner of the screen-space quad between two clip-space ends, and the
// coverage of its smooth edge. QUAD_CORNERS (color.wgsl) orders the corners.

struct SegmentCorner {
  clip: vec4f,
  // Pixels from the centre line.
  across: f32,
}

// Corner `vertex` (0..3: x picks the end, y the side) of the quad from clipA to
// clipB (both in front of the camera: the caller checks w), `width` pixels
// wide plus one pixel of margin for the smooth edge.
fn segmentCorner(clipA: vec4f, clipB: vec4f, viewport: vec2f, width: f32, vertex: u32) -> SegmentCorner {
  let halfViewport = 0.5 * viewport;
  let delta = clipB.xy / clipB.w * halfViewport - clipA.xy / clipA.w * halfViewport;
  let pixels = length(delta);
  let direction = select(vec2f(1.0, 0.0), delta / pixels, pixels > 1e-4);
  let side = vec2f(-direction.y, direction.x);
  let corner = vec2f(f32(vertex & 1u), f32(vertex >> 1u)) * 2.0 - 1.0;
  let halfWidth = 0.5 * width + 1.0;
  let end = select(clipA, clipB, corner.x > 0.0);
  return SegmentCorner(vec4f(end.xy + side * corner.y * halfWidth / halfViewport * end.w, end.z, end.w), corner.y * halfWidth);
}

// How much of a fragment `across` pixels from the centre line a `width`-pixel line covers.
fn segmentCoverage(width: f32, across: f32) -> f32 {
  return clamp(0.5 * width + 0.5 - abs(across), 0.0, 1.0);
}

// Links between particles (springs, a cloth's threads) drawn straight from the
// simulation's storage buffer of Particle records: no readback, no copy. A link
// is a pair of particle indices and a rest length; each is a quad of constant
// pixel width (6 vertices, one non-instanced draw: see particles.wgsl for why)
// between the two particles' positions, which are read in the vertex shader.
// Coloured by stretch: the link's colour at its rest length or shorter, turning
// to stretchColor as its strain (length / rest length - 1) reaches stretchRange.
// Prepended: the Particle struct and accessors generated from src/core/layout.ts,
// the DrawnLink and LinkParams structs generated from src/render/linkPass.ts, and
// shaders/render/color.wgsl and shaders/render/segment.wgsl.

@group(0) @binding(0) var<uniform> params: LinkParams;
@group(0) @binding(1) var<storage, read> particles: array<Particle>;
@group(0) @binding(2) var<storage, read> links: array<DrawnLink>;

struct LinkOut {
  @builtin(position) clip: vec4f,
  // Pixels from the centre line.
  @location(0) across: f32,
  @location(1) @interpolate(flat) color: vec4f,
}

// A particle's position at the clock's time, as particles.wgsl draws it: an
// immovable particle (inverse mass 0) is not extrapolated, whatever its velocity.
fn drawnPosition(p: Particle) -> vec3f {
  let velocity = select(vec3f(0.0), getVelocity(p), getInverseMass(p) > 0.0);
  return getPosition(p) + velocity * params.extrapolate;
}

@vertex
fn linkVertex(@builtin(vertex_index) index: u32) -> LinkOut {
  let link = index / 6u;
  let vertex = QUAD_CORNERS[index % 6u];
  var out: LinkOut;
  out.clip = OUTSIDE_CLIP;
  // Guards: the link buffer may hold more than the count, and a bad index reads no particle.
  if (link >= params.count) { return out; }
  let ends = links[link];
  let particleCount = arrayLength(&particles);
  if (ends.a >= particleCount || ends.b >= particleCount) { return out; }
  let a = drawnPosition(particles[ends.a]);
  let b = drawnPosition(particles[ends.b]);
  let clipA = params.viewProjection * vec4f(a, 1.0);
  let clipB = params.viewProjection * vec4f(b, 1.0);
  if (clipA.w <= 1e-5 || clipB.w <= 1e-5) { return out; }
  let corner = segmentCorner(clipA, clipB, params.viewport.xy, params.width, vertex);
  out.clip = corner.clip;
  out.across = corner.across;
  var stretch = 0.0;
  if (ends.restLength > 0.0 && params.stretchRange > 0.0) {
    let strain = length(b - a) / ends.restLength - 1.0;
    stretch = clamp(strain / params.stretchRange, 0.0, 1.0);
  }
  let color = mix(params.color, params.stretchColor, stretch);
  // Premultiplied, for the "over" blend.
  out.color = vec4f(color.rgb * color.a, color.a);
  return out;
}

@fragment
fn linkFragment(in: LinkOut) -> @location(0) vec4f {
  let coverage = segmentCoverage(params.width, in.across);
  return in.color * coverage;
}
