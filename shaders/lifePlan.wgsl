// The lifecycle's bookkeeping, one invocation each (integer arithmetic on a
// few counters, no atomics, so deterministic):
// - planStep, before the step: the indirect dispatch sizes of every pass
//   over the live list (forces, the step and its ageing), of the passes over
//   the words of the death bits (the compaction) and of each scan level below
//   the top (level 0: the deaths' counts, shaders/deathWords.wgsl); and which
//   walk steps: the dense walk in slot order
//   (shaders/denseDispatch.wgsl) over the slots below the high-water mark,
//   where every live slot lies, once 2/3 of those are live, below that the
//   walk over the live list, the other's dispatch empty.
// - planEmit, in the pass of the scan's top level (a single block, scanned
//   here first: shaders/blockScan.wgsl), before the compaction, which reads
//   this step's counts back from what it leaves: this step's deaths, the emitters' requests
//   (rate as a 32.32 fixed-point carry, bursts as cumulative totals), how many
//   fit in the free list (children first, then the emitters, in order; the
//   rest is the shortfall), the fill's and the emission's dispatches, the draw
//   arguments, and the 64-bit totals. The live list stays where it is (the
//   parity does not change): the fill closes its holes and the emission
//   appends to it.
// Mirrored by src/core/emitters/lifecycle.ts (planEmit).
// Prepended: the lifecycle records, SCAN_BLOCK from src/gpu/lifeBuffers.ts, shaders/blockScan.wgsl,
// shaders/blockInput.wgsl and the
// argument offsets (ARGS in src/gpu/lifecycleWgsl.ts).

override CAPACITY: u32;
// Invocations per workgroup of the passes over the live list and of the emission.
override WORKGROUP_SIZE: u32 = 64u;
override MAX_PER_DIMENSION: u32 = 65535u;
// Two at least (src/gpu/lifeBuffers.ts, scanLevels).
override SCAN_LEVELS: u32 = 2u;
// The dense walk's invocations a run at most (a chunk's slots, or the capacity).
override DENSE_SPAN: u32;
// DENSE_BY_HIGH_WATER: the dense walk once all but 1/DENSE_WALK_DIVISOR of the slots below the
// high-water mark are live (src/gpu/lifecycle.ts, DENSE_WALK_DIVISOR and denseWalkFrom); else from
// DENSE_FROM live particles (tests, benchmarks).
override DENSE_BY_HIGH_WATER: bool = true;
override DENSE_WALK_DIVISOR: u32;
override DENSE_FROM: u32 = 0u;
// Direct dispatch (a hardware adapter's, src/gpu/lifeBuffers.ts): no pass reads planStep's arguments, so
// planStep is not recorded and planEmit counts the step, one dispatch fewer a frame.
override STEP_COUNTED_BY_PLAN_EMIT: bool = false;

@group(0) @binding(0) var<storage, read_write> counters: LifeCounters;
@group(0) @binding(1) var<storage, read_write> args: array<u32>;
// One past the highest slot ever live (raised by shaders/fill.wgsl; src/gpu/lifeBuffers.ts, highWater).
@group(0) @binding(2) var<storage, read> highWater: u32;
// The scan's top level: its items (the level below's block sums) and their scan.
@group(0) @binding(3) var<storage, read> input: array<vec4u>;
@group(0) @binding(4) var<storage, read_write> output: array<vec4u>;
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
  // Every live slot lies below the mark, so the dense walk stops there: a pool that never filled
  // (a free list handed out lowest slot first, recycled last in, first out) walks only the slots it used.
  // Chunked, each chunk's run covers its first min(mark, span) slots: a live slot's offset in its chunk
  // is below both.
  let below = highWater;
  var dense = counters.live >= DENSE_FROM;
  // ceil((1 - 1 / DENSE_WALK_DIVISOR) below) without overflow.
  if (DENSE_BY_HIGH_WATER) { dense = counters.live >= below - below / DENSE_WALK_DIVISOR; }
  writeDispatch(ARGS_STEP_LIST, select(counters.live, 0u, dense));
  writeDispatch(ARGS_STEP_DENSE, select(0u, min(below, DENSE_SPAN), dense));
  var n = (counters.live + 31u) / 32u;
  writeDispatch(ARGS_WORDS, n);
  // The levels below the top; the top is a single block, dispatched directly with planEmit.
  for (var l = 0u; l + 1u < SCAN_LEVELS; l++) {
    n = (n + SCAN_BLOCK - 1u) / SCAN_BLOCK;
    args[ARGS_SCAN + ARGS_SCAN_STRIDE * l] = n;
    args[ARGS_SCAN + ARGS_SCAN_STRIDE * l + 1u] = 1u;
    args[ARGS_SCAN + ARGS_SCAN_STRIDE * l + 2u] = 1u;
  }
  counters.steps += 1u;
}

// Items of the scan's top level: the words over the live list, then one per block of the level below.
fn topLevelCount() -> u32 {
  var n = (counters.live + 31u) / 32u;
  for (var l = 1u; l < SCAN_LEVELS; l++) { n = (n + SCAN_BLOCK - 1u) / SCAN_BLOCK; }
  return n;
}

// One workgroup, whatever the live count (planEmit runs every step): the top level's single block, then
// planEmit in invocation 0 from its total, one dispatch where the two were two.
@compute @workgroup_size(THREADS)
fn scanTopAndPlanEmit(@builtin(local_invocation_index) localIndex: u32) {
  let total = scanBlockItems(0u, localIndex, topLevelCount());
  if (localIndex == 0u) { planEmit(total); }
}

// `total`: the scan's (deaths, children, records, 0) over this step's live list (zero with none live).
fn planEmit(total: vec4u) {
  let before = counters.live;
  let deaths = total.x;
  let survivors = before - deaths;
  counters.deaths = deaths;
  // The deaths and collision events with a record (shaders/compact.wgsl), for emit's findParent.
  counters.records = total.z;
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
    // Past the capacity in all, a request can never be served (the first `free` are): counted short here,
    // so the emitters' requests sum to at most the capacity and every sum stays in u32.
    let requests = min(count, CAPACITY - hostRequests);
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
  counters.emitted = add64(counters.emitted, granted);
  if (STEP_COUNTED_BY_PLAN_EMIT) { counters.steps += 1u; }
  counters.shortfall = add64(counters.shortfall, shortfall);

  // The fill moves the survivors and indexes the births (shaders/fill.wgsl).
  writeDispatch(ARGS_FILL, max(deaths, granted));
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
