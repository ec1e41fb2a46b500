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
