// Trails, the draw (src/render/trailPass.ts): a camera-facing ribbon through
// each slot's ring of recorded positions (shaders/render/trailsRecord.wgsl),
// newest first, its width and colour from curves over the trail's normalised
// length u = k / (length - 1) at the k-th newest sample. One strip, in one
// instance, because SwiftShader sets up each instance of an instanced draw on
// its own (see QUAD_PATHS in src/render/particlePass.ts).
// Prepended: the Life struct (src/core/layout.ts), TrailHead, TrailStop and
// TrailDrawParams (src/core/look/trails.ts) and shaders/render/color.wgsl.

// With emitters: a free slot, or one recycled since the last record, draws nothing.
override HAS_LIFE: bool = false;

@group(0) @binding(0) var<uniform> params: TrailDrawParams;
@group(0) @binding(1) var<storage, read> heads: array<TrailHead>;
@group(0) @binding(2) var<storage, read> samples: array<vec4f>;
@group(0) @binding(3) var<storage, read> life: array<Life>;

struct TrailOut {
  @builtin(position) clip: vec4f,
  // The normalised length along the trail, for the colour curve.
  @location(0) along: f32,
}

// The segment of the `n` stops (width or colour) that u falls in and the
// share of the way along it: the first i with u < at[i + 1] (or the last
// segment), a zero-length segment (a step) taken whole. The CPU twin is
// segmentOf in src/core/look/curves.ts (evaluateCurve, evaluateGradient).
struct Span {
  lo: u32,
  hi: u32,
  share: f32,
}

fn stopSpan(u: f32, n: u32, colour: bool) -> Span {
  if (n <= 1u) { return Span(0u, 0u, 0.0); }
  var i = 0u;
  while (i + 2u < n && u >= select(params.stops[i + 1u].widthAt, params.stops[i + 1u].colorAt, colour)) { i++; }
  let a = select(params.stops[i].widthAt, params.stops[i].colorAt, colour);
  let span = select(params.stops[i + 1u].widthAt, params.stops[i + 1u].colorAt, colour) - a;
  let share = select(select(0.0, 1.0, u >= a), (u - a) / span, span > 0.0);
  return Span(i, i + 1u, clamp(share, 0.0, 1.0));
}

fn widthAt(u: f32) -> f32 {
  let s = stopSpan(u, params.widthStops, false);
  return mix(params.stops[s.lo].width, params.stops[s.hi].width, s.share);
}

fn colorAt(u: f32) -> vec4f {
  let s = stopSpan(u, params.colorStops, true);
  return mix(params.stops[s.lo].color, params.stops[s.hi].color, s.share);
}

// The k-th newest sample of `slot`'s ring.
fn sampleAt(slot: u32, head: TrailHead, k: u32) -> vec3f {
  let length = params.length;
  return samples[slot * length + (head.next + length - 1u - k) % length].xyz;
}

fn clipOf(p: vec3f) -> vec4f {
  return params.viewProjection * vec4f(p, 1.0);
}

// Device pixels from the centre, y up (as clip space).
fn pixelsOf(clip: vec4f) -> vec2f {
  return clip.xy / clip.w * 0.5 * params.viewport.xy;
}

// One triangle strip for the whole draw, 2 * length + 2 vertices a slot:
// its first and last vertices repeated, so the triangles joining one slot's
// ribbon to the next have no area. Vertex 2k + 1 + side is sample k's, on
// that side. A strip shades each vertex once where pulled quads shade the
// shared corners again (6 vertices a segment against 2 a sample).
@vertex
fn trailVertex(@builtin(vertex_index) index: u32) -> TrailOut {
  var out: TrailOut;
  out.clip = OUTSIDE_CLIP;
  out.along = 0.0;
  let perSlot = 2u * params.length + 2u;
  let slot = index / perSlot;
  let local = clamp(index % perSlot, 1u, 2u * params.length) - 1u;
  if (slot >= params.count) { return out; }
  let head = heads[slot];
  if (HAS_LIFE) {
    let record = life[slot];
    if (record.alive == 0u || record.generation != head.generation) { return out; }
  }
  if (head.count < 2u) { return out; }
  // Samples the ring does not hold yet fold onto its oldest: no area.
  let k = min(local >> 1u, head.count - 1u);
  let here = clipOf(sampleAt(slot, head, k));
  let newer = clipOf(sampleAt(slot, head, select(k - 1u, k, k == 0u)));
  let older = clipOf(sampleAt(slot, head, min(k + 1u, head.count - 1u)));
  if (here.w <= 1e-5 || newer.w <= 1e-5 || older.w <= 1e-5) { return out; }
  // The side from the neighbours' direction on screen: both segments meeting
  // at a sample share its two vertices, so the ribbon bends without cracks.
  let toOlder = pixelsOf(older) - pixelsOf(newer);
  let pixels = length(toOlder);
  let axis = select(vec2f(1.0, 0.0), toOlder / pixels, pixels > 1e-6);
  let side = vec2f(-axis.y, axis.x);
  let u = f32(k) / f32(params.length - 1u);
  let halfWidth = 0.5 * params.width * widthAt(u) * params.viewport.z / here.w;
  let offset = side * (f32(local & 1u) * 2.0 - 1.0) * halfWidth;
  out.clip = vec4f(here.xy + offset * 2.0 / params.viewport.xy * here.w, here.z, here.w);
  out.along = u;
  return out;
}

@fragment
fn trailFragment(in: TrailOut) -> @location(0) vec4f {
  let c = colorAt(in.along);
  // Premultiplied, as the blend states expect.
  return vec4f(c.rgb * c.a * params.intensity, c.a);
}
