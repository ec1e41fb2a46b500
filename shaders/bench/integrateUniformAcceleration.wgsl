// Bench only: the packed-record step with one acceleration for every particle,
// read from the uniform instead of each particle's acceleration lane, to
// measure what the per-particle lane costs. Reads 48 bytes a particle (three
// lanes), writes 48.
// Prepended: the Particle struct and accessors from src/core/layout.ts,
// shaders/shared/dispatch.wgsl and shaders/bench/stepMath.wgsl.

// UniformStepParams: generated from src/shaders/params.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(1) @binding(0) var<uniform> params: UniformStepParams;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let index = particleIndex(invocation);
  if (index >= params.count) { return; }
  // Load only the lanes this step reads: never the acceleration lane.
  var p: Particle;
  p.positionInverseMass = particles[index].positionInverseMass;
  p.velocityDamping = particles[index].velocityDamping;
  p.forceAccumSpare = particles[index].forceAccumSpare;

  // We don't integrate things with infinite mass.
  let inverseMass = getInverseMass(p);
  if (inverseMass <= 0.0) { return; }

  let stepped = stepParticle(
    getPosition(p),
    getVelocity(p),
    params.acceleration,
    getForceAccum(p),
    inverseMass,
    getDamping(p),
    params.dt,
  );
  setPosition(&p, stepped.position);
  setVelocity(&p, stepped.velocity);
  // Clear the forces.
  setForceAccum(&p, vec3f(0.0));
  particles[index].positionInverseMass = p.positionInverseMass;
  particles[index].velocityDamping = p.velocityDamping;
  particles[index].forceAccumSpare = p.forceAccumSpare;
}
