// Compaction of the deaths only: one invocation per word of `deadBits` over
// this step's live list (dispatched over a full pool's words, those past the live list's returning at
// once), after planEmit. With the exclusive prefix sums of
// (deaths, children) over the words (level 0's block-local sums plus level 1's
// offset of the block), the d-th death of the step (in live-list order, bit by
// bit) pushes its slot onto the free list at free + d and its live index into
// dead[DEAD_INDEX_AT + d] for the fill (shaders/lifecycle/fill.wgsl); every position follows from
// the scan, so the lists are the same whatever order the invocations run in.
// With payloads, each record (a death, a collision event, or both: the r-th
// of the step; without, only the deaths are walked) writes its position, velocity, rule (with RECORD_DIED and
// RECORD_HIT) and first child to deaths[r] for its children; a collision
// event that did not die keeps its slot. A dying particle's slot is parked: immovable (the step skips inverse
// mass 0), at rest, and radius DEAD_RADIUS, which every collision pass reads
// as "no particle". The words are cleared: the death and event bits are all
// zero between steps. Survivors are not visited at all; the deaths per rule are counted by
// shaders/lifecycle/countDeaths.wgsl.
// Mirrored by src/core/emitters/lifecycle.ts (compact).
// Prepended: the Particle struct and accessors, the Life struct, the
// lifecycle records, shaders/shared/dispatch.wgsl, shaders/lifecycle/lifeDeath.wgsl.

override CAPACITY: u32;
override HAS_PAYLOADS: bool = false;
// `dead` holds the death bits (one word a 32 live indices), then from here the deaths' live indices.
override DEAD_INDEX_AT: u32;
// Where the collision-event bits start in `dead`.
override EVENT_BITS_AT: u32 = 0u;

@group(1) @binding(0) var<storage, read> life: array<Life>;
@group(1) @binding(1) var<storage, read> liveLists: array<u32>;
@group(1) @binding(2) var<storage, read_write> freeList: array<u32>;
@group(1) @binding(3) var<storage, read> scanned: array<vec4u>;
@group(1) @binding(4) var<storage, read_write> deaths: array<Death>;
@group(1) @binding(5) var<storage, read> counters: LifeCounters;
@group(1) @binding(6) var<storage, read_write> dead: array<u32>;
@group(1) @binding(7) var<uniform> rules: array<SpawnRule, MAX_SPAWN_RULES>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let w = particleIndex(invocation);
  // After planEmit (in the scan's top level, shaders/lifecycle/lifePlan.wgsl), which has moved the counters on to the
  // next step: this step's live count is its survivors and deaths, its free count the free list's top before
  // the births less the deaths.
  if (w >= (counters.liveBase + counters.deaths + 31u) / 32u) { return; }
  let deathBits = dead[w];
  let hits = dead[EVENT_BITS_AT + w];
  if ((deathBits | hits) == 0u) { return; }
  // Run once per chunk over chunked state (src/gpu/shared/kernel.ts, 'owner'): every run walks every record of
  // the word, to number them, and writes those of its chunk's slots; the last run clears the word.
  if (finalChunkRun()) {
    dead[w] = 0u;
    dead[EVENT_BITS_AT + w] = 0u;
  }
  // Without payloads a collision event that did not die has nothing here to write (its rule's hits are
  // countDeaths.wgsl's): only the deaths are walked. A fountain's bouncing particles make many more events than deaths.
  var bits = select(deathBits, deathBits | hits, HAS_PAYLOADS);
  let before = scannedBefore(w);
  var d = before.x;
  var childStart = before.y;
  var r = before.z;
  let list = counters.parity * CAPACITY;
  let free = counters.freeTop - counters.deaths;
  while (bits != 0u) {
    let bit = bits & (~bits + 1u);
    let k = w * 32u + firstTrailingBit(bits);
    bits &= bits - 1u;
    let died = (deathBits & bit) != 0u;
    let hit = (hits & bit) != 0u;
    let slot = liveLists[list + k];
    let rule = life[slot].rule;
    let mine = ownsParticle(slot);
    var p: Particle;
    if (mine) { p = particleAt(slot); }
    if (HAS_PAYLOADS) {
      if (mine) {
        var death: Death;
        death.position = getPosition(p);
        death.childStart = childStart;
        death.velocity = getVelocity(p);
        death.rule = rule | select(0u, RECORD_DIED, died) | select(0u, RECORD_HIT, hit);
        deaths[r] = death;
      }
      if (died) { childStart = addCount(childStart, childrenOf(rule)); }
      if (hit) { childStart = addCount(childStart, hitChildrenOf(rule)); }
      r += 1u;
    }
    if (died) {
      if (mine) {
        dead[DEAD_INDEX_AT + d] = k;
        freeList[free + d] = slot;
        setInverseMass(&p, 0.0);
        setVelocity(&p, vec3f(0.0));
        setRadius(&p, DEAD_RADIUS);
        setForceAccum(&p, vec3f(0.0));
        storeParticle(slot, p);
      }
      d += 1u;
    }
  }
}
