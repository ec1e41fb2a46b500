// The live list closes its holes in place: one invocation per death of this
// step (dispatched over the capacity, the invocations past the count planEmit wrote returning at once). With L live before the
// step and D deaths, the survivors end up in [0, L - D): invocation i looks at
// tail position p = L - D + i; a survivor there moves into the hole whose rank
// among the holes (deaths below L - D, in order) is its rank among the tail's
// survivors. Every move follows from the deaths' live indices (in order, in
// `dead` from DEAD_INDEX_AT: shaders/lifecycle/compact.wgsl) and the scan's deaths
// before each word (deathsBelow), so the list is the same
// whatever order the invocations run in; nothing before a hole moves, and the
// cost follows the deaths. The emission then appends at L - D.
// The fill also keeps the inverse map the step's walk over every slot reads
// (shaders/step/denseDispatch.wgsl): a moved survivor's new live index, and each
// birth's, whose slot and index the emission will use (its slot from the
// free list's top, its index L - D + j); so it runs over the deaths or the
// births, whichever are more. A slot that died keeps a stale entry, never
// read: the walk skips slots whose `alive` is 0.
// And it raises the high-water mark past each birth's slot: every live slot
// lies below it, so the step's walk need visit no slot from it on (shaders/step/denseDispatch.wgsl).
// A maximum, so the same whatever order the births run in.
// Mirrored by src/core/emitters/lifecycle.ts (fill; the CPU keeps no map).
// Prepended: the lifecycle records, shaders/shared/dispatch.wgsl, shaders/lifecycle/scannedWords.wgsl.

override CAPACITY: u32;
override DEAD_INDEX_AT: u32;

@group(1) @binding(0) var<storage, read_write> liveLists: array<u32>;
@group(1) @binding(1) var<storage, read> dead: array<u32>;
@group(1) @binding(2) var<storage, read> counters: LifeCounters;
// Per slot, its index in the live list (meaningful for live slots only).
@group(1) @binding(3) var<storage, read_write> liveIndexOf: array<u32>;
@group(1) @binding(4) var<storage, read> freeList: array<u32>;
// One past the highest slot ever live (src/gpu/lifecycle/lifeBuffers.ts, highWater).
@group(1) @binding(5) var<storage, read_write> highWater: atomic<u32>;
// The scan of (deaths, children, records, 0) over the words (shaders/lifecycle/scannedWords.wgsl).
@group(1) @binding(6) var<storage, read> scanned: array<vec4u>;

fn deadIndex(d: u32) -> u32 {
  return dead[DEAD_INDEX_AT + d];
}

// Deaths with a live index below k (k below this step's live count L): those
// of the words before k's, from the scan, then those of k's own word below k,
// from the deaths' indices in order (a word holds at most 32).
// A few independent loads, where a binary search over the deaths' indices was a
// chain of log2(D) dependent ones (on SwiftShader 0.65 against 3.4 ms a fill
// of a churning 2^20 pool at 100% live).
fn deathsBelow(k: u32) -> u32 {
  var d = scannedBefore(k / 32u).x;
  while (d < counters.deaths && deadIndex(d) < k) { d++; }
  return d;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let i = particleIndex(invocation);
  // planEmit wrote liveBase = L - D, the survivors.
  let survivors = counters.liveBase;
  let list = counters.parity * CAPACITY;
  // Birth i (shaders/lifecycle/emit.wgsl, j = i): its slot and live index.
  if (i < counters.granted) {
    let born = freeList[counters.freeTop - 1u - i];
    liveIndexOf[born] = survivors + i;
    // Loaded first: most births reuse a slot below the mark, and a plain load contends less than the max.
    if (born >= atomicLoad(&highWater)) { atomicMax(&highWater, born + 1u); }
  }
  if (i >= counters.deaths) { return; }
  let p = survivors + i;
  let below = deathsBelow(p);
  if (below < counters.deaths && deadIndex(below) == p) { return; }
  // Tail survivors before p: i minus the tail's deaths before it.
  let rank = i - (below - deathsBelow(survivors));
  let hole = deadIndex(rank);
  let slot = liveLists[list + p];
  liveLists[list + hole] = slot;
  liveIndexOf[slot] = hole;
}
