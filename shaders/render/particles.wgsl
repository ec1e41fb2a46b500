// Draws particles straight from a storage buffer of Particle records: the
// simulation's own state (no readback, no copy), or a history of it.
// Camera-facing quads (a soft round sprite, or a spark stretched along the
// velocity), or one point per particle.
// Prepended: the Particle struct and accessors generated from src/core/layout.ts,
// the DrawParams struct generated from src/render/particleLook.ts, the
// CurveSet and SpriteParams structs generated from src/core/look/records.ts,
// and shaders/render/color.wgsl. Appended: the source of the particles drawn, which
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
// The look (src/core/look): curves over life from the curve sets; sprites
// from the sprite texture (else the analytic soft round); 0: screen-aligned,
// 1: velocity-aligned; soft particles against the scene's depth.
override CURVES: bool = false;
override TEXTURED: bool = false;
override ORIENT: u32 = 0u;
override SOFT: bool = false;

@group(0) @binding(0) var<uniform> params: DrawParams;
// Group 1, the look (src/render/lookBinding.ts). Curve set 0 is the draw's;
// 1 + r is spawn rule r's (the draw's where the table is shorter).
@group(1) @binding(0) var<storage, read> curveSets: array<CurveSet>;
@group(1) @binding(1) var<uniform> sprite: SpriteParams;
@group(1) @binding(2) var spriteTexture: texture_2d<f32>;
@group(1) @binding(3) var spriteSampler: sampler;
@group(1) @binding(4) var sceneDepth: texture_depth_2d;

struct Look {
  position: vec3f,
  velocity: vec3f,
  color: vec3f,
  alpha: f32,
  size: f32,
  visible: bool,
  // Normalised age in [0, 1] (0 for a particle that never dies) and age in
  // seconds, at the drawn time; the spawn rule (0xffffffff: none); the size
  // the life record gives (1 without one); slot and generation, whose hash
  // turns the sprite.
  share: f32,
  age: f32,
  rule: u32,
  scale: f32,
  seed: vec2u,
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
  out.rule = 0xffffffffu;
  out.scale = 1.0;
  out.seed = vec2u(member, 0u);
  if (COLOR_MODE == 1u) {
    out.color = speedColor(length(out.velocity));
  } else {
    let share = f32(member) / f32(max(params.count, 1u));
    out.color = hsv(params.hueOffset + params.hueSpan * share, params.saturation, 1.0);
  }
  return out;
}

// Stop i of curve k's positions in curve set `table` (four a lane, two lanes a
// curve: see CURVE_KIND in src/core/look/records.ts), read where it lies.
fn stopAt(table: u32, k: u32, i: u32) -> f32 {
  return curveSets[table].at[CURVE_LANES * k + i / 4u][i % 4u];
}

// The segment of curve k's n >= 2 positions that t falls in and the share of
// the way along it: the first i with t < at[i + 1] (or the last), a
// zero-length segment (a step) taken whole. The CPU twin: src/core/look/curves.ts.
fn segmentOf(table: u32, k: u32, n: u32, t: f32) -> vec2f {
  var i = 0u;
  while (i + 2u < n && t >= stopAt(table, k, i + 1u)) { i++; }
  let a = stopAt(table, k, i);
  let span = stopAt(table, k, i + 1u) - a;
  let share = select(select(0.0, 1.0, t >= a), clamp((t - a) / span, 0.0, 1.0), span > 0.0);
  return vec2f(f32(i), share);
}

fn valueAt(table: u32, lane: u32, i: u32) -> f32 {
  return curveSets[table].values[lane + i / 4u][i % 4u];
}

// A scalar curve (k: 1 size, its values from lane 0; 2 opacity, from CURVE_LANES).
fn curveAt(table: u32, k: u32, lane: u32, n: u32, t: f32) -> f32 {
  if (n <= 1u) { return valueAt(table, lane, 0u); }
  let s = segmentOf(table, k, n, t);
  let i = u32(s.x);
  return mix(valueAt(table, lane, i), valueAt(table, lane, i + 1u), s.y);
}

