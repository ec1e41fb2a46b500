// Depth sorting for alpha-blended draws (src/render/depthSort.ts): the slots
// of `count` particles ordered back to front by view depth, ties by slot, as
// the CPU reference orders them (src/core/depthSort.ts). An LSD radix sort of
// 32-bit keys, 8 bits a pass (4 passes), each pass a histogram, one scan and a
// scatter. Each invocation owns one chunk of `chunkSize` consecutive entries
// and walks it in order, so the scatter is stable without any ranking inside
// a workgroup: SwiftShader pays per invocation and per dispatch, and a serial
// walk keeps both few (12 dispatches a sort, about count / chunkSize
// invocations a pass). The first pass makes the keys and writes the slots
// in slot order, so stability breaks ties by slot.
// Prepended: the Particle and Life structs and accessors, the dispatch
// helper, the DepthSortParams and SortDigit blocks (src/render/depthSort.ts),
// shaders/shared/workgroupScan.wgsl.

const RADIX: u32 = 256u;
// A system with emitters: every slot is sorted, the free ones (life.alive 0)
// keyed last, so the first `live` sorted slots are the live ones, back to front.
override LIVE: bool = false;
const DEAD_KEY: u32 = 0xffffffffu;

@group(0) @binding(0) var<uniform> params: DepthSortParams;
@group(0) @binding(1) var<uniform> digit: SortDigit;
@group(0) @binding(3) var<storage, read> keysIn: array<u32>;
@group(0) @binding(4) var<storage, read> slotsIn: array<u32>;
@group(0) @binding(5) var<storage, read_write> keysOut: array<u32>;
@group(0) @binding(6) var<storage, read_write> slotsOut: array<u32>;
// Digit-major: counts[d * chunks + chunk], a chunk's tally of digit d, then (after scan) where its first goes.
@group(0) @binding(7) var<storage, read_write> counts: array<u32>;
// The life records (LIVE; else a placeholder, never read).
@group(0) @binding(8) var<storage, read> life: array<Life>;

// A u32 that orders as the depth does, reversed (ascending keys run back to
// front): the float's bits with the sign bit set for positives, all flipped for
// negatives, then flipped. depthKey in src/core/depthSort.ts.
fn depthKey(depth: f32) -> u32 {
  let bits = bitcast<u32>(depth);
  let ordered = select(bits | 0x80000000u, ~bits, (bits & 0x80000000u) != 0u);
  return ~ordered;
}

// The key of the particle in `slot`, from the position drawn (particles.wgsl's particleLook).
fn keyOf(slot: u32) -> u32 {
  // Only the two lanes read (each load is guarded on SwiftShader): position | inverse mass, velocity | damping.
  var p: Particle;
  p.positionInverseMass = particlePositionInverseMass(slot);
  p.velocityDamping = particleVelocityDamping(slot);
  let moving = getInverseMass(p) > 0.0;
  let velocity = select(vec3f(0.0), getVelocity(p), moving);
  let position = getPosition(p) + velocity * params.extrapolate;
  let row = params.depthRow;
  let depth = row.x * position.x + row.y * position.y + row.z * position.z + row.w;
  return depthKey(depth);
}

fn chunkEnd(start: u32) -> u32 {
  return min(start + params.chunkSize, params.count);
}

// The first pass's histogram, the keys made on the way: each chunk's keys
// and slots (in slot order) into keysOut and slotsOut, and its tally of the
// lowest digit. Fused, because SwiftShader pays per invocation: one
// invocation a particle cost more than this whole walk.
@compute @workgroup_size(WORKGROUP_SIZE)
fn keysHistogram(invocation: Invocation) {
  let chunk = flatIndex(invocation);
  if (chunk >= params.chunks) { return; }
  var tally: array<u32, RADIX>;
  let start = chunk * params.chunkSize;
  let end = chunkEnd(start);
  for (var slot = start; slot < end; slot++) {
    var key = DEAD_KEY;
    if (!LIVE || life[slot].alive != 0u) { key = keyOf(slot); }
    keysOut[slot] = key;
    slotsOut[slot] = slot;
    tally[key & (RADIX - 1u)] += 1u;
  }
  for (var d = 0u; d < RADIX; d++) {
    counts[d * params.chunks + chunk] = tally[d];
  }
}

// A chunk's tally of this pass's digit (the passes after the first).
@compute @workgroup_size(WORKGROUP_SIZE)
fn histogram(invocation: Invocation) {
  let chunk = flatIndex(invocation);
  if (chunk >= params.chunks) { return; }
  var tally: array<u32, RADIX>;
  let start = chunk * params.chunkSize;
  let end = chunkEnd(start);
  for (var i = start; i < end; i++) {
    let d = (keysIn[i] >> digit.shift) & (RADIX - 1u);
    tally[d] += 1u;
  }
  for (var d = 0u; d < RADIX; d++) {
    counts[d * params.chunks + chunk] = tally[d];
  }
}

const_assert RADIX == SCAN_LANES;

// One workgroup, one invocation a digit: the exclusive prefix sum of the
// digit-major tallies, in place, so counts[d * chunks + chunk] becomes where
// that chunk's first entry of digit d goes.
@compute @workgroup_size(RADIX)
fn scan(@builtin(local_invocation_index) d: u32) {
  let base = d * params.chunks;
  var total = 0u;
  for (var c = 0u; c < params.chunks; c++) {
    total += counts[base + c];
  }
  // Where digit d starts: the totals of the digits below it (shaders/shared/workgroupScan.wgsl).
  var at = workgroupInclusiveScan(d, total) - total;
  for (var c = 0u; c < params.chunks; c++) {
    let n = counts[base + c];
    counts[base + c] = at;
    at += n;
  }
}

// Each chunk's entries to their places, in order: stable.
@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter(invocation: Invocation) {
  let chunk = flatIndex(invocation);
  if (chunk >= params.chunks) { return; }
  var next: array<u32, RADIX>;
  for (var d = 0u; d < RADIX; d++) {
    next[d] = counts[d * params.chunks + chunk];
  }
  let start = chunk * params.chunkSize;
  let end = chunkEnd(start);
  for (var i = start; i < end; i++) {
    let key = keysIn[i];
    let d = (key >> digit.shift) & (RADIX - 1u);
    let at = next[d];
    next[d] = at + 1u;
    keysOut[at] = key;
    slotsOut[at] = slotsIn[i];
  }
}
