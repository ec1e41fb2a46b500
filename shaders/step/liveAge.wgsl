// The step of a system with emitters with the ageing fused in: shaders/step/integrate.wgsl's
// stepParticle runs first; then the
// same invocation ages its particle (age += dt) and, if it dies, clears its
// `alive` and sets its bit in `deadBits` (shaders/lifecycle/lifeDeath.wgsl). One pass
// over the live particles fewer than a separate ageing pass, and the particle
// is read while its lines are still hot. Only survivors write nothing more.
// When passes run between the step and the lifecycle (the collisions), the
// lifecycle re-judges every death after them (shaders/lifecycle/age.wgsl, ALREADY_AGED).
// With the colliders fused into the step, the ageing also does what the
// colliders pass and the deaths judged again after it (shaders/lifecycle/age.wgsl) do to
// the collision-event lane, so the frame needs neither.
// Mirrored by src/core/emitters/lifecycle.ts (age).
// Prepended: the step (shaders/step/integrate.wgsl), the Life struct, NO_RULE,
// shaders/lifecycle/lifeDeath.wgsl, shaders/collisions/contactLane.wgsl; the inverse map and counters are
// shaders/step/denseDispatch.wgsl's, and so are walkedSlot and walkedLiveIndex.

@group(2) @binding(2) var<storage, read_write> life: array<Life>;
@group(2) @binding(3) var<uniform> rules: array<SpawnRule, MAX_SPAWN_RULES>;
// The death bits, then from EVENT_BITS_AT the collision-event bits (src/gpu/lifecycle/lifeBuffers.ts `dead`).
@group(2) @binding(4) var<storage, read_write> deadBits: array<atomic<u32>>;
override EVENT_BITS_AT: u32;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  // The step calls particleIndex, which keeps the slot it walked (and its live index) for what follows.
  stepParticle(invocation);
  let slot = walkedSlot;
  if (slot == NO_PARTICLE) { return; }
  // With the colliders fused into the step (shaders/collisions/fusedColliders.wgsl), what
  // the colliders pass and the ageing after it (shaders/lifecycle/age.wgsl, ALREADY_AGED) do
  // to the contact lane (shaders/collisions/contactLane.wgsl), in one: one read, the lane
  // stored only if it changed.
  var event = false;
  if (WORLD_COLLIDERS) {
    let contact = particleForceAccumSpareW(slot);
    let turn = contactTurn(markedContact(contact, worldTouched));
    if ((contact >= CONTACT_TRACKED) & (turn.next != contact)) { storeForceAccumSpareW(slot, turn.next); }
    // Only a tracked lane reaches 4 + 1.
    event = turn.event;
  }
  // The step's dt: the frame's, both the same float32.
  let age = life[slot].age + params.dt;
  life[slot].age = age;
  // Judged on what the step left (shaders/step/integrate.wgsl, AGED_AFTER): neither lane is read again.
  var dead = false;
  if (ACCELERATION_LANE) {
    dead = diesWith(slot, age, leftPositionY, leftRadius);
  } else {
    dead = dies(slot, age);
  }
  // Its live index: the inverse map's (shaders/step/denseDispatch.wgsl).
  if (WORLD_COLLIDERS) {
    // A death, a collision event or both in one branch (two cost more on the software adapter); a live particle
    // has alive = 1 until judged dead, and an event alone writes that back.
    if (dead | event) {
      life[slot].alive = select(1u, 0u, dead);
      let k = walkedLiveIndex();
      atomicOr(&deadBits[k / 32u], select(0u, deathBit(k), dead));
      atomicOr(&deadBits[EVENT_BITS_AT + k / 32u], select(0u, deathBit(k), event));
    }
  } else if (dead) {
    life[slot].alive = 0u;
    let k = walkedLiveIndex();
    atomicOr(&deadBits[k / 32u], deathBit(k));
  }
}
