// The deaths' scan as the compaction (shaders/lifecycle/compact.wgsl) and the fill
// (shaders/lifecycle/fill.wgsl) read it: level 0's block-local exclusive sums of
// (deaths, children, records, 0) over the words of the death bits, plus
// level 1's scanned offset of the word's block (src/gpu/lifecycle/lifeBuffers.ts,
// scanned). Added as they are read rather than written back into level 0 by
// the scan: one pass fewer. The including file binds `scanned`.
// Prepended: the lifecycle records, and SCAN_BLOCK from src/gpu/lifecycle/lifeBuffers.ts.

// Where level 1's scanned block sums, each block's offset, start in `scanned`
// (0: a single level, level 0's sums are already global).
override BLOCK_OFFSETS_AT: u32 = 0u;

// The sums over the words before word `w`.
fn scannedBefore(w: u32) -> vec4u {
  var before = scanned[w];
  if (BLOCK_OFFSETS_AT != 0u) { before = addCounts(before, scanned[BLOCK_OFFSETS_AT + w / SCAN_BLOCK]); }
  return before;
}