// A gradient (k: 0 colour over life, its colours from 0; 3 by speed, from CURVE_SPEED_COLORS).
fn gradientAt(table: u32, k: u32, first: u32, n: u32, t: f32) -> vec4f {
  if (n <= 1u) { return curveSets[table].colors[first]; }
  let s = segmentOf(table, k, n, t);
  let i = first + u32(s.x);
  return mix(curveSets[table].colors[i], curveSets[table].colors[i + 1u], vec4f(s.y));
}

// The curves of the particle's rule (else the draw's) over its life: colour
// over life times colour by speed, size and opacity multipliers.
fn applyCurves(l: Look) -> Look {
  var out = l;
  let table = select(0u, l.rule + 1u, l.rule != 0xffffffffu && l.rule + 1u < arrayLength(&curveSets));
  let stops = curveSets[table].stops;
  var tint = vec4f(1.0);
  if (stops.x > 0u) { tint = gradientAt(table, 0u, 0u, stops.x, l.share); }
  if (stops.w > 0u) {
    let t = clamp(length(l.velocity) / max(curveSets[table].speedRange, 1e-6), 0.0, 1.0);
    tint *= gradientAt(table, 3u, CURVE_SPEED_COLORS, stops.w, t);
  }
  if (stops.x > 0u || stops.w > 0u) {
    out.color = tint.rgb;
    out.alpha = l.alpha * tint.a;
  }
  if (stops.y > 0u) { out.size = params.size * l.scale * curveAt(table, 1u, 0u, stops.y, l.share); }
  if (stops.z > 0u) { out.alpha *= curveAt(table, 2u, CURVE_LANES, stops.z, l.share); }
  return out;
}

