// A contact with the immovable world, shared by the colliders pass
// (shaders/collide.wgsl) and the step with the colliders fused into it
// (shaders/fusedColliders.wgsl), so both resolve it with the same operations.
// Mirrored by resolveWorldContact in src/core/collisions/collide.ts; `dt` is
// the step's, passed in (a uniform load per contact costs the software
// adapter a guarded load). Prepended: RESTING_CLOSING_STEPS_EXTRA and _MAX.

// Written out so the order of the sum is fixed (the CPU twin adds in the same order).
fn dot3(a: vec3f, b: vec3f) -> f32 {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

// Cyclone's resolveVelocity then resolveInterpenetration for a contact with
// the immovable world: normal n (out of the collider), penetration depth.
fn resolveWorldContact(
  p: ptr<function, vec3f>,
  v: ptr<function, vec3f>,
  a: vec3f,
  n: vec3f,
  penetration: f32,
  restitution: f32,
  friction: f32,
  dt: f32,
) {
  let separatingVelocity = dot3(*v, n);
  if (separatingVelocity < 0.0) {
    let accCausedSepVelocity = dot3(a, n) * dt;
    // A resting contact, not a bounce: closing no faster than the acceleration
    // makes in min(e / (1 - e) + EXTRA, MAX) steps (src/core/collisions/collide.ts
    // says why); bouncing on it would never settle. No division, (1 - e)
    // multiplied out: the CPU twin rounds the same products.
    var e = restitution;
    let resting = accCausedSepVelocity < 0.0 &&
      separatingVelocity >= RESTING_CLOSING_STEPS_MAX * accCausedSepVelocity &&
      separatingVelocity * (1.0 - restitution) >=
        (RESTING_CLOSING_STEPS_EXTRA - (RESTING_CLOSING_STEPS_EXTRA - 1.0) * restitution) * accCausedSepVelocity;
    if (resting) {
      e = 0.0;
    }
    var newSepVelocity = -separatingVelocity * e;
    // Remove the closing velocity the acceleration built up in the last step,
    // so a resting particle comes to rest instead of bouncing on gravity.
    if (accCausedSepVelocity < 0.0) {
      newSepVelocity = newSepVelocity + e * accCausedSepVelocity;
      newSepVelocity = max(newSepVelocity, 0.0);
    }
    // Coulomb friction: the tangential speed drops by at most friction times
    // the normal speed change (the impulses per unit mass), never reversing.
    let tangential = *v - n * separatingVelocity;
    var keep = 1.0;
    if (friction > 0.0) {
      let tangential2 = dot3(tangential, tangential);
      if (tangential2 > 0.0) {
        let tangentialSpeed = sqrt(tangential2);
        let drop = friction * (newSepVelocity - separatingVelocity);
        keep = select(0.0, 1.0 - drop / tangentialSpeed, drop < tangentialSpeed);
      }
    }
    *v = tangential * keep + n * newSepVelocity;
  }
  if (penetration > 0.0) {
    *p = *p + n * penetration;
  }
}
