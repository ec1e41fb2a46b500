// One block of SCAN_BLOCK items of a level of the lifecycle's scan of
// (deaths, children, records, 0): the exclusive prefix sums of the items of
// block `block` into `output`, and the block's total. Shared by
// shaders/lifecycle/countDeaths.wgsl (level 0, whose items it counts from the death
// bits), shaders/lifecycle/lifeScan.wgsl (the levels between) and shaders/lifecycle/lifePlan.wgsl
// (the top level, a single block, whose pass then plans the births), which
// declare `output` and `blockItem(at, count)`, item `at` of the level's
// `count` (zero past them; the other two read it from `input`:
// shaders/lifecycle/blockInput.wgsl). Called from uniform control flow (it has
// barriers); `count` (the level's items) may be non-uniform: it only picks
// values. Integer arithmetic: the result does not depend on scheduling.
// Prepended: the lifecycle records, SCAN_BLOCK from src/gpu/lifecycle/lifeBuffers.ts.

// 64 invocations of SCAN_BLOCK / 64 (16) consecutive items: each scans its items serially,
// invocation 0 scans the 64 invocation sums, and a block needs two barriers
// (a log-step scan needs two per step: 12 here, and a software adapter pays
// for every barrier of every workgroup).
const THREADS: u32 = 64u;
const ITEMS: u32 = SCAN_BLOCK / THREADS;
const_assert SCAN_BLOCK % THREADS == 0u;

var<workgroup> partial: array<vec4u, THREADS>;

// The block's total in invocation 0 (zero in the others).
fn scanBlockItems(block: u32, localIndex: u32, count: u32) -> vec4u {
  let first = block * SCAN_BLOCK + localIndex * ITEMS;
  var items: array<vec4u, ITEMS>;
  var sum = vec4u(0u);
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    items[k] = blockItem(at, count);
    sum = addCounts(sum, items[k]);
  }
  partial[localIndex] = sum;
  workgroupBarrier();
  // Exclusive scan of the invocation sums, serially; the block's total last.
  var total = vec4u(0u);
  if (localIndex == 0u) {
    for (var t = 0u; t < THREADS; t++) {
      let own = partial[t];
      partial[t] = total;
      total = addCounts(total, own);
    }
  }
  workgroupBarrier();
  var running = partial[localIndex];
  for (var k = 0u; k < ITEMS; k++) {
    let at = first + k;
    if (at < count) { output[at] = running; }
    running = addCounts(running, items[k]);
  }
  return total;
}
