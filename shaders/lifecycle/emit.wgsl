// Emission: one invocation per particle granted this step. Invocation j takes
// the slot on top of the free list, freeList[freeTop - 1 - j], appends it to
// the live list at liveBase + j, and makes a particle there. Requests are
// numbered children first (the payloads of this step's deaths, in death
// order, each parent's payload entries in order), then the emitters' (in
// emitter order): every request's slot, rule and random key follow from j
// alone, with no atomics, so the result does not depend on scheduling. When
// the pool is short, the first `granted` requests are served and the rest
// were counted as shortfall by planEmit; nothing live is ever overwritten.
// Mirrored by src/core/emitters/lifecycle.ts (emit).
// Prepended: the Particle struct and accessors, the Life struct, the
// lifecycle records, shaders/shared/dispatch.wgsl, shaders/shared/pcg.wgsl, shaders/lifecycle/spawn.wgsl.

override CAPACITY: u32;
// Whether any spawn rule has a payload: without, no particle has children,
// and their code (the parent's search) is compiled out.
override HAS_PAYLOADS: bool = true;

@group(1) @binding(0) var<storage, read_write> life: array<Life>;
@group(1) @binding(1) var<storage, read_write> liveLists: array<u32>;
@group(1) @binding(2) var<storage, read> freeList: array<u32>;
@group(1) @binding(3) var<storage, read> deaths: array<Death>;
@group(1) @binding(4) var<storage, read> counters: LifeCounters;
// Births per spawn rule, then deaths per spawn rule.
@group(1) @binding(5) var<storage, read_write> ruleStats: array<atomic<u32>>;
@group(1) @binding(6) var<uniform> rules: array<SpawnRule, MAX_SPAWN_RULES>;
// shaders/shared/health.wgsl (prepended) counts a particle born non-finite.
@group(1) @binding(7) var<storage, read_write> health: array<atomic<u32>, HEALTH_WORDS>;
@group(2) @binding(0) var<uniform> frame: FrameParams;

// The record (a death or collision event) whose children include child c: the
// last with childStart <= c (records with no children share their
// successor's start and are skipped).
fn findParent(c: u32) -> u32 {
  var low = 0u;
  var high = counters.records;
  while (high - low > 1u) {
    let middle = (low + high) / 2u;
    if (deaths[middle].childStart <= c) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return low;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let j = particleIndex(invocation);
  if (j >= counters.granted) { return; }
  let slot = freeList[counters.freeTop - 1u - j];
  // Run once per chunk over chunked state (src/gpu/shared/kernel.ts, 'owner'): each run makes its chunk's births.
  if (!ownsParticle(slot)) { return; }
  // After the survivors (planEmit's liveBase), in the list the fill closed.
  liveLists[counters.parity * CAPACITY + counters.liveBase + j] = slot;

  var ruleIndex = 0u;
  var key = 0u;
  var center = vec3f(0.0);
  var inheritFrom = vec3f(0.0);
  // The served requests from j on that share its rule (an emitter's, or a parent's payload entry's: the
  // first `granted`, children first), where j is the first of them; else 0.
  var runServed = 0u;
  if (HAS_PAYLOADS && j < counters.childRequests) {
    // A firework's child: at its parent's position, inheriting its velocity;
    // its death payload first (if it died), then its collision payload (if it hit).
    let death = deaths[findParent(j)];
    let parent = rules[death.rule & RECORD_RULE_MASK];
    var rest = j - death.childStart;
    var counts = parent.payloadCounts;
    var payloadRules = parent.payloadRules;
    let deathChildren = select(0u, counts.x + counts.y + counts.z + counts.w, (death.rule & RECORD_DIED) != 0u);
    if (rest >= deathChildren) {
      rest -= deathChildren;
      counts = parent.hitPayloadCounts;
      payloadRules = parent.hitPayloadRules;
    }
    var entry = 0u;
    for (; entry < MAX_PAYLOADS - 1u; entry++) {
      if (rest < counts[entry]) { break; }
      rest -= counts[entry];
    }
    ruleIndex = payloadRules[entry];
    runServed = select(0u, min(counts[entry], min(counters.granted, counters.childRequests) - j), rest == 0u);
    key = streamKey(rules[ruleIndex].seed, counters.childSequenceBase + j);
    center = death.position;
    inheritFrom = death.velocity;
  } else {
    // An emitter's request: the emitter whose share of the host requests holds h.
    let h = j - counters.childRequests;
    var e = 0u;
    for (; e + 1u < frame.emitterCount; e++) {
      if (h < counters.emitters[e].start + counters.emitters[e].requests) { break; }
    }
    let state = counters.emitters[e];
    ruleIndex = e;
    runServed = select(0u, min(state.requests, counters.granted - j), h == state.start);
    key = streamKey(rules[e].seed, state.sequenceBase + (h - state.start));
    center = frame.emitters[e].center;
    inheritFrom = frame.emitters[e].velocity;
  }

  let rule = rules[ruleIndex];
  var born = spawnParticle(rule, center, inheritFrom, key);
  // Tracked for collision events (shaders/lifecycle/age.wgsl): no contact yet.
  born.forceAccumSpare.w = CONTACT_TRACKED;
  storeParticle(slot, born);
  // Born NaN or infinite (an inherited velocity past float32's range): counted, and parked, as the step does.
  if (CHECK_FINITE && !isFiniteState(getPosition(born), getVelocity(born))) { noteNonFinite(slot); }
  var record = life[slot];
  record.age = 0.0;
  record.lifetime = spawnLifetime(rule, key);
  record.size = spawnSize(rule, key);
  record.color = rule.color;
  record.rule = rule.tag;
  record.alive = 1u;
  record.generation = record.generation + 1u;
  life[slot] = record;
  // The births counted once a run of one rule, by its first invocation, not once a birth: a frame's
  // births would otherwise contend for one counter. Over chunked state, by the run that owns its slot.
  if (runServed > 0u) { atomicAdd(&ruleStats[rule.tag], runServed); }
}
