// The colliders: every particle against every collider of the world, after
// the step, in the colliders' order. Each contact is Cyclone's
// ParticleContact::resolve with particle[1] = NULL (the world is immovable),
// plus Coulomb friction on the tangential velocity.
// Mirrored line for line by src/core/collisions/colliders.ts (the CPU twin).
// Prepended: the Particle struct and accessors, shaders/dispatch.wgsl and the
// Collider struct generated from src/core/collisions/colliders.ts.

// With APPLY_DELTAS the pass first adds the contact resolver's corrections
// (shaders/contacts.wgsl) to each particle: one Jacobi iteration ends here, so
// the colliders have the last word and no particle ends an iteration inside one.
override APPLY_DELTAS: bool = false;

const KIND_PLANE: u32 = 0u;
const KIND_SPHERE: u32 = 1u;
const KIND_BOX: u32 = 2u;
const FLAG_INSIDE: u32 = 1u;
const FLAG_KILL: u32 = 2u;
// A killed particle: inverse mass 0 (never integrated again), at rest where it
// touched, and this radius, which every collision pass reads as "no particle".
const DEAD_RADIUS: f32 = -1.0;

struct CollideParams {
  count: u32,
  colliderCount: u32,
  dt: f32,
  // A contact exists from `skin` before touching: its velocity is resolved
  // (so a resting particle stays at rest through rounding), its position
  // only once it penetrates.
  skin: f32,
}

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<uniform> params: CollideParams;
@group(1) @binding(1) var<storage, read> colliders: array<Collider>;
// Two vec4 a particle: the position correction, then the velocity change.
@group(1) @binding(2) var<storage, read> deltas: array<vec4f>;

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
) {
  let separatingVelocity = dot3(*v, n);
  if (separatingVelocity < 0.0) {
    var newSepVelocity = -separatingVelocity * restitution;
    // Remove the closing velocity the acceleration built up in the last step,
    // so a resting particle comes to rest instead of bouncing on gravity.
    let accCausedSepVelocity = dot3(a, n) * params.dt;
    if (accCausedSepVelocity < 0.0) {
      newSepVelocity = newSepVelocity + restitution * accCausedSepVelocity;
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

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(
  @builtin(workgroup_id) workgroup: vec3u,
  @builtin(num_workgroups) workgroups: vec3u,
  @builtin(local_invocation_index) local: u32,
) {
  let index = particleIndex(workgroup, workgroups, local);
  if (index >= params.count) { return; }
  var particle = particles[index];
  // Immovable particles (and dead ones) are never moved.
  if (getInverseMass(particle) <= 0.0) { return; }

  var p = getPosition(particle);
  var v = getVelocity(particle);
  if (APPLY_DELTAS) {
    p = p + deltas[2u * index].xyz;
    v = v + deltas[2u * index + 1u].xyz;
  }
  let a = getAcceleration(particle);
  let r = getRadius(particle);
  let skin = params.skin;
  var killed = false;

  for (var c = 0u; c < params.colliderCount && !killed; c++) {
    let collider = colliders[c];
    let inside = (collider.flags & FLAG_INSIDE) != 0u;
    let kill = (collider.flags & FLAG_KILL) != 0u;
    let e = collider.restitution;
    let mu = collider.friction;
    if (collider.kind == KIND_PLANE) {
      // A half-space: anything behind the plane is inside it, however fast it came.
      let n = collider.axis0;
      let distance = dot3(n, p) - collider.size.x;
      let penetration = r - distance;
      if (penetration > -skin) {
        if (kill) { killed = true; } else { resolveWorldContact(&p, &v, a, n, penetration, e, mu); }
      }
    } else if (collider.kind == KIND_SPHERE) {
      let d = p - collider.center;
      let distance = sqrt(dot3(d, d));
      // A particle at the very centre leaves upwards.
      var n = vec3f(0.0, 1.0, 0.0);
      if (distance > 0.0) { n = d / distance; }
      var penetration = (collider.size.x + r) - distance;
      if (inside) {
        n = -n;
        penetration = (distance + r) - collider.size.x;
      }
      if (penetration > -skin) {
        if (kill) { killed = true; } else { resolveWorldContact(&p, &v, a, n, penetration, e, mu); }
      }
    } else if (inside) {
      // Inside a box: one contact per axis, each with the nearer wall.
      let axes = array<vec3f, 3>(collider.axis0, collider.axis1, collider.axis2);
      for (var k = 0u; k < 3u && !killed; k++) {
        let axis = axes[k];
        let q = dot3(p - collider.center, axis);
        let penetration = abs(q) - (collider.size[k] - r);
        if (penetration > -skin) {
          let n = select(axis, -axis, q >= 0.0);
          if (kill) { killed = true; } else { resolveWorldContact(&p, &v, a, n, penetration, e, mu); }
        }
      }
    } else {
      // Outside a box: the closest point of the box, in its own axes.
      let d = p - collider.center;
      let q = vec3f(dot3(d, collider.axis0), dot3(d, collider.axis1), dot3(d, collider.axis2));
      let h = collider.size;
      let outside = q - clamp(q, -h, h);
      let distance2 = dot3(outside, outside);
      var n: vec3f;
      var penetration: f32;
      if (distance2 > 0.0) {
        let distance = sqrt(distance2);
        let local = outside / distance;
        n = collider.axis0 * local.x + collider.axis1 * local.y + collider.axis2 * local.z;
        penetration = r - distance;
      } else {
        // The centre is inside the box: out through the nearest face (lowest axis on a tie).
        let depth = h - abs(q);
        var k = 0u;
        if (depth.y < depth[k]) { k = 1u; }
        if (depth.z < depth[k]) { k = 2u; }
        let axes = array<vec3f, 3>(collider.axis0, collider.axis1, collider.axis2);
        n = select(-axes[k], axes[k], q[k] >= 0.0);
        penetration = depth[k] + r;
      }
      if (penetration > -skin) {
        if (kill) { killed = true; } else { resolveWorldContact(&p, &v, a, n, penetration, e, mu); }
      }
    }
  }

  if (killed) {
    // Parked where it touched, immovable, and marked dead for the other passes.
    setInverseMass(&particle, 0.0);
    setVelocity(&particle, vec3f(0.0));
    setRadius(&particle, DEAD_RADIUS);
    setPosition(&particle, p);
    particles[index].accelerationRadius = particle.accelerationRadius;
  } else {
    setPosition(&particle, p);
    setVelocity(&particle, v);
  }
  // The step's lanes: position and velocity (and inverse mass when killed).
  particles[index].positionInverseMass = particle.positionInverseMass;
  particles[index].velocityDamping = particle.velocityDamping;
}
