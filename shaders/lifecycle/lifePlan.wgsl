// The lifecycle's bookkeeping, one workgroup (integer arithmetic on a few
// counters, no atomics, so deterministic): planEmit, in the pass of the
// deaths' scan's top level (a single block, scanned here first:
// shaders/shared/blockScan.wgsl), before the compaction, which reads this step's
// counts back from what it leaves: this step's deaths, the emitters' requests
// (rate as a 32.32 fixed-point carry, bursts as cumulative totals), how many
// fit in the free list (children first, then the emitters, in order; the
// rest is the shortfall), the draw arguments, and the 64-bit totals. The live
// list stays where it is (the parity does not change): the fill closes its
// holes and the emission appends to it.
// Mirrored by src/core/emitters/lifecycle.ts (planEmit).
// Prepended: the lifecycle records, SCAN_BLOCK from src/gpu/lifecycle/lifeBuffers.ts, shaders/shared/blockScan.wgsl,
// shaders/lifecycle/blockInput.wgsl and the draw arguments' offsets (ARGS in src/shaders/indirectArgs.ts).

override CAPACITY: u32;
// Two at least (src/gpu/lifecycle/lifeBuffers.ts, scanLevels).
override SCAN_LEVELS: u32 = 2u;

@group(0) @binding(0) var<storage, read_write> counters: LifeCounters;
@group(0) @binding(1) var<storage, read_write> args: array<u32>;
// The scan's top level: its items (the level below's block sums) and their scan.
@group(0) @binding(2) var<storage, read> input: array<vec4u>;
@group(0) @binding(3) var<storage, read_write> output: array<vec4u>;
@group(1) @binding(0) var<uniform> frame: FrameParams;

fn add64(total: vec2u, n: u32) -> vec2u {
  let low = total.x + n;
  return vec2u(low, total.y + select(0u, 1u, low < n));
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
  // The deaths and collision events with a record (shaders/lifecycle/compact.wgsl), for emit's findParent.
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
  counters.steps += 1u;
  counters.shortfall = add64(counters.shortfall, shortfall);

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
