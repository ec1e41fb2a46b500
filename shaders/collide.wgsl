// The colliders: every particle against every collider of the world, after
// the step, in the colliders' order. Each contact is Cyclone's
// ParticleContact::resolve with particle[1] = NULL (the world is immovable),
// plus Coulomb friction on the tangential velocity.
// Mirrored by src/core/collisions/colliders.ts (the CPU twin), operation for
// operation; the shader is laid out for SwiftShader, which runs every branch
// of a loop body under a lane mask, taken or not: the kinds share their
// arithmetic and pick their contact with selects, and one call resolves it.
// Prepended: the Particle struct and accessors, shaders/dispatch.wgsl and the
// Collider struct generated from src/core/collisions/colliders.ts.

// With APPLY_DELTAS the pass first adds the contact resolver's corrections
// (shaders/contacts.wgsl) to each particle: one Jacobi iteration ends here, so
// the colliders have the last word and no particle ends an iteration inside one.
override APPLY_DELTAS: bool = false;
// False where the world has no colliders (the iterations' apply pass alone):
// the collider loop is compiled out, as the software adapter runs a loop's body
// at least once under a lane mask even when it never iterates.
override COLLIDERS: bool = true;

const KIND_PLANE: u32 = 0u;
const KIND_SPHERE: u32 = 1u;
const KIND_BOX: u32 = 2u;
const FLAG_INSIDE: u32 = 1u;
const FLAG_KILL: u32 = 2u;
const FLAG_STICK: u32 = 4u;
// The collision-event lane (forceAccumSpare.w; src/core/collisions/colliders.ts
// CONTACT_*): a tracked particle (>= CONTACT_TRACKED, prepended with the
// lifecycle records or alone) that touches gets TOUCHED_NOW (1) set.
// A killed particle: inverse mass 0 (never integrated again), at rest where it
// touched, and this radius, which every collision pass reads as "no particle".
const DEAD_RADIUS: f32 = -1.0;

// CollideParams: generated from src/gpu/passParams.ts (the schema) and prepended.
@group(1) @binding(0) var<uniform> params: CollideParams;
@group(1) @binding(1) var<storage, read> colliders: array<Collider>;
// shaders/health.wgsl (prepended) counts what goes non-finite here.
@group(1) @binding(3) var<storage, read_write> health: array<atomic<u32>, HEALTH_WORDS>;
// Two vec4 a particle: the position correction, then the velocity change;
// with particle contacts, from vec4 params.positionCopy, the contact
// resolver's position copy (shaders/positionCopy.wgsl), which applying the
// corrections keeps up to date.
@group(1) @binding(2) var<storage, read_write> deltas: array<vec4f>;

