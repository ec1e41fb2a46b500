// Generated from src/core/schema.ts: 112 bytes
struct LineParams {
  viewProjection: mat4x4f, // offset 0
  viewport: vec4f, // offset 64: width, height (device px), unused, unused
  width: f32, // offset 80: device pixels
  alpha: f32, // offset 84
  hueOffset: f32, // offset 88
  hueSpan: f32, // offset 92
  saturation: f32, // offset 96
  brightness: f32, // offset 100
  strips: u32, // offset 104
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

// Polylines of constant pixel width: a quad (6 vertices, one non-instanced
// draw; see particles.wgsl for why) per segment between consecutive points of
// a storage buffer. A point's w is the index of its
// strip; a segment whose ends belong to different strips is the break between
// two strips and is not drawn. Colours follow the `index` palette of
// particles.wgsl (strip i gets the hue of particle i).
// Prepended: the LineParams struct generated from src/render/linePass.ts, and
// shaders/render/color.wgsl and shaders/render/segment.wgsl.

@group(0) @binding(0) var<uniform> line: LineParams;
@group(0) @binding(1) var<storage, read> points: array<vec4f>;

struct LineOut {
  @builtin(position) clip: vec4f,
  // Pixels from the centre line.
  @location(0) across: f32,
  @location(1) @interpolate(flat) color: vec4f,
}

@vertex
fn lineVertex(@builtin(vertex_index) index: u32) -> LineOut {
  let segment = index / 6u;
  let vertex = QUAD_CORNERS[index % 6u];
  var out: LineOut;
  out.clip = OUTSIDE_CLIP;
  let a = points[segment];
  let b = points[segment + 1u];
  if (a.w != b.w) { return out; }
  let clipA = line.viewProjection * vec4f(a.xyz, 1.0);
  let clipB = line.viewProjection * vec4f(b.xyz, 1.0);
  if (clipA.w <= 1e-5 || clipB.w <= 1e-5) { return out; }
  let corner = segmentCorner(clipA, clipB, line.viewport.xy, line.width, vertex);
  out.clip = corner.clip;
  out.across = corner.across;
  let share = a.w / f32(max(line.strips, 1u));
  out.color = vec4f(hsv(line.hueOffset + line.hueSpan * share, line.saturation, line.brightness) * line.alpha, line.alpha);
  return out;
}

@fragment
fn lineFragment(in: LineOut) -> @location(0) vec4f {
  let coverage = segmentCoverage(line.width, in.across);
  return in.color * coverage;
}
