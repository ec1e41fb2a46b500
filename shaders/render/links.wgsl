// Links between particles (springs, a cloth's threads) drawn straight from the
// simulation's storage buffer of Particle records: no readback, no copy. A link
// is a pair of particle indices (or a particle and a fixed anchor, b =
// ANCHORED_END) and a rest length; each is a quad of constant
// pixel width (6 vertices, one non-instanced draw: see particles.wgsl for why)
// between the two particles' positions, which are read in the vertex shader.
// Coloured by stretch: the link's colour at its rest length or shorter, turning
// to stretchColor as its strain (length / rest length - 1) reaches stretchRange.
// Prepended: the Particle struct and accessors generated from src/core/layout.ts,
// the DrawnLink and LinkParams structs generated from src/render/linkPass.ts, and
// shaders/render/color.wgsl and shaders/render/segment.wgsl.

@group(0) @binding(0) var<uniform> params: LinkParams;
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
  let particleCount = particleCount();
  let anchored = ends.b == ANCHORED_END;
  if (ends.a >= particleCount || (!anchored && ends.b >= particleCount)) { return out; }
  let a = drawnPosition(particleAt(ends.a));
  var b = ends.anchor;
  if (!anchored) { b = drawnPosition(particleAt(ends.b)); }
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
