// The deaths' scan's level 0 (shaders/shared/blockScan.wgsl), its items counted
// here from the death bits over this step's live list (32 live indices a word)
// rather than read: a word's (deaths, children, records, 0), the items the
// scan sums. One workgroup a block of SCAN_BLOCK words (a full pool's blocks
// dispatched, those past the live words returning at once), each invocation counting its ITEMS consecutive
// words, then the block's exclusive sums into `output` (level 0 of `scanned`,
// src/gpu/lifecycle/lifeBuffers.ts) and its total into `sums` (level 1's items; the
// levels above: shaders/lifecycle/lifeScan.wgsl, shaders/lifecycle/lifePlan.wgsl). One pass where
// the counts and level 0's scan were two, each word's counts handed to the
// scan in registers instead of through a buffer. A record is a live index that
// died or had a collision event (its bit in the event bits, shaders/lifecycle/age.wgsl),
// or both; its children are its death payload if it died plus its collision
// payload if it hit. A word with no death costs one load. Each death is also counted in
// its rule's deaths (ruleStats), each event in its rule's hits, here rather than in the compaction, which
// binds as many buffers as a stage may.
// Mirrored by src/core/emitters/lifecycle.ts (scanDeaths).
// Prepended: the Particle struct and accessors, the Life struct, the
// lifecycle records, shaders/lifecycle/lifeDeath.wgsl,
// SCAN_BLOCK from src/gpu/lifecycle/lifeBuffers.ts, shaders/shared/blockScan.wgsl.

override CAPACITY: u32;
override HAS_PAYLOADS: bool = false;
override EVENT_BITS_AT: u32 = 0u;

// Declared for shaders/lifecycle/lifeDeath.wgsl's `dies`; not read here.
@group(1) @binding(0) var<storage, read> life: array<Life>;
@group(1) @binding(1) var<storage, read> liveLists: array<u32>;
// The death bits (the first words of `dead`, src/gpu/lifecycle/lifeBuffers.ts).
@group(1) @binding(2) var<storage, read> deadBits: array<u32>;
// Level 0 of the scan: each word's exclusive sums within its block.
@group(1) @binding(3) var<storage, read_write> output: array<vec4u>;
@group(1) @binding(4) var<storage, read> counters: LifeCounters;
@group(1) @binding(5) var<uniform> rules: array<SpawnRule, MAX_SPAWN_RULES>;
// Births per spawn rule, then deaths, then collision events.
@group(1) @binding(6) var<storage, read_write> ruleStats: array<atomic<u32>>;
// Each block's total: level 1's items.
@group(1) @binding(7) var<storage, read_write> sums: array<vec4u>;

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) workgroup: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let count = (counters.live + 31u) / 32u;
  let block = workgroup.x;
  // A block past the words (direct dispatch sizes the pass for a full pool) returns at once. Uniform
  // across the workgroup (read-only storage and the workgroup id), so the barriers in scanBlockItems
  // stay uniform.
  if (block * SCAN_BLOCK >= count) { return; }
  let total = scanBlockItems(block, localIndex, count);
  if (localIndex == 0u) { sums[block] = total; }
}

// Word w's (deaths, children, records, 0), its deaths and events added to their rules' counts; zero past
// the `count` words, counting nothing.
fn blockItem(w: u32, count: u32) -> vec4u {
  if (w >= count) { return vec4u(0u); }
  let bits = deadBits[w];
  let hits = deadBits[EVENT_BITS_AT + w];
  var children = 0u;
  var rest = bits | hits;
  // The word's deaths and events are added to their rule's counts once a run of records of one rule, not once a
  // record: every record of a one-emitter system is the same rule, and a fountain's events would otherwise
  // contend for one counter many thousands of times a step.
  var counted = Counted(NO_RULE, 0u, 0u);
  while (rest != 0u) {
    let bit = rest & (~rest + 1u);
    let k = w * 32u + firstTrailingBit(rest);
    rest &= rest - 1u;
    let died = (bits & bit) != 0u;
    let hit = (hits & bit) != 0u;
    let rule = life[liveLists[counters.parity * CAPACITY + k]].rule;
    if (HAS_PAYLOADS) {
      if (died) { children += childrenOf(rule); }
      if (hit) { children += hitChildrenOf(rule); }
    }
    if (rule != counted.rule) {
      addToRule(counted);
      counted = Counted(rule, 0u, 0u);
    }
    counted.deaths += select(0u, 1u, died);
    counted.hits += select(0u, 1u, hit);
  }
  addToRule(counted);
  return vec4u(countOneBits(bits), children, countOneBits(bits | hits), 0u);
}

// A run of one rule's records in a word: its deaths and collision events, not yet in ruleStats.
struct Counted {
  rule: u32,
  deaths: u32,
  hits: u32,
}

fn addToRule(counted: Counted) {
  if (counted.rule == NO_RULE) { return; }
  if (counted.deaths > 0u) { atomicAdd(&ruleStats[MAX_SPAWN_RULES + counted.rule], counted.deaths); }
  if (counted.hits > 0u) { atomicAdd(&ruleStats[2u * MAX_SPAWN_RULES + counted.rule], counted.hits); }
}
