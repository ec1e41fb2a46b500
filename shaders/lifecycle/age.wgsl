// Ageing as a pass of its own, one invocation per live particle (dispatched
// over the capacity, the invocations past the live count returning at once),
// for a step whose ageing the step did not do in the same pass
// (shaders/step/liveAge.wgsl does it there):
// - ALREADY_AGED false: nothing aged this step; age += dt, then judge.
// - ALREADY_AGED true (the judgeAgain kernel, src/gpu/lifecycle/lifecycleKernels.ts):
//   the step aged it, but passes ran after it (the collisions move particles
//   and kill them): judge again on the state they left, and set or clear the
//   particle's death bit and `alive` where the verdict changed.
// Either way it turns this step's contact (the colliders' mark) into a
// collision event bit and the particle's contact of the step before.
// Mirrored by src/core/emitters/lifecycle.ts (age).
// Prepended: the Particle struct and accessors, the Life struct, the
// lifecycle records, shaders/shared/dispatch.wgsl, shaders/lifecycle/lifeDeath.wgsl, shaders/collisions/contactLane.wgsl.

override CAPACITY: u32;
override ALREADY_AGED: bool = false;
override EVENT_BITS_AT: u32 = 0u;

@group(1) @binding(0) var<storage, read_write> life: array<Life>;
@group(1) @binding(1) var<storage, read> liveLists: array<u32>;
// The death bits, then from EVENT_BITS_AT the collision-event bits (src/gpu/lifecycle/lifeBuffers.ts `dead`).
@group(1) @binding(2) var<storage, read_write> deadBits: array<atomic<u32>>;
@group(1) @binding(3) var<storage, read> counters: LifeCounters;
@group(1) @binding(4) var<uniform> rules: array<SpawnRule, MAX_SPAWN_RULES>;
@group(2) @binding(0) var<uniform> frame: FrameParams;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let k = particleIndex(invocation);
  if (k >= counters.live) { return; }
  let slot = liveLists[counters.parity * CAPACITY + k];
  // Run once per chunk over chunked state (src/gpu/shared/kernel.ts, 'owner'): each run ages its chunk's particles.
  if (!ownsParticle(slot)) { return; }
  var age = life[slot].age;
  if (!ALREADY_AGED) {
    age += frame.dt;
    life[slot].age = age;
  }
  // A collision event: a tracked particle that a collider touched this step
  // and none the step before (src/core/collisions/colliders.ts CONTACT_*):
  // one event a contact start, however long it rests on the collider. After
  // the colliders, so after every pass that may touch it this step.
  // (shaders/collisions/contactLane.wgsl: the colliders marked the lane already.)
  let contact = particleForceAccumSpareW(slot);
  if (contact >= CONTACT_TRACKED) {
    let turn = contactTurn(contact);
    if (turn.event) { atomicOr(&deadBits[EVENT_BITS_AT + k / 32u], deathBit(k)); }
    if (turn.next != contact) { storeForceAccumSpareW(slot, turn.next); }
  }
  let dead = dies(slot, age);
  // Live particles have alive = 1 until judged dead this step.
  if (dead == (life[slot].alive == 0u)) { return; }
  life[slot].alive = select(1u, 0u, dead);
  if (dead) {
    atomicOr(&deadBits[k / 32u], deathBit(k));
  } else {
    atomicAnd(&deadBits[k / 32u], ~deathBit(k));
  }
}
