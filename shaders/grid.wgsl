// The uniform grid, rebuilt on the GPU every step as a counting sort of the
// particles by bucket: `assign` counts each bucket (integer atomics: the
// counts do not depend on the order they land in), shaders/scan.wgsl turns
// the counts into bucket starts in place, `scatter` drops each particle into
// its bucket's range, and `sortBuckets` orders each range by particle index,
// so the result is sorted by (bucket, index) whatever order the atomics ran in.
// Mirrored by src/core/collisions/grid.ts.
// Prepended: the Particle struct and accessors, shaders/dispatch.wgsl,
// shaders/gridHash.wgsl.

// GridParams: generated from src/gpu/passParams.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<uniform> params: GridParams;
// Counts per bucket, then (scanned in place) where each bucket starts; bucketCount + 1 entries.
@group(1) @binding(1) var<storage, read_write> starts: array<atomic<u32>>;
@group(1) @binding(2) var<storage, read_write> cursors: array<atomic<u32>>;
// Particle indices sorted by (bucket, index).
@group(1) @binding(3) var<storage, read_write> entries: array<u32>;
// Per particle: its cell, and its bucket in w (-1: not in the grid, a dead particle).
@group(1) @binding(4) var<storage, read_write> cells: array<vec4i>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn assign(invocation: Invocation) {
  let i = particleIndex(invocation);
  if (i >= params.count) { return; }
  let particle = particles[i];
  if (getRadius(particle) < 0.0) {
    cells[i] = vec4i(0, 0, 0, -1);
    return;
  }
  let cell = cellOf(getPosition(particle), params.inverseCellSize);
  let bucket = bucketOf(cell, params.bucketMask);
  cells[i] = vec4i(cell, i32(bucket));
  atomicAdd(&starts[bucket], 1u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter(invocation: Invocation) {
  let i = particleIndex(invocation);
  if (i >= params.count) { return; }
  let bucket = cells[i].w;
  if (bucket < 0) { return; }
  let b = u32(bucket);
  entries[atomicLoad(&starts[b]) + atomicAdd(&cursors[b], 1u)] = i;
}

// One invocation a bucket: an insertion sort of its (few) entries by index.
@compute @workgroup_size(WORKGROUP_SIZE)
fn sortBuckets(invocation: Invocation) {
  let b = particleIndex(invocation);
  if (b >= params.bucketCount) { return; }
  let first = atomicLoad(&starts[b]);
  let end = atomicLoad(&starts[b + 1u]);
  for (var s = first + 1u; s < end; s++) {
    let moving = entries[s];
    var t = s;
    while (t > first && entries[t - 1u] > moving) {
      entries[t] = entries[t - 1u];
      t--;
    }
    entries[t] = moving;
  }
}
