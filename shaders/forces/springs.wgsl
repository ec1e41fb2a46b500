// Springs and bungees between particle pairs (Cyclone's ParticleSpring and
// ParticleBungee, both ends at once): each particle gathers the forces of its
// own springs, so no two invocations write the same accumulator, no atomics
// are needed and the sums come out the same every run.
// Mirrored line for line by src/core/forces/springForces.ts (the CPU reference).
// Prepended: the Particle struct and accessors (src/core/layout.ts) and
// shaders/shared/dispatch.wgsl.
//
// The links in compressed sparse rows, built on the host (src/core/forces/registry.ts):
// particle first + i owns ends[offsets[i]] .. ends[offsets[i + 1]] - 1, each the
// particle at the spring's other end and the spring's index in `links`.

// SpringParams and SpringLink: generated from src/shaders/params.ts (the schema) and prepended.
@group(1) @binding(0) var<uniform> params: SpringParams;
@group(1) @binding(1) var<storage, read> offsets: array<u32>;
@group(1) @binding(2) var<storage, read> ends: array<vec2u>;
@group(1) @binding(3) var<storage, read> links: array<SpringLink>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let row = particleIndex(invocation);
  if (row >= params.count) { return; }
  let index = params.first + row;
  let p = particleAt(index);
  // Nothing for immovable particles: the step never clears their accumulator.
  if (getInverseMass(p) <= 0.0) { return; }
  let position = getPosition(p);
  var force = getForceAccum(p);
  for (var e = offsets[row]; e < offsets[row + 1u]; e++) {
    let end = ends[e];
    let link = links[end.y];
    // Another particle's position lane: this pass writes only accumulator
    // lanes, so reading it races with nothing.
    let d = position - particlePositionInverseMass(end.x).xyz;
    let length2 = dot(d, d);
    if (length2 <= 0.0) { continue; } // coincident ends: no direction, no force
    let length = safeLength(d, length2);
    let stretch = length - link.restLength;
    if (link.bungee != 0u && stretch <= 0.0) { continue; }
    // -k (|d| - rest) d/|d|: the other end sees -d, the same length and so
    // exactly the opposite force.
    force += d * (-link.stiffness * stretch / length);
  }
  storeForceAccumSpare(index, vec4f(force, p.forceAccumSpare.w));
}
