// The uniform grid, rebuilt on the GPU every step as a counting sort of the
// particles by bucket: `assign` counts each bucket (integer atomics: the
// counts do not depend on the order they land in), `scanChunks`,
// `scanChunkSums` and `addChunkSums` turn the counts into bucket starts,
// `scatter` drops each particle into its bucket's range, and `sortBuckets`
// orders each range by particle index, so the result is sorted by
// (bucket, index) whatever order the atomics ran in.
// The scan is three dispatches: a workgroup scans each chunk of SCAN_CHUNK
// counts, one workgroup scans the chunk totals, and every bucket adds its
// chunk's offset.
// Mirrored by src/core/collisions/grid.ts.
// Prepended: the Particle struct and accessors, shaders/shared/dispatch.wgsl,
// shaders/collisions/gridHash.wgsl, shaders/shared/workgroupScan.wgsl.

const SCAN_CHUNK: u32 = 256u;

// GridParams: generated from src/shaders/params.ts (the schema) and prepended.
@group(1) @binding(0) var<uniform> params: GridParams;
// Bucket starts (bucketCount + 1 entries: the last is the number in the grid).
@group(1) @binding(1) var<storage, read_write> starts: array<u32>;
// Counts per bucket (bucketCount + 1 entries, the last 0), cleared again
// after the scan to serve as scatter's cursors.
@group(1) @binding(2) var<storage, read_write> cursors: array<atomic<u32>>;
// Particle indices sorted by (bucket, index).
@group(1) @binding(3) var<storage, read_write> entries: array<u32>;
// Per particle (the first count entries): its cell, and its bucket in w (-1:
// not in the grid, a dead particle); then the same per entry, in the entries'
// order, so that the contact passes read the cells of a run of entries from
// consecutive addresses.
@group(1) @binding(4) var<storage, read_write> cells: array<vec4i>;
// The scan's chunk totals, then (scanned) each chunk's offset.
@group(1) @binding(5) var<storage, read_write> chunkSums: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn assign(invocation: Invocation) {
  let i = particleIndex(invocation);
  if (i >= params.count) { return; }
  let particle = particleAt(i);
  if (getRadius(particle) < 0.0) {
    cells[i] = vec4i(0, 0, 0, -1);
    return;
  }
  let cell = cellOf(getPosition(particle), params.inverseCellSize);
  let bucket = bucketOf(cell, params.bucketMask);
  cells[i] = vec4i(cell, i32(bucket));
  atomicAdd(&cursors[bucket], 1u);
}

// The bucketCount + 1 counts, in chunks of SCAN_CHUNK.
fn scannedLength() -> u32 {
  return params.bucketCount + 1u;
}

// The scan: a workgroup of SCAN_CHUNK invocations (WORKGROUP_SIZE is
// SCAN_CHUNK for these entry points) scans SCAN_CHUNK counts with
// workgroupInclusiveScan (shaders/shared/workgroupScan.wgsl).
const_assert SCAN_CHUNK == SCAN_LANES;

// One workgroup a chunk: its counts' exclusive scan, and its total.
// (The builtins one by one, not the Invocation struct: a struct holding the local index is not uniform,
// and the early return must be for the barriers after it.)
@compute @workgroup_size(WORKGROUP_SIZE)
fn scanChunks(
  @builtin(workgroup_id) workgroup: vec3u,
  @builtin(num_workgroups) workgroups: vec3u,
  @builtin(local_invocation_index) local: u32,
) {
  let chunk = workgroup.y * workgroups.x + workgroup.x;
  // Past the last chunk (a 2D grid's rest): the whole workgroup returns, before any barrier.
  if (chunk * SCAN_CHUNK >= scannedLength()) { return; }
  let b = chunk * SCAN_CHUNK + local;
  let inRange = b < scannedLength();
  let n = select(0u, atomicLoad(&cursors[min(b, scannedLength() - 1u)]), inRange);
  let inclusive = workgroupInclusiveScan(local, n);
  if (inRange) { starts[b] = inclusive - n; }
  if (local == SCAN_CHUNK - 1u) { chunkSums[chunk] = inclusive; }
}

// One workgroup: the exclusive scan of the chunk totals, SCAN_CHUNK at a time with a carry.
@compute @workgroup_size(WORKGROUP_SIZE)
fn scanChunkSums(@builtin(local_invocation_index) local: u32) {
  let chunks = (scannedLength() + SCAN_CHUNK - 1u) / SCAN_CHUNK;
  var carry = 0u;
  for (var first = 0u; first < chunks; first += SCAN_CHUNK) {
    let c = first + local;
    let n = select(0u, chunkSums[min(c, chunks - 1u)], c < chunks);
    let inclusive = workgroupInclusiveScan(local, n);
    if (c < chunks) { chunkSums[c] = carry + inclusive - n; }
    carry += scanLanes[SCAN_CHUNK - 1u];
    // Every invocation has read the total before the next round writes `scanLanes`.
    workgroupBarrier();
  }
}

// One invocation a bucket: its chunk's offset.
@compute @workgroup_size(WORKGROUP_SIZE)
fn addChunkSums(invocation: Invocation) {
  let b = particleIndex(invocation);
  if (b >= scannedLength()) { return; }
  starts[b] += chunkSums[b / SCAN_CHUNK];
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter(invocation: Invocation) {
  let i = particleIndex(invocation);
  if (i >= params.count) { return; }
  let bucket = cells[i].w;
  if (bucket < 0) { return; }
  let b = u32(bucket);
  entries[starts[b] + atomicAdd(&cursors[b], 1u)] = i;
}

// One invocation a bucket: an insertion sort of its (few) entries by index,
// then their cells in the same order.
@compute @workgroup_size(WORKGROUP_SIZE)
fn sortBuckets(invocation: Invocation) {
  let b = particleIndex(invocation);
  if (b >= params.bucketCount) { return; }
  let first = starts[b];
  let end = starts[b + 1u];
  for (var s = first + 1u; s < end; s++) {
    let moving = entries[s];
    var t = s;
    while (t > first && entries[t - 1u] > moving) {
      entries[t] = entries[t - 1u];
      t--;
    }
    entries[t] = moving;
  }
  for (var s = first; s < end; s++) {
    cells[params.count + s] = cells[entries[s]];
  }
}
