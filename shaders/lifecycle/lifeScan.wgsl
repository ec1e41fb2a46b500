// Exclusive prefix sum of (deaths, children, records, 0) over the words of the
// death bits (32 live indices a word), in blocks of SCAN_BLOCK. The counts
// come from the GPU: level 0 holds ceil(live / 32) items, level l+1 one item
// per block of level l, and each level is dispatched with as many workgroups
// as a full pool has blocks, those past the live count's returning at once,
// so the work follows the live count / 32. Level 0 is counted and scanned by the countDeaths pass
// (shaders/lifecycle/countDeaths.wgsl), the top level (a single block) by planEmit's
// (shaders/lifecycle/lifePlan.wgsl), whose total is the step's; this file scans the
// levels between (in pools of more than 2^25 slots, with blocks of 1,024).
// `scanBlocks` scans each block of `input` into `output` (shaders/shared/blockScan.wgsl)
// and writes the block's total to `sums` (the next level's input).
// `addOffsets` then adds each block's scanned offset (`sums` bound to the level
// above's output) back down to level 1; level 0 keeps its block-local sums and
// the compaction adds level 1's offsets as it reads them. Integer arithmetic:
// the result does not depend on scheduling.
// Prepended: the lifecycle records, SCAN_BLOCK from src/gpu/lifecycle/lifeBuffers.ts (which sizes the levels),
// shaders/shared/blockScan.wgsl, shaders/lifecycle/blockInput.wgsl.

// ScanLevel: generated from src/shaders/params.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read> input: array<vec4u>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4u>;
@group(0) @binding(2) var<storage, read_write> sums: array<vec4u>;
@group(0) @binding(3) var<storage, read> counters: LifeCounters;
@group(0) @binding(4) var<uniform> scan: ScanLevel;

// Items at this level: the words over the live list of `live` particles, then one per block of the level below.
fn levelCount(live: u32) -> u32 {
  var n = (live + 31u) / 32u;
  for (var l = 0u; l < scan.level; l++) { n = (n + SCAN_BLOCK - 1u) / SCAN_BLOCK; }
  return n;
}

@compute @workgroup_size(THREADS)
fn scanBlocks(@builtin(workgroup_id) workgroup: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let count = levelCount(counters.live);
  let block = workgroup.x;
  // A block past the level's items (direct dispatch sizes each level for a full pool) returns at once: its
  // writes would land past what the next level reads. Uniform across the workgroup (read-only storage and
  // the workgroup id), so the barriers in scanBlockItems stay uniform.
  if (block * SCAN_BLOCK >= count) { return; }
  let total = scanBlockItems(block, localIndex, count);
  if (localIndex == 0u) { sums[block] = total; }
}

@compute @workgroup_size(THREADS)
fn addOffsets(@builtin(workgroup_id) workgroup: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  // After planEmit, which has set the live count to the next step's: this step's is its survivors and deaths.
  let count = levelCount(counters.liveBase + counters.deaths);
  let block = workgroup.x;
  if (block * SCAN_BLOCK >= count) { return; }
  let offset = sums[block];
  let first = block * SCAN_BLOCK + localIndex * ITEMS;
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    if (at < count) { output[at] = addCounts(output[at], offset); }
  }
}
