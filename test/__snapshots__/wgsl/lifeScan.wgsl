// Generated from src/core/emitters: 272 bytes a record.
struct SpawnRule {
  shapeX: vec3f, // offset 0
  shape: u32, // offset 12
  shapeY: vec3f, // offset 16
  radius: f32, // offset 28
  shapeZ: vec3f, // offset 32
  height: f32, // offset 44
  halfExtents: vec3f, // offset 48
  tanAngle: f32, // offset 60
  velocityX: vec3f, // offset 64
  velocityMode: u32, // offset 76
  velocityY: vec3f, // offset 80
  oneMinusCosSpread: f32, // offset 92
  velocityZ: vec3f, // offset 96
  speedMin: f32, // offset 108
  boxMin: vec3f, // offset 112
  speedSpan: f32, // offset 124
  boxSpan: vec3f, // offset 128
  speedMax: f32, // offset 140
  boxMax: vec3f, // offset 144
  inherit: f32, // offset 156
  acceleration: vec3f, // offset 160
  collisionRadius: f32, // offset 172
  lifetimeMin: f32, // offset 176
  lifetimeSpan: f32, // offset 180
  lifetimeMax: f32, // offset 184
  massMin: f32, // offset 188
  massSpan: f32, // offset 192
  massMax: f32, // offset 196
  dampingMin: f32, // offset 200
  dampingSpan: f32, // offset 204
  dampingMax: f32, // offset 208
  sizeMin: f32, // offset 212
  sizeSpan: f32, // offset 216
  sizeMax: f32, // offset 220
  color: u32, // offset 224
  seed: u32, // offset 228
  tag: u32, // offset 232
  floor: f32, // offset 236
  payloadRules: vec4u, // offset 240
  payloadCounts: vec4u, // offset 256
}
// Generated from src/core/emitters: 48 bytes a record.
struct EmitterFrame {
  center: vec3f, // offset 0
  incrementWhole: u32, // offset 12
  velocity: vec3f, // offset 16
  incrementFraction: u32, // offset 28
  burstTotal: u32, // offset 32
  pad0: u32, // offset 36
  pad1: u32, // offset 40
  pad2: u32, // offset 44
}
// Generated from src/core/emitters: 1552 bytes a record.
struct FrameParams {
  dt: f32, // offset 0
  emitterCount: u32, // offset 4
  pad0: u32, // offset 8
  pad1: u32, // offset 12
  emitters: array<EmitterFrame, 32>, // offset 16
}
// Generated from src/core/emitters: 32 bytes a record.
struct EmitterState {
  carry: u32, // offset 0
  sequence: u32, // offset 4
  burstServed: u32, // offset 8
  requests: u32, // offset 12
  start: u32, // offset 16
  sequenceBase: u32, // offset 20
  pad0: u32, // offset 24
  pad1: u32, // offset 28
}
// Generated from src/core/emitters: 1120 bytes a record.
struct LifeCounters {
  live: u32, // offset 0
  free: u32, // offset 4
  parity: u32, // offset 8
  steps: u32, // offset 12
  emitted: vec2u, // offset 16
  killed: vec2u, // offset 24
  shortfall: vec2u, // offset 32
  childSequence: u32, // offset 40
  childRequests: u32, // offset 44
  hostRequests: u32, // offset 48
  granted: u32, // offset 52
  freeTop: u32, // offset 56
  liveBase: u32, // offset 60
  deaths: u32, // offset 64
  childSequenceBase: u32, // offset 68
  pad0: u32, // offset 72
  pad1: u32, // offset 76
  pad2: u32, // offset 80
  pad3: u32, // offset 84
  pad4: u32, // offset 88
  pad5: u32, // offset 92
  emitters: array<EmitterState, 32>, // offset 96
}
// Generated from src/core/emitters: 32 bytes a record.
struct Death {
  position: vec3f, // offset 0
  childStart: u32, // offset 12
  velocity: vec3f, // offset 16
  rule: u32, // offset 28
}
const MAX_EMITTERS: u32 = 32u;
const MAX_SPAWN_RULES: u32 = 64u;
const MAX_PAYLOADS: u32 = 4u;
const SHAPE_POINT: u32 = 0u;
const SHAPE_SPHERE: u32 = 1u;
const SHAPE_SPHERESURFACE: u32 = 2u;
const SHAPE_BOX: u32 = 3u;
const SHAPE_DISC: u32 = 4u;
const SHAPE_CONE: u32 = 5u;
const VELOCITY_CONE: u32 = 0u;
const VELOCITY_BOX: u32 = 1u;
// Generated from src/core/schema.ts: 4 bytes
struct ScanLevel {
  level: u32, // offset 0
}
// Exclusive prefix sum of (lives on, children) pairs over the live list, in
// blocks of 1,024. The counts come from the GPU:
// level 0 holds `live` items, level l+1 one item per block of level l, and
// each level is dispatched indirectly with as many workgroups as it has
// blocks, so the cost follows the live count, not the capacity.
// `scanBlocks` scans each block of `input` into `output` and writes the
// block's total to `sums` (the next level's input; the top level's single
// sum is the grand total); `addOffsets` then adds each block's scanned
// offset (`sums` bound to the level above's output) back down to level 1;
// level 0 keeps its block-local sums and the compaction adds level 1's
// offsets as it reads them. Integer arithmetic: the result does not depend
// on scheduling.
// Prepended: the lifecycle records.

// 64 invocations of 16 consecutive items: each scans its items serially,
// invocation 0 scans the 64 invocation sums, and a block needs two barriers
// (a log-step scan needs two per step: 12 here, and a software adapter pays
// for every barrier of every workgroup).
const THREADS: u32 = 64u;
const ITEMS: u32 = 16u;
const BLOCK: u32 = 1024u;

// ScanLevel: generated from src/gpu/passParams.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read> input: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> output: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> sums: array<vec2u>;
@group(0) @binding(3) var<storage, read> counters: LifeCounters;
@group(0) @binding(4) var<uniform> scan: ScanLevel;

var<workgroup> partial: array<vec2u, THREADS>;

// Items at this level: live, then one per block of the level below.
fn levelCount() -> u32 {
  var n = counters.live;
  for (var l = 0u; l < scan.level; l++) { n = (n + BLOCK - 1u) / BLOCK; }
  return n;
}

@compute @workgroup_size(THREADS)
fn scanBlocks(@builtin(workgroup_id) workgroup: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let count = levelCount();
  let block = workgroup.x;
  let first = block * BLOCK + localIndex * ITEMS;
  var items: array<vec2u, ITEMS>;
  var sum = vec2u(0u);
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    items[k] = select(vec2u(0u), input[min(at, count - 1u)], at < count);
    sum += items[k];
  }
  partial[localIndex] = sum;
  workgroupBarrier();
  // Exclusive scan of the invocation sums, serially; the block's total last.
  if (localIndex == 0u) {
    var running = vec2u(0u);
    for (var t = 0u; t < THREADS; t++) {
      let own = partial[t];
      partial[t] = running;
      running += own;
    }
    sums[block] = running;
  }
  workgroupBarrier();
  var running = partial[localIndex];
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    if (at < count) { output[at] = running; }
    running += items[k];
  }
}

@compute @workgroup_size(THREADS)
fn addOffsets(@builtin(workgroup_id) workgroup: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let count = levelCount();
  let block = workgroup.x;
  let offset = sums[block];
  let first = block * BLOCK + localIndex * ITEMS;
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    if (at < count) { output[at] += offset; }
  }
}
