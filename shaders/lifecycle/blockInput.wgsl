// A scan level's items from `input` (shaders/shared/blockScan.wgsl's blockItem), for
// shaders/lifecycle/lifeScan.wgsl (the levels between the first and the top) and
// shaders/lifecycle/lifePlan.wgsl (the top), which declare `input`: the block sums of
// the level below. Past the level's `count` items zero, read at a clamped
// index (no branch).
fn blockItem(at: u32, count: u32) -> vec4u {
  return select(vec4u(0u), input[min(at, max(count, 1u) - 1u)], at < count);
}
