// Polylines of constant pixel width: a quad (6 vertices, one non-instanced
// draw; see particles.wgsl for why) per segment between consecutive points of
// a storage buffer. A point's w is the index of its
// strip; a segment whose ends belong to different strips is the break between
// two strips and is not drawn. Colours follow the `index` palette of
// particles.wgsl (strip i gets the hue of particle i).
// Prepended: the LineParams struct generated from src/render/linePass.ts, and
// shaders/render/color.wgsl.

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
  let halfViewport = 0.5 * line.viewport.xy;
  let delta = clipB.xy / clipB.w * halfViewport - clipA.xy / clipA.w * halfViewport;
  let pixels = length(delta);
  let direction = select(vec2f(1.0, 0.0), delta / pixels, pixels > 1e-4);
  let side = vec2f(-direction.y, direction.x);
  // x picks the end, y the side; one pixel of margin for the smooth edge.
  let corner = vec2f(f32(vertex & 1u), f32(vertex >> 1u)) * 2.0 - 1.0;
  let halfWidth = 0.5 * line.width + 1.0;
  let end = select(clipA, clipB, corner.x > 0.0);
  out.clip = vec4f(end.xy + side * corner.y * halfWidth / halfViewport * end.w, end.z, end.w);
  out.across = corner.y * halfWidth;
  let share = a.w / f32(max(line.strips, 1u));
  out.color = vec4f(hsv(line.hueOffset + line.hueSpan * share, line.saturation, line.brightness) * line.alpha, line.alpha);
  return out;
}

@fragment
fn lineFragment(in: LineOut) -> @location(0) vec4f {
  let coverage = clamp(0.5 * line.width + 0.5 - abs(in.across), 0.0, 1.0);
  return in.color * coverage;
}
