// Generated from src/core/schema.ts: 8 bytes
struct ScanParams {
  count: u32, // offset 0
  blocks: u32, // offset 4
}
// Exclusive prefix sum of u32 counts, in place, in blocks of 1,024 (256
// invocations x 4 items): `scanBlocks` scans each block and writes its total
// to `blockSums`; the block sums are scanned the same way one level up; then
// `addOffsets` adds each block's scanned offset back. Integer arithmetic: the
// result does not depend on scheduling.

const THREADS: u32 = 256u;
const ITEMS: u32 = 4u;
const BLOCK: u32 = 1024u;

// ScanParams: generated from src/gpu/passParams.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> blockSums: array<u32>;
@group(0) @binding(2) var<uniform> params: ScanParams;

var<workgroup> partial: array<u32, THREADS>;

fn blockIndex(workgroup: vec3u, workgroups: vec3u) -> u32 {
  return workgroup.y * workgroups.x + workgroup.x;
}

@compute @workgroup_size(THREADS)
fn scanBlocks(
  @builtin(workgroup_id) workgroup: vec3u,
  @builtin(num_workgroups) workgroups: vec3u,
  @builtin(local_invocation_index) local: u32,
) {
  let block = blockIndex(workgroup, workgroups);
  if (block >= params.blocks) { return; }
  let first = block * BLOCK + local * ITEMS;
  var items: array<u32, ITEMS>;
  var sum = 0u;
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    items[k] = select(0u, data[min(at, params.count - 1u)], at < params.count);
    sum += items[k];
  }
  partial[local] = sum;
  workgroupBarrier();
  // Hillis-Steele inclusive scan of the 256 thread sums.
  for (var offset = 1u; offset < THREADS; offset *= 2u) {
    var add = 0u;
    if (local >= offset) { add = partial[local - offset]; }
    workgroupBarrier();
    partial[local] += add;
    workgroupBarrier();
  }
  var running = partial[local] - sum;
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    if (at < params.count) { data[at] = running; }
    running += items[k];
  }
  if (local == THREADS - 1u) { blockSums[block] = partial[local]; }
}

@compute @workgroup_size(THREADS)
fn addOffsets(
  @builtin(workgroup_id) workgroup: vec3u,
  @builtin(num_workgroups) workgroups: vec3u,
  @builtin(local_invocation_index) local: u32,
) {
  let block = blockIndex(workgroup, workgroups);
  if (block >= params.blocks) { return; }
  let offset = blockSums[block];
  let first = block * BLOCK + local * ITEMS;
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    if (at < params.count) { data[at] += offset; }
  }
}
