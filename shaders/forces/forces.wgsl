// The force registry's field generators, Cyclone's ParticleForceRegistry::updateForces
// for one particle per invocation: every generator whose target holds the
// particle adds its force to the accumulator, in registry order. Runs before
// the step, which integrates and clears the accumulator.
// Prepended: the Particle struct and accessors (src/core/layout.ts),
// shaders/shared/dispatch.wgsl, the generator records (src/core/forces/records.ts),
// shaders/forces/turbulence.wgsl and its generated modes, shaders/forces/forceGenerators.wgsl and `registeredForces`,
// generated from the registry's composition (src/core/forces/records.ts).
//
// A system steps with its field forces fused into the step instead
// (shaders/forces/integrateForces.wgsl, over every slot or over the live list)
// unless pair springs must add theirs in between; this pass serves those,
// accumulateForces, and `fuseForces: false`.
//
// Parameters live in a uniform table (one slot of a ring, picked by dynamic
// offset): changing one is a queue.writeBuffer, never a new pipeline. Only
// adding or removing a generator changes `registeredForces`, and so the
// pipeline (cached per composition). A generic loop over the records with a
// switch on the kind measured 3 to 4 times slower on the software adapter.

// `table` and `masks`: group 1, declared by src/shaders/index.ts (forceTableBindings).

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let index = particleIndex(invocation);
  if (index >= table.count) { return; }
  // Lanes by name, read as needed (the acceleration lane never is): a layout
  // change that moves these attributes renames the lanes and fails here.
  let positionInverseMass = particlePositionInverseMass(index);
  // Nothing for immovable particles: the step never clears their accumulator.
  if (positionInverseMass.w <= 0.0) { return; }
  // Component by component: the software adapter loads and stores every
  // scalar separately (per lane, behind a bounds test), so the damping and the
  // spare word are neither read nor rewritten (about 10% of this pass there).
  let velocity = vec3f(
    particleVelocityDampingX(index),
    particleVelocityDampingY(index),
    particleVelocityDampingZ(index),
  );
  let accumulator = vec3f(
    particleForceAccumSpareX(index),
    particleForceAccumSpareY(index),
    particleForceAccumSpareZ(index),
  );
  let total = registeredForces(index, ForceInput(positionInverseMass.xyz, velocity, positionInverseMass.w), accumulator);
  storeForceAccumSpareX(index, total.x);
  storeForceAccumSpareY(index, total.y);
  storeForceAccumSpareZ(index, total.z);
}
