// Generated from src/core/schema.ts: 160 bytes
struct GridParams {
  viewProjection: mat4x4f, // offset 0
  origin: vec4f, // offset 64: centre xyz, w: half the side
  axisU: vec4f, // offset 80: first in-plane axis (unit), w: line spacing
  axisV: vec4f, // offset 96: second in-plane axis (unit), w: a major line every n lines
  lineColor: vec4f, // offset 112
  planeColor: vec4f, // offset 128
  fadeColor: vec4f, // offset 144: the background the rim fades into
}
// A square of plane with an anti-aliased grid on it, fading into the
// background at its rim: the ground (or a backdrop) that particles are
// depth-tested against. Opaque; it writes depth.
// Prepended: the GridParams struct generated from src/render/gridPass.ts.

@group(0) @binding(0) var<uniform> grid: GridParams;

struct GridOut {
  @builtin(position) clip: vec4f,
  // World units from the centre along axisU and axisV.
  @location(0) uv: vec2f,
}

@vertex
fn gridVertex(@builtin(vertex_index) vertex: u32) -> GridOut {
  let corner = vec2f(f32(vertex & 1u), f32(vertex >> 1u)) * 2.0 - 1.0;
  let uv = corner * grid.origin.w;
  let world = grid.origin.xyz + grid.axisU.xyz * uv.x + grid.axisV.xyz * uv.y;
  var out: GridOut;
  out.clip = grid.viewProjection * vec4f(world, 1.0);
  out.uv = uv;
  return out;
}

// 1 on a grid line one pixel wide (at any distance), 0 between lines.
fn lineMask(coordinate: vec2f, width: vec2f) -> f32 {
  let distance = abs(fract(coordinate - 0.5) - 0.5) / max(width, vec2f(1e-6));
  return 1.0 - min(min(distance.x, distance.y), 1.0);
}

@fragment
fn gridFragment(in: GridOut) -> @location(0) vec4f {
  let minorCoordinate = in.uv / grid.axisU.w;
  let majorCoordinate = minorCoordinate / grid.axisV.w;
  let minorWidth = fwidth(minorCoordinate);
  // Minor lines closer than a few pixels fade out instead of turning into moire.
  let minorFade = 1.0 - smoothstep(0.15, 0.4, max(minorWidth.x, minorWidth.y));
  let minor = lineMask(minorCoordinate, minorWidth) * minorFade;
  let major = lineMask(majorCoordinate, fwidth(majorCoordinate));
  var color = mix(grid.planeColor.rgb, grid.lineColor.rgb, max(minor * 0.45, major));
  let rim = smoothstep(0.5, 1.0, length(in.uv) / grid.origin.w);
  color = mix(color, grid.fadeColor.rgb, rim);
  return vec4f(color, 1.0);
}
