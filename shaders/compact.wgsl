// Compaction: one invocation per live index of this step (indirect dispatch).
// With the exclusive prefix sums of (lives on, children) over the live list
// (level 0's block-local sums plus level 1's offset of the block),
// a survivor keeps its order in the other half of the live-list buffer, and
// the d-th death (d = k - survivors before it) pushes its slot onto the free
// list at free + d: every position follows from the scan, so the lists are
// the same whatever order the invocations run in. A dying particle's
// position, velocity and rule go to deaths[d] for its payload, and its slot
// is parked: immovable (the step skips inverse mass 0), at rest, and radius
// DEAD_RADIUS, which every collision pass reads as "no particle".
// Mirrored by src/core/emitters/lifecycle.ts (compact).
// Prepended: the Particle struct and accessors, the Life struct, the
// lifecycle records, shaders/dispatch.wgsl.

override CAPACITY: u32;
override HAS_PAYLOADS: bool = false;
// Where level 1's scanned block sums start in `scanned` (0: a single level,
// level 0's sums are already global). Added here rather than written back
// into level 0 by the scan: one pass over the live list fewer.
override LEVEL1_AT: u32 = 0u;
const SCAN_BLOCK: u32 = 1024u;

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<storage, read_write> life: array<Life>;
@group(1) @binding(1) var<storage, read_write> liveLists: array<u32>;
@group(1) @binding(2) var<storage, read_write> freeList: array<u32>;
@group(1) @binding(3) var<storage, read> scanned: array<vec2u>;
@group(1) @binding(4) var<storage, read_write> deaths: array<Death>;
@group(1) @binding(5) var<storage, read> counters: LifeCounters;
@group(1) @binding(6) var<storage, read_write> ruleStats: array<atomic<u32>>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let k = particleIndex(invocation);
  if (k >= counters.live) { return; }
  let parity = counters.parity;
  let slot = liveLists[parity * CAPACITY + k];
  var before = scanned[k];
  if (LEVEL1_AT != 0u) { before += scanned[LEVEL1_AT + k / SCAN_BLOCK]; }
  if (life[slot].alive == 1u) {
    liveLists[(1u - parity) * CAPACITY + before.x] = slot;
    return;
  }
  let d = k - before.x;
  freeList[counters.free + d] = slot;
  let rule = life[slot].rule;
  var p = particles[slot];
  if (HAS_PAYLOADS) {
    var death: Death;
    death.position = getPosition(p);
    death.childStart = before.y;
    death.velocity = getVelocity(p);
    death.rule = rule;
    deaths[d] = death;
  }
  setInverseMass(&p, 0.0);
  setVelocity(&p, vec3f(0.0));
  setRadius(&p, DEAD_RADIUS);
  setForceAccum(&p, vec3f(0.0));
  particles[slot] = p;
  if (rule != NO_RULE) { atomicAdd(&ruleStats[MAX_SPAWN_RULES + rule], 1u); }
}
