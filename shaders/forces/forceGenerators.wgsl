// The force registry's field generators (Millington ch. 5, Cyclone's force
// generators) as functions of one particle: each returns the force it adds.
// Mirrored line for line by src/core/forces/fieldForces.ts (the CPU reference).
// Used by two passes: the force pass (shaders/forces/forces.wgsl) and the step with
// the forces fused in (shaders/forces/integrateForces.wgsl); each declares the
// `table` and `masks` bindings these read. Prepended: the generator records
// (src/core/forces/records.ts), shaders/forces/turbulence.wgsl and the generated
// `turbulenceField` (src/core/forces/turbulence.ts). Appended:
// `registeredForces`, generated from the registry's composition, one call a
// generator.

// What a generator may read of its particle.
struct ForceInput {
  position: vec3f,
  velocity: vec3f,
  inverseMass: f32,
}

// A range target: [first, end).
fn inRange(r: ForceRecord, index: u32) -> bool {
  return index >= r.first && index < r.end;
}

// An index-list target: the range, then the particle's bit.
fn inMask(r: ForceRecord, index: u32) -> bool {
  if (!inRange(r, index)) { return false; }
  let bit = index - r.first;
  return (masks[r.mask + bit / 32u] & (1u << (bit % 32u))) != 0u;
}

// Cyclone's ParticleGravity: f = g * mass, written g / inverseMass (one rounding).
fn force_gravity(r: ForceRecord, s: ForceInput) -> vec3f {
  return gravity_g(r) / s.inverseMass;
}

// Cyclone's ParticleDrag, -normalize(v) * (k1 |v| + k2 |v|^2) = -v * (k1 + k2 |v|):
// no normalize, so no 0/0 at rest.
fn force_drag(r: ForceRecord, s: ForceInput) -> vec3f {
  let speed2 = dot(s.velocity, s.velocity);
  // safeLength (shaders/shared/safeLength.wgsl): a speed whose square overflows stays finite.
  let speed = safeLength(s.velocity, speed2);
  // At rest (or a speed whose square underflows): no drag. A select, not a branch.
  return select(-(s.velocity * (drag_k1(r) + drag_k2(r) * speed)), vec3f(0.0), speed2 <= 0.0);
}

// Hooke's law along d = position - anchor: -k (|d| - rest) d/|d|, pushing
// when compressed, pulling when stretched; a bungee only pulls. No direction,
// no force, at |d| = 0.
fn hooke(anchor: vec3f, restLength: f32, stiffness: f32, bungee: bool, position: vec3f) -> vec3f {
  let d = position - anchor;
  let length2 = dot(d, d);
  if (length2 <= 0.0) { return vec3f(0.0); }
  let length = safeLength(d, length2);
  let stretch = length - restLength;
  if (bungee && stretch <= 0.0) { return vec3f(0.0); }
  return d * (-stiffness * stretch / length);
}

fn force_anchoredSpring(r: ForceRecord, s: ForceInput) -> vec3f {
  return hooke(anchoredSpring_anchor(r), anchoredSpring_restLength(r), anchoredSpring_stiffness(r), false, s.position);
}

fn force_anchoredBungee(r: ForceRecord, s: ForceInput) -> vec3f {
  return hooke(anchoredBungee_anchor(r), anchoredBungee_restLength(r), anchoredBungee_stiffness(r), true, s.position);
}

// Cyclone's ParticleBuoyancy with the partly submerged band fixed: the
// submerged share runs linearly from 0 at the top of the band to 1 at its
// bottom, so the force is continuous.
fn force_buoyancy(r: ForceRecord, s: ForceInput) -> vec3f {
  let submerged = clamp((buoyancy_surfaceTop(r) - s.position.y) * buoyancy_inverseBand(r), 0.0, 1.0);
  return vec3f(0.0, buoyancy_fullForce(r) * submerged, 0.0);
}

// Cyclone's ParticleFakeSpring: the acceleration that lands the particle on
// the damped oscillator's exact position after dt when the step moves with
// the new velocity (semi-implicit; with the explicit order it does not, and
// grows: src/core/forces/generators.ts), from coefficients the host computed
// for this dt (every damping regime, no NaN).
fn force_stiffSpring(r: ForceRecord, s: ForceInput) -> vec3f {
  let offset = s.position - stiffSpring_anchor(r);
  let accel = offset * stiffSpring_positionCoefficient(r) + s.velocity * stiffSpring_velocityCoefficient(r);
  return accel / s.inverseMass;
}

// strength * d / (|d|^2 + softening^2)^(3/2), d from the particle to the attractor.
fn force_attractor(r: ForceRecord, s: ForceInput) -> vec3f {
  let d = attractor_position(r) - s.position;
  let r2 = dot(d, d) + attractor_softening2(r);
  let inverse = inverseSqrt(r2);
  return d * (attractor_strength(r) * inverse * inverse * inverse);
}

// strength * (a x r) / (|a x r|^2 + softening^2): tangential about the unit axis a.
fn force_vortex(r: ForceRecord, s: ForceInput) -> vec3f {
  let tangent = cross(vortex_axis(r), s.position - vortex_position(r));
  let denominator = dot(tangent, tangent) + vortex_softening2(r);
  return tangent * (vortex_strength(r) / denominator);
}

fn force_wind(r: ForceRecord, s: ForceInput) -> vec3f {
  return wind_force(r);
}

fn force_turbulence(r: ForceRecord, s: ForceInput) -> vec3f {
  let q = s.position * turbulence_frequency(r) + turbulence_origin(r);
  return turbulenceField(q) * turbulence_strength(r);
}
