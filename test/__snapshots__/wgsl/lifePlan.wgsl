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
const ARGS_LIVE: u32 = 0u;
const ARGS_EMIT: u32 = 4u;
const ARGS_DRAW_QUADS: u32 = 8u;
const ARGS_DRAW_INSTANCED: u32 = 12u;
const ARGS_DRAW_POINTS: u32 = 16u;
const ARGS_SCAN: u32 = 20u;
// The lifecycle's bookkeeping, one invocation each (integer arithmetic on a
// few counters, no atomics, so deterministic):
// - planStep, before the step: the indirect dispatch sizes of every pass
//   over the live list (forces, step, age, compaction) and of each scan level.
// - planEmit, after the compaction: this step's deaths, the emitters' requests
//   (rate as a 32.32 fixed-point carry, bursts as cumulative totals), how many
//   fit in the free list (children first, then the emitters, in order; the
//   rest is the shortfall), the emission's dispatch, the draw arguments, and
//   the 64-bit totals. It flips the live list: the next step reads the list
//   the compaction and the emission wrote.
// Mirrored by src/core/emitters/lifecycle.ts (planEmit).
// Prepended: the lifecycle records and the argument offsets (ARGS in src/gpu/lifecycleWgsl.ts).

override CAPACITY: u32;
// Invocations per workgroup of the passes over the live list and of the emission.
override WORKGROUP_SIZE: u32 = 64u;
override MAX_PER_DIMENSION: u32 = 65535u;
override SCAN_LEVELS: u32 = 1u;

const SCAN_BLOCK: u32 = 1024u;

@group(0) @binding(0) var<storage, read_write> counters: LifeCounters;
@group(0) @binding(1) var<storage, read_write> args: array<u32>;
// The scan's top level: (survivors, children) over this step's live list.
@group(0) @binding(2) var<storage, read> totals: array<vec2u>;
@group(1) @binding(0) var<uniform> frame: FrameParams;

// Workgroups for `invocations`, as a 2D grid past MAX_PER_DIMENSION (shaders/dispatch.wgsl flattens it).
fn writeDispatch(at: u32, invocations: u32) {
  let groups = (invocations + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
  args[at] = min(groups, MAX_PER_DIMENSION);
  args[at + 1u] = (groups + MAX_PER_DIMENSION - 1u) / MAX_PER_DIMENSION;
  args[at + 2u] = 1u;
}

fn add64(total: vec2u, n: u32) -> vec2u {
  let low = total.x + n;
  return vec2u(low, total.y + select(0u, 1u, low < n));
}

@compute @workgroup_size(1)
fn planStep() {
  writeDispatch(ARGS_LIVE, counters.live);
  var n = counters.live;
  for (var l = 0u; l < SCAN_LEVELS; l++) {
    n = (n + SCAN_BLOCK - 1u) / SCAN_BLOCK;
    args[ARGS_SCAN + 4u * l] = n;
    args[ARGS_SCAN + 4u * l + 1u] = 1u;
    args[ARGS_SCAN + 4u * l + 2u] = 1u;
  }
  counters.steps += 1u;
}

@compute @workgroup_size(1)
fn planEmit() {
  let before = counters.live;
  // No live particle, no scan: its stale total must not count.
  let total = select(vec2u(0u), totals[0], before > 0u);
  let survivors = total.x;
  let deaths = before - survivors;
  counters.deaths = deaths;
  counters.killed = add64(counters.killed, deaths);
  let free = counters.free + deaths;

  // Children first: a full pool delays launches rather than cutting bursts short.
  let childRequests = min(total.y, CAPACITY);
  var shortfall = total.y - childRequests;
  counters.childRequests = childRequests;
  counters.childSequenceBase = counters.childSequence;
  counters.childSequence += total.y;

  var hostRequests = 0u;
  for (var e = 0u; e < frame.emitterCount; e++) {
    let f = frame.emitters[e];
    var state = counters.emitters[e];
    let carried = state.carry + f.incrementFraction;
    var count = f.incrementWhole + select(0u, 1u, carried < state.carry);
    state.carry = carried;
    count += f.burstTotal - state.burstServed;
    state.burstServed = f.burstTotal;
    // More than the capacity can never fit: counted short here, so the sums stay in u32.
    let requests = min(count, CAPACITY);
    shortfall += count - requests;
    state.requests = requests;
    state.start = hostRequests;
    state.sequenceBase = state.sequence;
    state.sequence += count;
    counters.emitters[e] = state;
    hostRequests += requests;
  }
  counters.hostRequests = hostRequests;

  let requests = childRequests + hostRequests;
  let granted = min(requests, free);
  shortfall += requests - granted;
  counters.granted = granted;
  counters.freeTop = free;
  counters.liveBase = survivors;
  counters.free = free - granted;
  counters.live = survivors + granted;
  counters.parity = 1u - counters.parity;
  counters.emitted = add64(counters.emitted, granted);
  counters.shortfall = add64(counters.shortfall, shortfall);

  writeDispatch(ARGS_EMIT, granted);
  // Draws over the live list: vertex pulling (6 vertices a quad), instanced quads, points.
  let live = counters.live;
  args[ARGS_DRAW_QUADS] = 6u * live;
  args[ARGS_DRAW_QUADS + 1u] = 1u;
  args[ARGS_DRAW_QUADS + 2u] = 0u;
  args[ARGS_DRAW_QUADS + 3u] = 0u;
  args[ARGS_DRAW_INSTANCED] = 6u;
  args[ARGS_DRAW_INSTANCED + 1u] = live;
  args[ARGS_DRAW_INSTANCED + 2u] = 0u;
  args[ARGS_DRAW_INSTANCED + 3u] = 0u;
  args[ARGS_DRAW_POINTS] = live;
  args[ARGS_DRAW_POINTS + 1u] = 1u;
  args[ARGS_DRAW_POINTS + 2u] = 0u;
  args[ARGS_DRAW_POINTS + 3u] = 0u;
}
