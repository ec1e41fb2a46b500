// The particles a ParticlePass draws through a depth sort's order
// (src/render/depthSort.ts): the drawn-th particle is the record at
// sortedSlots[drawn], back to front, so alpha blending composes far to near.
// Composed after shaders/render/records.wgsl, in shaders/render/recordOrder.wgsl's
// place: each particle keeps its own colour (by its slot), only the order
// changes. Draws a plain state (sampleStride 1), not a history.

@group(0) @binding(3) var<storage, read> sortedSlots: array<u32>;

fn lookOf(drawn: u32) -> Look {
  return recordLook(sortedSlots[drawn]);
}
