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
