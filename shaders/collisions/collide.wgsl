// The colliders: every particle against every collider of the world, after
// the step, in the colliders' order. Each contact is Cyclone's
// ParticleContact::resolve with particle[1] = NULL (the world is immovable),
// plus Coulomb friction on the tangential velocity.
// Mirrored by src/core/collisions/collide.ts (the CPU twin), operation for
// operation. Prepended: the Particle struct and accessors, shaders/shared/dispatch.wgsl,
// the Collider struct and constants generated from src/core/collisions/colliders.ts,
// shaders/collisions/worldContact.wgsl and shaders/collisions/colliderKinds.wgsl.

// With APPLY_DELTAS the pass first adds the contact resolver's corrections
// (shaders/collisions/contacts.wgsl) to each particle: one Jacobi iteration ends here, so
// the colliders have the last word and no particle ends an iteration inside one.
override APPLY_DELTAS: bool = false;
// False where the world has no colliders (the iterations' apply pass alone):
// the collider loop is compiled out, as the software adapter runs a loop's body
// at least once under a lane mask even when it never iterates.
override COLLIDERS: bool = true;

// KIND_* and FLAG_*: printed from src/core/collisions/colliders.ts.
// The collision-event lane (forceAccumSpare.w; src/core/collisions/colliders.ts
// CONTACT_*): a tracked particle (>= CONTACT_TRACKED, prepended with the
// lifecycle records or alone) that touches gets TOUCHED_NOW (1) set.
// A killed particle: inverse mass 0 (never integrated again), at rest where it
// touched, and DEAD_RADIUS (prepended), which every collision pass reads as "no particle".

// CollideParams: generated from src/shaders/params.ts (the schema) and prepended.
@group(1) @binding(0) var<uniform> params: CollideParams;
@group(1) @binding(1) var<storage, read> colliders: array<Collider>;
// shaders/shared/health.wgsl (prepended) counts what goes non-finite here.
@group(1) @binding(3) var<storage, read_write> health: array<atomic<u32>, HEALTH_WORDS>;
// Two vec4 a particle: the position correction, then the velocity change;
// with particle contacts, from vec4 params.positionCopy, the contact
// resolver's position copy (shaders/collisions/positionCopy.wgsl), which applying the
// corrections keeps up to date.
@group(1) @binding(2) var<storage, read_write> deltas: array<vec4f>;

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

  // Each collider in the table's order; the kinds' contacts are
  // shaders/collisions/colliderKinds.wgsl's, the same functions the fused step calls.
  // The kind is the same for every invocation at a given c: no divergence.
  var c = 0u;
  var stuck = false;
  // Without colliders the count is 0: no collider is tested, none kills or sticks.
  let colliderCount = select(0u, params.colliderCount, COLLIDERS);
  while (COLLIDERS && c < colliderCount) {
    let collider = colliders[c];
    let inside = (collider.flags & FLAG_INSIDE) != 0u;
    let kill = (collider.flags & FLAG_KILL) != 0u;
    let stick = (collider.flags & FLAG_STICK) != 0u;
    var stopped = false;
    switch collider.kind {
      case KIND_PLANE: {
        stopped = planeCollider(collider, collider.axis0, &p, &v, a, r, skin, params.dt, kill, stick, true, true);
      }
      case KIND_SPHERE: {
        stopped = sphereCollider(collider, &p, &v, a, r, skin, params.dt, inside, kill, stick, true, true);
      }
      default: {
        stopped = boxCollider(collider, &p, &v, a, r, skin, params.dt, inside, kill, stick, true, true);
      }
    }
    // Killed, or stuck where the contact left it: the colliders after it are not tested.
    if (stopped) {
      stuck = !kill;
      break;
    }
    c++;
  }
  let touched = worldTouched;

  if (touched) {
    // Marked once a step (the contact iterations run this pass again): shaders/collisions/contactLane.wgsl.
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
