// Each collider kind's contact, once: the colliders pass (shaders/collisions/collide.wgsl)
// calls these in a loop over its table, the step with the colliders fused in
// (shaders/collisions/fusedColliders.wgsl) calls them one collider at a time, with the
// flags written in as constants. Mirrored by src/core/collisions/collide.ts,
// operation for operation, so every path agrees bit for bit where the adapter
// rounds each operation.
// Prepended: the Collider struct, KIND_* and FLAG_* (src/core/collisions/colliders.ts)
// and shaders/collisions/worldContact.wgsl.

// Whether a collider touched the particle (within the skin) in this invocation:
// the colliders pass marks the collision-event lane with it, the ageing fused
// into a step over the live particles (shaders/step/liveAge.wgsl) turns it into an event.
var<private> worldTouched: bool = false;

// A contact with collider `c` along `n` when within `skin`; resolved unless
// the collider kills. True when the particle stops there (touching a collider
// that kills or sticks): the colliders after it are not tested.
fn touch(
  c: Collider,
  p: ptr<function, vec3f>,
  v: ptr<function, vec3f>,
  a: vec3f,
  skin: f32,
  dt: f32,
  n: vec3f,
  penetration: f32,
  kill: bool,
  stick: bool,
  bounce: bool,
  friction: bool,
) -> bool {
  let touching = penetration > -skin;
  // A zero normal is no surface: a guard (prepareColliders makes none), as in the CPU twin.
  worldTouched = worldTouched | (touching & any(n != vec3f(0.0)));
  if (kill) { return touching; }
  resolveWorldContact(p, v, a, n, penetration, c.restitution, c.friction, dt, touching, bounce, friction);
  return touching & stick;
}

// A half-space with unit normal `n` (c.axis0; the fused step writes an axis in
// as a constant of the same value): anything behind the plane is inside it,
// however fast it came.
fn planeCollider(
  c: Collider,
  n: vec3f,
  p: ptr<function, vec3f>,
  v: ptr<function, vec3f>,
  a: vec3f,
  r: f32,
  skin: f32,
  dt: f32,
  kill: bool,
  stick: bool,
  bounce: bool,
  friction: bool,
) -> bool {
  let penetration = r - (dot3(n, *p) - c.size.x);
  return touch(c, p, v, a, skin, dt, n, penetration, kill, stick, bounce, friction);
}

fn sphereCollider(
  c: Collider,
  p: ptr<function, vec3f>,
  v: ptr<function, vec3f>,
  a: vec3f,
  r: f32,
  skin: f32,
  dt: f32,
  inside: bool,
  kill: bool,
  stick: bool,
  bounce: bool,
  friction: bool,
) -> bool {
  let d = *p - c.center;
  let distance2 = dot3(d, d);
  let distance = sqrt(distance2);
  let unit = d / distance;
  let h = c.size.x;
  // A particle at the very centre leaves upwards.
  let radial = select(vec3f(0.0, 1.0, 0.0), unit, distance > 0.0);
  let n = select(radial, -radial, inside);
  let penetration = select((h + r) - distance, (distance + r) - h, inside);
  return touch(c, p, v, a, skin, dt, n, penetration, kill, stick, bounce, friction);
}

// Inside a box: the contact with the nearer wall across `axis`.
fn boxWall(
  c: Collider,
  axis: vec3f,
  h: f32,
  p: ptr<function, vec3f>,
  v: ptr<function, vec3f>,
  a: vec3f,
  r: f32,
  skin: f32,
  dt: f32,
  kill: bool,
  stick: bool,
  bounce: bool,
  friction: bool,
) -> bool {
  let wallQ = dot3(*p - c.center, axis);
  let n = select(axis, -axis, wallQ >= 0.0);
  let penetration = abs(wallQ) - (h - r);
  return touch(c, p, v, a, skin, dt, n, penetration, kill, stick, bounce, friction);
}

// A box (axis-aligned or oriented: its axes are in the record). Inside: one
// contact an axis, each seeing where the one before left the particle.
fn boxCollider(
  c: Collider,
  p: ptr<function, vec3f>,
  v: ptr<function, vec3f>,
  a: vec3f,
  r: f32,
  skin: f32,
  dt: f32,
  inside: bool,
  kill: bool,
  stick: bool,
  bounce: bool,
  friction: bool,
) -> bool {
  let axis0 = c.axis0;
  let axis1 = c.axis1;
  let axis2 = c.axis2;
  let h = c.size;
  if (inside) {
    if (boxWall(c, axis0, h.x, p, v, a, r, skin, dt, kill, stick, bounce, friction)) { return true; }
    if (boxWall(c, axis1, h.y, p, v, a, r, skin, dt, kill, stick, bounce, friction)) { return true; }
    return boxWall(c, axis2, h.z, p, v, a, r, skin, dt, kill, stick, bounce, friction);
  }
  let d = *p - c.center;
  // The particle in the box's axes, and the closest point of the box.
  let q = vec3f(dot3(d, axis0), dot3(d, axis1), dot3(d, axis2));
  let outside = q - clamp(q, -h, h);
  let distance2 = dot3(outside, outside);
  let distance = sqrt(distance2);
  let unit = outside / distance;
  let boxContact = outsideBoxContact(q, h, axis0, axis1, axis2, r, distance2, distance, unit);
  return touch(c, p, v, a, skin, dt, boxContact.normal, boxContact.penetration, kill, stick, bounce, friction);
}