// PCG's output hash (RXS-M-XS); the CPU twin: lookHash in src/core/look/sprite.ts.
fn lookHash(x: u32) -> u32 {
  let state = x * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

// The sprite's angle: an initial angle and an angular velocity drawn from a
// hash of the slot and its generation within the ranges (no state: the
// particle record is full), turned for `age` seconds. Twin: spinOf.
fn spriteAngle(l: Look) -> f32 {
  let a = lookHash(l.seed.x ^ (l.seed.y * 0x9e3779b9u));
  let b = lookHash(a);
  let ua = f32(a >> 8u) / 16777216.0;
  let ub = f32(b >> 8u) / 16777216.0;
  return mix(sprite.rotation.x, sprite.rotation.y, ua) + mix(sprite.spin.x, sprite.spin.y, ub) * l.age;
}

// The flipbook cells shown: (column, row) of the frame and of the next, and
// the next's weight. Twin: flipbookFrame in src/core/look/sprite.ts.
fn flipbookCells(l: Look) -> array<vec4f, 2> {
  let frames = max(sprite.frames, 1u);
  let position = select(l.share * sprite.cycles * f32(frames), l.age * sprite.fps, sprite.byFps == 1u);
  let whole = floor(position);
  let lastHeld = sprite.byFps == 0u && position >= sprite.cycles * f32(frames);
  let frame = select(u32(max(whole, 0.0)) % frames, frames - 1u, lastHeld);
  let next = select((frame + 1u) % frames, frame, lastHeld);
  let weight = select(0.0, position - whole, sprite.blendFrames == 1u && !lastHeld);
  let columns = max(sprite.columns, 1u);
  return array<vec4f, 2>(
    vec4f(f32(frame % columns), f32(frame / columns), f32(next % columns), f32(next / columns)),
    vec4f(1.0 / f32(columns), 1.0 / f32(max(sprite.rows, 1u)), weight, 0.0),
  );
}

struct SpriteOut {
  @builtin(position) clip: vec4f,
  // Position in the quad in units of the radius; x runs along a spark.
  @location(0) local: vec2f,
  // Premultiplied colour times intensity, and alpha.
  @location(1) @interpolate(flat) color: vec4f,
  // Half the spark's length between its end caps, in radii (0 for a round sprite).
  @location(2) @interpolate(flat) halfLength: f32,
  // Textured: the flipbook cells (column, row) of this frame and the next,
  // then the cell's size in uv and the next's weight.
  @location(3) @interpolate(flat) cells: vec4f,
  @location(4) @interpolate(flat) cellSize: vec4f,
  // Soft particles: the sprite's clip w, and clip z = depth.x * w + depth.y along the view.
  @location(5) @interpolate(flat) depth: vec4f,
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
  var l = lookOf(select(index / 6u, instance, INSTANCED));
  if (CURVES) { l = applyCurves(l); }
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
  if (SHAPE == 1u || ORIENT == 1u) {
    let tail = params.viewProjection * vec4f(l.position - l.velocity * params.stretch, 1.0);
    if (tail.w > 1e-5) {
      // From the head to the tail, in pixels (y up, as clip space).
      let toTail = (tail.xy / tail.w - head.xy / head.w) * 0.5 * params.viewport.xy;
      let pixels = length(toTail);
      if (pixels > 1e-3) {
        axis = -toTail / pixels;
        halfLength = select(0.0, 0.5 * pixels, SHAPE == 1u);
      }
    }
    // A longer streak spreads about the same light.
    alpha *= radius / (radius + 0.5 * halfLength);
  }
  if (TEXTURED && SHAPE == 0u) {
    // An image turns (the analytic round sprite looks the same at any angle; a
    // spark keeps its axis along the velocity).
    let angle = spriteAngle(l);
    let turn = vec2f(cos(angle), sin(angle));
    axis = vec2f(axis.x * turn.x - axis.y * turn.y, axis.x * turn.y + axis.y * turn.x);
  }
  if (TEXTURED) {
    let cells = flipbookCells(l);
    out.cells = cells[0];
    out.cellSize = cells[1];
  }
  if (SOFT) {
    // Along the view (the gradient of clip w), clip z is affine in w for a
    // perspective projection: z = k * w + b. The fragment shader turns the
    // scene's depth into w with it.
    let m = params.viewProjection;
    let wRow = vec3f(m[0].w, m[1].w, m[2].w);
    let zRow = vec3f(m[0].z, m[1].z, m[2].z);
    let k = dot(zRow, wRow) / max(dot(wRow, wRow), 1e-30);
    out.depth = vec4f(k, head.z - k * head.w, head.w, 0.0);
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
  var color = in.color;
  if (TEXTURED && SHAPE == 0u) {
    // The whole quad is the image, y down in the texture; straight alpha.
    let uv = vec2f(in.local.x, -in.local.y) * 0.5 + 0.5;
    var texel = textureSampleLevel(spriteTexture, spriteSampler, (in.cells.xy + uv) * in.cellSize.xy, 0.0);
    if (in.cellSize.z > 0.0) {
      let next = textureSampleLevel(spriteTexture, spriteSampler, (in.cells.zw + uv) * in.cellSize.xy, 0.0);
      texel = mix(texel, next, in.cellSize.z);
    }
    color = vec4f(color.rgb * texel.rgb, color.a) * texel.a;
  } else {
    if (r2 >= 1.0) { discard; }
    // Soft round: a bright core falling smoothly to zero at the rim.
    color *= exp(-3.0 * r2) * (1.0 - r2);
  }
  if (SOFT) {
    // Fade where the sprite nears the opaque scene behind it (or is behind it).
    let sceneZ = textureLoad(sceneDepth, vec2i(in.clip.xy), 0);
    let denominator = sceneZ - in.depth.x;
    let sceneW = select(1e30, in.depth.y / denominator, abs(denominator) > 1e-12);
    color *= clamp((sceneW - in.depth.z) / max(sprite.softDistance, 1e-6), 0.0, 1.0);
  }
  return color;
}

struct PointOut {
  @builtin(position) clip: vec4f,
  @location(0) @interpolate(flat) color: vec4f,
}

@vertex
fn pointVertex(@builtin(vertex_index) index: u32) -> PointOut {
  var out: PointOut;
  out.clip = OUTSIDE_CLIP;
  var l = lookOf(index);
  if (CURVES) { l = applyCurves(l); }
  if (!l.visible) { return out; }
  out.clip = params.viewProjection * vec4f(l.position, 1.0);
  out.color = vec4f(l.color * l.alpha * params.intensity, l.alpha);
  return out;
}

@fragment
fn pointFragment(in: PointOut) -> @location(0) vec4f {
  return in.color;
}
