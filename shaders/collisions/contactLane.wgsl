// The collision-event lane (forceAccumSpare.w; src/core/collisions/colliders.ts
// CONTACT_*), written once for every pass that keeps it: a tracked particle's
// lane is CONTACT_TRACKED (4) plus TOUCHED_NOW (1) and TOUCHED_BEFORE (2). The
// colliders mark a touch, once a step however many passes touch it
// (shaders/collisions/collide.wgsl, shaders/step/liveAge.wgsl); the ageing after them turns
// the lane into an event and the next step's lane (shaders/lifecycle/age.wgsl,
// shaders/step/liveAge.wgsl). Mirrored by src/core/collisions/collide.ts (the mark)
// and src/core/emitters/lifecycle.ts (age). Without branches (`|`, not `||`):
// the software adapter runs a branch's code under a lane mask either way.
// Prepended: CONTACT_TRACKED.

// `contact` with this step's touch marked: + 1 where `touched` and the lane
// is tracked and not yet marked this step (4 or 4 + 2).
fn markedContact(contact: f32, touched: bool) -> f32 {
  let unmarked = (contact == CONTACT_TRACKED) | (contact == CONTACT_TRACKED + 2.0);
  return contact + select(0.0, 1.0, touched & unmarked);
}

// What the ageing makes of a tracked lane (>= CONTACT_TRACKED) after the
// step's marks: an event where it touched now and not the step before
// (4 + 1), and the lane the next step starts from: 4 + 2 where it touched
// now, else 4.
struct ContactTurn {
  event: bool,
  next: f32,
}

fn contactTurn(marked: f32) -> ContactTurn {
  let touchedNow = (marked == CONTACT_TRACKED + 1.0) | (marked == CONTACT_TRACKED + 3.0);
  return ContactTurn(marked == CONTACT_TRACKED + 1.0, select(CONTACT_TRACKED, CONTACT_TRACKED + 2.0, touchedNow));
}
