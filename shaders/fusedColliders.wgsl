// The colliders fused into the step (a system with colliders and neither
// links nor particle-particle contacts): shaders/integrate.wgsl hands each
// particle's stepped position and velocity to `worldColliders`, generated for
// the collider set's composition (src/core/collisions/colliderComposition.ts):
// one call a collider, in the set's order, of the functions below with its
// kind, inside, kill, bounce and friction flags written in. No loop over the
// table and no per-kind selects: each particle does only its colliders' work
// (a collider without restitution or friction skips that arithmetic), and the
// record is read and written once a step instead of twice. Each function
// repeats the operations of its kind in shaders/collide.wgsl, in the same
// order, so the two paths agree bit for bit where the adapter rounds each
// operation (the colliders pass stays for systems with links or contacts).
// Prepended: the Collider struct, shaders/worldContact.wgsl, and the
// generated `worldColliders` with COLLIDER_COUNT.

const WORLD_COLLIDERS: bool = true;
// Whether a collider touched the particle this step (touching within the
// skin), as the colliders pass's `touched`: the ageing fused into a step over
// the live particles (shaders/liveAge.wgsl) turns it into a collision event.
var<private> worldTouched: bool = false;
// The contact skin (ContactSettings.skin), fixed per system.
override SKIN: f32 = 0.0;

// The group after the step's own (and the forces'), or the forces' own after their
// bindings where the step has no group to spare (src/gpu/fusedPipelines.ts):
// src/shaders/index.ts writes the indices in.
// A uniform array of the set's size: constant indices, no bounds to check.
@group(COLLIDERS_GROUP) @binding(COLLIDERS_BINDING) var<uniform> colliders: array<Collider, COLLIDER_COUNT>;

// A contact with collider `c` when within the skin: true when it kills (the
// caller stops there), else resolved. Each function loads its collider's
// record once (on the software adapter every load is guarded). Without a
// branch: the software adapter runs a branch's code under a lane mask either
// way and pays for the masks on top.
fn touch(
  c: Collider,
  p: ptr<function, vec3f>,
  v: ptr<function, vec3f>,
  a: vec3f,
  dt: f32,
  n: vec3f,
  penetration: f32,
  kill: bool,
  bounce: bool,
  friction: bool,
) -> bool {
  let touching = penetration > -SKIN;
  // As the colliders pass marks a touch (a zero normal is no surface, though prepareColliders makes none).
  worldTouched = worldTouched | (touching & any(n != vec3f(0.0)));
  // The flags are written in (constants): no branch is left either way.
  if (kill) { return touching; }
  resolveWorldContact(p, v, a, n, penetration, c.restitution, c.friction, dt, touching, bounce, friction);
  return false;
}

// A half-space: anything behind the plane is inside it, however fast it came.
fn planeCollider(i: u32, p: ptr<function, vec3f>, v: ptr<function, vec3f>, a: vec3f, r: f32, dt: f32, kill: bool, bounce: bool, friction: bool) -> bool {
  return planeAlong(colliders[i].axis0, i, p, v, a, r, dt, kill, bounce, friction);
}

// The plane with its unit normal n: an axis-aligned one (a ground, a wall, a
// ceiling) has it written in as a constant, the same value the table holds,
// so a compiler may drop the products by 0 and 1 (on the software adapter
// that took 0.2 of a step off the ground plane's cost).
fn planeAlong(
  n: vec3f,
  i: u32,
  p: ptr<function, vec3f>,
  v: ptr<function, vec3f>,
  a: vec3f,
  r: f32,
  dt: f32,
  kill: bool,
  bounce: bool,
  friction: bool,
) -> bool {
  let c = colliders[i];
  let penetration = r - (dot3(n, *p) - c.size.x);
  return touch(c, p, v, a, dt, n, penetration, kill, bounce, friction);
}

fn sphereCollider(
  i: u32,
  p: ptr<function, vec3f>,
  v: ptr<function, vec3f>,
  a: vec3f,
  r: f32,
  dt: f32,
  inside: bool,
  kill: bool,
  bounce: bool,
  friction: bool,
) -> bool {
  let c = colliders[i];
  let d = *p - c.center;
  let distance2 = dot3(d, d);
  let distance = sqrt(distance2);
  let unit = d / distance;
  let h = c.size.x;
  // A particle at the very centre leaves upwards.
  let radial = select(vec3f(0.0, 1.0, 0.0), unit, distance > 0.0);
  let n = select(radial, -radial, inside);
  let penetration = select((h + r) - distance, (distance + r) - h, inside);
  return touch(c, p, v, a, dt, n, penetration, kill, bounce, friction);
}

// Inside a box: one contact an axis, each with the nearer wall, each seeing
// where the one before left the particle.
fn boxWall(c: Collider, axis: vec3f, h: f32, p: ptr<function, vec3f>, v: ptr<function, vec3f>, a: vec3f, r: f32, dt: f32, kill: bool, bounce: bool, friction: bool) -> bool {
  let wallQ = dot3(*p - c.center, axis);
  let n = select(axis, -axis, wallQ >= 0.0);
  let penetration = abs(wallQ) - (h - r);
  return touch(c, p, v, a, dt, n, penetration, kill, bounce, friction);
}

fn boxCollider(
  i: u32,
  p: ptr<function, vec3f>,
  v: ptr<function, vec3f>,
  a: vec3f,
  r: f32,
  dt: f32,
  inside: bool,
  kill: bool,
  bounce: bool,
  friction: bool,
) -> bool {
  let c = colliders[i];
  let axis0 = c.axis0;
  let axis1 = c.axis1;
  let axis2 = c.axis2;
  let h = c.size;
  if (inside) {
    if (boxWall(c, axis0, h.x, p, v, a, r, dt, kill, bounce, friction)) { return true; }
    if (boxWall(c, axis1, h.y, p, v, a, r, dt, kill, bounce, friction)) { return true; }
    return boxWall(c, axis2, h.z, p, v, a, r, dt, kill, bounce, friction);
  }
  let d = *p - c.center;
  // The particle in the box's axes, and the closest point of the box.
  let q = vec3f(dot3(d, axis0), dot3(d, axis1), dot3(d, axis2));
  let outside = q - clamp(q, -h, h);
  let distance2 = dot3(outside, outside);
  let distance = sqrt(distance2);
  let unit = outside / distance;
  let boxContact = outsideBoxContact(q, h, axis0, axis1, axis2, r, distance2, distance, unit);
  return touch(c, p, v, a, dt, boxContact.normal, boxContact.penetration, kill, bounce, friction);
}
