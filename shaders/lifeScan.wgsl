// Exclusive prefix sum of (deaths, children, records, 0) over the words of the
// death bits (shaders/deathWords.wgsl: 32 live indices a word), in blocks of
// SCAN_BLOCK. The counts come from the GPU: level 0 holds ceil(live / 32) items,
// level l+1 one item per block of level l, and each level is dispatched
// indirectly with as many workgroups as it has blocks, so the cost follows
// the live count / 32, not the capacity.
// `scanBlocks` scans each block of `input` into `output` and writes the
// block's total to `sums` (the next level's input; the top level's single
// sum is the grand total); `addOffsets` then adds each block's scanned
// offset (`sums` bound to the level above's output) back down to level 1;
// level 0 keeps its block-local sums and the compaction adds level 1's
// offsets as it reads them. Integer arithmetic: the result does not depend
// on scheduling.
// Prepended: the lifecycle records, SCAN_BLOCK from src/gpu/lifeBuffers.ts (which sizes the levels).

// 64 invocations of SCAN_BLOCK / 64 (16) consecutive items: each scans its items serially,
// invocation 0 scans the 64 invocation sums, and a block needs two barriers
// (a log-step scan needs two per step: 12 here, and a software adapter pays
// for every barrier of every workgroup).
const THREADS: u32 = 64u;
const ITEMS: u32 = SCAN_BLOCK / THREADS;
const_assert SCAN_BLOCK % THREADS == 0u;

// ScanLevel: generated from src/gpu/passParams.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read> input: array<vec4u>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4u>;
@group(0) @binding(2) var<storage, read_write> sums: array<vec4u>;
@group(0) @binding(3) var<storage, read> counters: LifeCounters;
@group(0) @binding(4) var<uniform> scan: ScanLevel;

var<workgroup> partial: array<vec4u, THREADS>;

// Items at this level: the words over the live list, then one per block of the level below.
fn levelCount() -> u32 {
  var n = (counters.live + 31u) / 32u;
  for (var l = 0u; l < scan.level; l++) { n = (n + SCAN_BLOCK - 1u) / SCAN_BLOCK; }
  return n;
}

@compute @workgroup_size(THREADS)
fn scanBlocks(@builtin(workgroup_id) workgroup: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let count = levelCount();
  let block = workgroup.x;
  // A block past the level's items (direct dispatch sizes each level for a full pool) returns at once: its
  // writes would land past what the next level reads. Uniform across the workgroup (read-only storage and
  // the workgroup id), so the barriers below stay uniform.
  if (block * SCAN_BLOCK >= count) { return; }
  let first = block * SCAN_BLOCK + localIndex * ITEMS;
  var items: array<vec4u, ITEMS>;
  var sum = vec4u(0u);
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    items[k] = select(vec4u(0u), input[min(at, count - 1u)], at < count);
    sum = addCounts(sum, items[k]);
  }
  partial[localIndex] = sum;
  workgroupBarrier();
  // Exclusive scan of the invocation sums, serially; the block's total last.
  if (localIndex == 0u) {
    var running = vec4u(0u);
    for (var t = 0u; t < THREADS; t++) {
      let own = partial[t];
      partial[t] = running;
      running = addCounts(running, own);
    }
    sums[block] = running;
  }
  workgroupBarrier();
  var running = partial[localIndex];
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    if (at < count) { output[at] = running; }
    running = addCounts(running, items[k]);
  }
}

@compute @workgroup_size(THREADS)
fn addOffsets(@builtin(workgroup_id) workgroup: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let count = levelCount();
  let block = workgroup.x;
  if (block * SCAN_BLOCK >= count) { return; }
  let offset = sums[block];
  let first = block * SCAN_BLOCK + localIndex * ITEMS;
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    if (at < count) { output[at] = addCounts(output[at], offset); }
  }
}
