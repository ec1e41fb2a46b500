// The live list closes its holes in place: one invocation per death of this
// step (indirect dispatch, the count planEmit wrote). With L live before the
// step and D deaths, the survivors end up in [0, L - D): invocation i looks at
// tail position p = L - D + i; a survivor there moves into the hole whose rank
// among the holes (deaths below L - D, in order) is its rank among the tail's
// survivors. Every move follows from the deaths' live indices (in order, in
// `dead` from DEAD_INDEX_AT: shaders/compact.wgsl) by binary search, so the list is the same
// whatever order the invocations run in; nothing before a hole moves, and the
// cost follows the deaths. The emission then appends at L - D.
// Mirrored by src/core/emitters/lifecycle.ts (fill).
// Prepended: the lifecycle records, shaders/dispatch.wgsl.

override CAPACITY: u32;
override DEAD_INDEX_AT: u32;

@group(1) @binding(0) var<storage, read_write> liveLists: array<u32>;
@group(1) @binding(1) var<storage, read> dead: array<u32>;
@group(1) @binding(2) var<storage, read> counters: LifeCounters;

fn deadIndex(d: u32) -> u32 {
  return dead[DEAD_INDEX_AT + d];
}

// Deaths with a live index below k (the indices increase).
fn deathsBelow(k: u32) -> u32 {
  var low = 0u;
  var high = counters.deaths;
  while (low < high) {
    let middle = (low + high) / 2u;
    if (deadIndex(middle) < k) {
      low = middle + 1u;
    } else {
      high = middle;
    }
  }
  return low;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let i = particleIndex(invocation);
  if (i >= counters.deaths) { return; }
  // planEmit wrote liveBase = L - D, the survivors.
  let survivors = counters.liveBase;
  let p = survivors + i;
  let below = deathsBelow(p);
  if (below < counters.deaths && deadIndex(below) == p) { return; }
  // Tail survivors before p: i minus the tail's deaths before it.
  let rank = i - (below - deathsBelow(survivors));
  let list = counters.parity * CAPACITY;
  liveLists[list + deadIndex(rank)] = liveLists[list + p];
}
