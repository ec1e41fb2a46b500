// A contact with the immovable world, shared by the colliders pass
// (shaders/collisions/collide.wgsl) and the step with the colliders fused into it
// (shaders/collisions/fusedColliders.wgsl), so both resolve it with the same operations.
// Mirrored by resolveWorldContact in src/core/collisions/collide.ts; `dt` is
// the step's, passed in (a uniform load per contact costs the software
// adapter a guarded load). Prepended: RESTING_CLOSING_STEPS_EXTRA and _MAX.

// Written out so the order of the sum is fixed (the CPU twin adds in the same order).
fn dot3(a: vec3f, b: vec3f) -> f32 {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

// Outside a box (the particle at q in the box's axes, its closest point of the
// box `distance` away along `unit`, in those axes; half sizes h): the
// contact's normal and penetration. The centre inside the box leaves through
// the nearest face (lowest axis on a tie). Both colliders passes call it.
struct BoxContact {
  normal: vec3f,
  penetration: f32,
}

fn outsideBoxContact(
  q: vec3f,
  h: vec3f,
  axis0: vec3f,
  axis1: vec3f,
  axis2: vec3f,
  r: f32,
  distance2: f32,
  distance: f32,
  unit: vec3f,
) -> BoxContact {
  let depth = h - abs(q);
  let y = depth.y < depth.x;
  let faceY = select(axis0, axis1, y);
  let qY = select(q.x, q.y, y);
  let depthY = select(depth.x, depth.y, y);
  let z = depth.z < depthY;
  let face = select(faceY, axis2, z);
  let faceQ = select(qY, q.z, z);
  let faceN = select(-face, face, faceQ >= 0.0);
  let facePenetration = select(depthY, depth.z, z) + r;
  let clear = distance2 > 0.0;
  return BoxContact(
    select(faceN, axis0 * unit.x + axis1 * unit.y + axis2 * unit.z, clear),
    select(facePenetration, r - distance, clear),
  );
}

// Cyclone's resolveVelocity then resolveInterpenetration for a contact with
// the immovable world: normal n (out of the collider), penetration depth;
// applied where `touching`. Without branches: every value is worked out and
// the results selected, so the software adapter (which runs a branch's code
// under a lane mask either way) pays for no masks, and a GPU for no
// divergence. `bounce` false (restitution +0) and `friction` false (friction
// 0) skip what cannot change the result: the fused step writes them in as
// constants, the colliders pass passes true.
fn resolveWorldContact(
  p: ptr<function, vec3f>,
  v: ptr<function, vec3f>,
  a: vec3f,
  n: vec3f,
  penetration: f32,
  restitution: f32,
  friction: f32,
  dt: f32,
  touching: bool,
  bounce: bool,
  hasFriction: bool,
) {
  let separatingVelocity = dot3(*v, n);
  let accCausedSepVelocity = dot3(a, n) * dt;
  let accCloses = accCausedSepVelocity < 0.0;
  // A resting contact, not a bounce: closing no faster than the acceleration
  // makes in min(e / (1 - e) + EXTRA, MAX) steps (src/core/collisions/collide.ts
  // says why); bouncing on it would never settle. No division, (1 - e)
  // multiplied out: the CPU twin rounds the same products. `&`, not `&&`: no branch.
  let resting = accCloses &
    (separatingVelocity >= RESTING_CLOSING_STEPS_MAX * accCausedSepVelocity) &
    (separatingVelocity * (1.0 - restitution) >=
      (RESTING_CLOSING_STEPS_EXTRA - (RESTING_CLOSING_STEPS_EXTRA - 1.0) * restitution) * accCausedSepVelocity);
  // Restitution +0 either way without it (colliders.ts packs a -0 as +0).
  let e = select(0.0, select(restitution, 0.0, resting), bounce);
  let bounced = -separatingVelocity * e;
  // Remove the closing velocity the acceleration built up in the last step,
  // so a resting particle comes to rest instead of bouncing on gravity.
  let newSepVelocity = select(bounced, max(bounced + e * accCausedSepVelocity, 0.0), accCloses);
  // Coulomb friction: the tangential speed drops by at most friction times
  // the normal speed change (the impulses per unit mass), never reversing.
  let tangential = *v - n * separatingVelocity;
  let tangential2 = dot3(tangential, tangential);
  let tangentialSpeed = sqrt(tangential2);
  let drop = friction * (newSepVelocity - separatingVelocity);
  let slides = select(0.0, 1.0 - drop / tangentialSpeed, drop < tangentialSpeed);
  let keep = select(1.0, select(1.0, slides, (friction > 0.0) & (tangential2 > 0.0)), hasFriction);
  *v = select(*v, tangential * keep + n * newSepVelocity, touching & (separatingVelocity < 0.0));
  *p = select(*p, *p + n * penetration, touching & (penetration > 0.0));
}
