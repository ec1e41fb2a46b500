// Generated from src/core/schema.ts: 64 bytes
struct Particle {
  positionInverseMass: vec4f, // offset 0: position.xyz, inverseMass.w
  velocityDamping: vec4f, // offset 16: velocity.xyz, damping.w
  accelerationRadius: vec4f, // offset 32: acceleration.xyz, radius.w
  forceAccumSpare: vec4f, // offset 48: forceAccum.xyz
}
const LANES_PER_PARTICLE: u32 = 4u;
fn getPosition(p: Particle) -> vec3f { return p.positionInverseMass.xyz; }
fn setPosition(p: ptr<function, Particle>, value: vec3f) { (*p).positionInverseMass = vec4f(value.x, value.y, value.z, (*p).positionInverseMass.w); }
fn getInverseMass(p: Particle) -> f32 { return p.positionInverseMass.w; }
fn setInverseMass(p: ptr<function, Particle>, value: f32) { (*p).positionInverseMass = vec4f((*p).positionInverseMass.x, (*p).positionInverseMass.y, (*p).positionInverseMass.z, value); }
fn getVelocity(p: Particle) -> vec3f { return p.velocityDamping.xyz; }
fn setVelocity(p: ptr<function, Particle>, value: vec3f) { (*p).velocityDamping = vec4f(value.x, value.y, value.z, (*p).velocityDamping.w); }
fn getDamping(p: Particle) -> f32 { return p.velocityDamping.w; }
fn setDamping(p: ptr<function, Particle>, value: f32) { (*p).velocityDamping = vec4f((*p).velocityDamping.x, (*p).velocityDamping.y, (*p).velocityDamping.z, value); }
fn getAcceleration(p: Particle) -> vec3f { return p.accelerationRadius.xyz; }
fn setAcceleration(p: ptr<function, Particle>, value: vec3f) { (*p).accelerationRadius = vec4f(value.x, value.y, value.z, (*p).accelerationRadius.w); }
fn getForceAccum(p: Particle) -> vec3f { return p.forceAccumSpare.xyz; }
fn setForceAccum(p: ptr<function, Particle>, value: vec3f) { (*p).forceAccumSpare = vec4f(value.x, value.y, value.z, (*p).forceAccumSpare.w); }
fn getRadius(p: Particle) -> f32 { return p.accelerationRadius.w; }
fn setRadius(p: ptr<function, Particle>, value: f32) { (*p).accelerationRadius = vec4f((*p).accelerationRadius.x, (*p).accelerationRadius.y, (*p).accelerationRadius.z, value); }
// Shared by every per-particle pass: the workgroup size comes from TypeScript,
// and counts past 65,535 workgroups are dispatched as a 2D grid of workgroups,
// flattened back to one index here (the kernel then checks it against its count).
override WORKGROUP_SIZE: u32 = 64u;

// A kernel's entry point takes `invocation: Invocation` and asks particleIndex for its index.
struct Invocation {
  @builtin(workgroup_id) workgroup: vec3u,
  @builtin(num_workgroups) workgroups: vec3u,
  @builtin(local_invocation_index) local: u32,
}

fn flatIndex(invocation: Invocation) -> u32 {
  return (invocation.workgroup.y * invocation.workgroups.x + invocation.workgroup.x) * WORKGROUP_SIZE + invocation.local;
}

fn particleIndex(invocation: Invocation) -> u32 {
  return flatIndex(invocation);
}

// The uniform grid's cells and their buckets in the hash table, shared by the
// grid build (shaders/grid.wgsl) and the contact passes (shaders/contacts.wgsl).
// Mirrored by src/core/collisions/grid.ts.

// Cells past 2^30 are clamped: still correct (clamping keeps neighbours
// within one cell), only slower where many particles share an edge cell.
const CELL_LIMIT: f32 = 1073741824.0;

// One multiply (correctly rounded on every adapter, and not fusable) then
// floor: the GPU and the CPU twin put every particle in the same cell.
fn cellOf(p: vec3f, inverseCellSize: f32) -> vec3i {
  return vec3i(clamp(floor(p * inverseCellSize), vec3f(-CELL_LIMIT), vec3f(CELL_LIMIT)));
}

// Teschner et al.'s spatial hash, then a xor-shift-multiply mix so the low
// bits the mask keeps depend on every bit of the cell.
fn bucketOf(cell: vec3i, mask: u32) -> u32 {
  var h = (bitcast<u32>(cell.x) * 73856093u) ^ (bitcast<u32>(cell.y) * 19349663u) ^ (bitcast<u32>(cell.z) * 83492791u);
  h = (h ^ (h >> 16u)) * 0x7feb352du;
  h = h ^ (h >> 15u);
  return h & mask;
}

// Generated from src/core/schema.ts: 16 bytes
struct GridParams {
  count: u32, // offset 0
  bucketMask: u32, // offset 4
  inverseCellSize: f32, // offset 8
  bucketCount: u32, // offset 12
}
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