// dot3, outsideBoxContact and resolveWorldContact: shaders/worldContact.wgsl (prepended).

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let index = particleIndex(invocation);
  if (index >= params.count) { return; }
  let positionInverseMass = particlePositionInverseMass(index);
  // Immovable particles (and dead ones) are never moved.
  if (positionInverseMass.w <= 0.0) { return; }
  let velocityDamping = particleVelocityDamping(index);
  let accelerationRadius = particleAccelerationRadius(index);

  var p = positionInverseMass.xyz;
  var v = velocityDamping.xyz;
  let wasFinite = CHECK_FINITE && isFiniteState(p, v);
  if (APPLY_DELTAS) {
    p = p + deltas[2u * index].xyz;
    v = v + deltas[2u * index + 1u].xyz;
  }
  let a = accelerationRadius.xyz;
  let r = accelerationRadius.w;
  let skin = params.skin;

  // One flat loop over the contacts (three for a box seen from inside, one for
  // any other collider): k is the contact within collider c. A nested loop
  // measured slower on SwiftShader.
  var c = 0u;
  var k = 0u;
  var touched = false;
  var stuck = false;
  // Without colliders the count is 0: no collider is tested, none kills or sticks.
  let colliderCount = select(0u, params.colliderCount, COLLIDERS);
  while (COLLIDERS && c < colliderCount) {
    let kind = colliders[c].kind;
    let flags = colliders[c].flags;
    let inside = (flags & FLAG_INSIDE) != 0u;
    let kill = (flags & FLAG_KILL) != 0u;
    let stick = (flags & FLAG_STICK) != 0u;
    let center = colliders[c].center;
    let axis0 = colliders[c].axis0;
    let axis1 = colliders[c].axis1;
    let axis2 = colliders[c].axis2;
    let h = colliders[c].size;
    let e = colliders[c].restitution;
    let mu = colliders[c].friction;
    let plane = kind == KIND_PLANE;
    let sphere = kind == KIND_SPHERE;
    // Inside a box: one contact per axis, each with the nearer wall; every
    // other collider makes one contact.
    let contacts = select(1u, 3u, !plane && !sphere && inside);
    let d = p - center;
    // The particle in the box's axes.
    let q = vec3f(dot3(d, axis0), dot3(d, axis1), dot3(d, axis2));
    // Outside a box: the closest point of the box, in its own axes.
    let outside = q - clamp(q, -h, h);
    // A sphere measures from its centre, a box from its closest point:
    // one distance and one direction serve both.
    let w = select(outside, d, sphere);
    let distance2 = dot3(w, w);
    let distance = sqrt(distance2);
    let unit = w / distance;

    // A half-space: anything behind the plane is inside it, however fast it came.
    let planePenetration = r - (dot3(axis0, p) - h.x);

    // A particle at the very centre of a sphere leaves upwards.
    let radial = select(vec3f(0.0, 1.0, 0.0), unit, distance > 0.0);
    let sphereN = select(radial, -radial, inside);
    let spherePenetration = select((h.x + r) - distance, (distance + r) - h.x, inside);

    // Inside a box: axis k's contact, with the nearer wall.
    let wallAxis = select(select(axis0, axis1, k == 1u), axis2, k == 2u);
    let wallQ = select(select(q.x, q.y, k == 1u), q.z, k == 2u);
    let wallH = select(select(h.x, h.y, k == 1u), h.z, k == 2u);
    let wallN = select(wallAxis, -wallAxis, wallQ >= 0.0);
    let wallPenetration = abs(wallQ) - (wallH - r);

    // Outside a box.
    let boxContact = outsideBoxContact(q, h, axis0, axis1, axis2, r, distance2, distance, unit);
    let boxN = boxContact.normal;
    let boxPenetration = boxContact.penetration;

    let n = select(select(select(boxN, wallN, inside), sphereN, sphere), axis0, plane);
    let penetration = select(
      select(select(boxPenetration, wallPenetration, inside), spherePenetration, sphere),
      planePenetration,
      plane,
    );
    if (penetration > -skin) {
      // A zero normal is no surface: a guard (prepareColliders makes none), as in the CPU twin.
      touched = touched || any(n != vec3f(0.0));
      if (kill) { break; }
      resolveWorldContact(&p, &v, a, n, penetration, e, mu, params.dt, true, true, true);
      // Stuck where the contact left it: the colliders after it are not tested.
      if (stick) {
        stuck = true;
        break;
      }
    }
    k++;
    if (k == contacts) {
      k = 0u;
      c++;
    }
  }

  if (touched) {
    // Marked once a step (the contact iterations run this pass again): shaders/contactLane.wgsl.
    let contact = particleForceAccumSpareW(index);
    let marked = markedContact(contact, true);
    if (marked > contact) { storeForceAccumSpareW(index, marked); }
  }
  if (stuck) {
    // At rest where the contact left it, and immovable: no step or collider moves it again.
    storePositionInverseMass(index, vec4f(p, 0.0));
    storeVelocityDamping(index, vec4f(0.0, 0.0, 0.0, velocityDamping.w));
  } else if (c < colliderCount) {
    // Only a kill (or a stick) leaves the loop early. Parked where it touched, immovable, and marked dead for the other passes.
    storePositionInverseMass(index, vec4f(p, 0.0));
    storeVelocityDamping(index, vec4f(0.0, 0.0, 0.0, velocityDamping.w));
    storeAccelerationRadius(index, vec4f(a, DEAD_RADIUS));
  } else {
    // The step's lanes: position and velocity.
    storePositionInverseMass(index, vec4f(p, positionInverseMass.w));
    storeVelocityDamping(index, vec4f(v, velocityDamping.w));
  }
  // At the particle's entry in the resolver's tables: the velocity change's w lane, as u32 bits.
  var entry = NO_ENTRY;
  if (APPLY_DELTAS && (params.positionCopy != 0u)) { entry = bitcast<u32>(deltas[2u * index + 1u].w); }
  if (entry != NO_ENTRY) {
    // As stored above: a particle stuck or killed is at rest and immovable, a killed one "no particle".
    let stopped = c < colliderCount;
    let lanes = positionCopyLanes(
      p,
      select(r, DEAD_RADIUS, stopped && !stuck),
      select(v, vec3f(0.0), stopped),
      select(positionInverseMass.w, 0.0, stopped),
    );
    deltas[positionCopyAt(params.positionCopy, entry)] = lanes[0];
    deltas[positionCopyAt(params.positionCopy, entry) + 1u] = lanes[1];
  }
  // A contact can overflow too (a radius near float32's largest): counted, and parked, as the step does
  // (a killed particle is at rest already).
  if (wasFinite && !isFiniteState(p, select(v, vec3f(0.0), c < colliderCount))) { noteNonFinite(index); }
}
