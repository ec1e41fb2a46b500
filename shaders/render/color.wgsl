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
