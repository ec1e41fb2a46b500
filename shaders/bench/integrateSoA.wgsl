// Bench only: the particle step over a structure of arrays, six buffers, one
// per attribute, vectors packed xyz (12 bytes, no padding), to compare with
// the packed vec4 records of shaders/step/integrate.wgsl on the same counts.
// Reads 56 bytes a particle, writes 36 (the packed layout: 64 and 48).
// Prepended: shaders/shared/dispatch.wgsl and shaders/bench/stepMath.wgsl.

// StepParams: generated from src/shaders/params.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read_write> positions: array<f32>;
@group(0) @binding(1) var<storage, read_write> velocities: array<f32>;
@group(0) @binding(2) var<storage, read> accelerations: array<f32>;
@group(0) @binding(3) var<storage, read_write> forceAccums: array<f32>;
@group(0) @binding(4) var<storage, read> inverseMasses: array<f32>;
@group(0) @binding(5) var<storage, read> dampings: array<f32>;
@group(1) @binding(0) var<uniform> params: StepParams;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let index = particleIndex(invocation);
  if (index >= params.count) { return; }
  // We don't integrate things with infinite mass.
  let inverseMass = inverseMasses[index];
  if (inverseMass <= 0.0) { return; }

  let first = index * 3u;
  let stepped = stepParticle(
    vec3f(positions[first], positions[first + 1u], positions[first + 2u]),
    vec3f(velocities[first], velocities[first + 1u], velocities[first + 2u]),
    vec3f(accelerations[first], accelerations[first + 1u], accelerations[first + 2u]),
    vec3f(forceAccums[first], forceAccums[first + 1u], forceAccums[first + 2u]),
    inverseMass,
    dampings[index],
    params.dt,
  );
  positions[first] = stepped.position.x;
  positions[first + 1u] = stepped.position.y;
  positions[first + 2u] = stepped.position.z;
  velocities[first] = stepped.velocity.x;
  velocities[first + 1u] = stepped.velocity.y;
  velocities[first + 2u] = stepped.velocity.z;
  // Clear the forces.
  forceAccums[first] = 0.0;
  forceAccums[first + 1u] = 0.0;
  forceAccums[first + 2u] = 0.0;
}
