// The plain step: no field forces fused in (shaders/forces/integrateForces.wgsl is
// the other choice), so the step integrates the accumulator as the host and
// any force passes left it. Inlined away.

fn fieldForces(index: u32, position: vec3f, velocity: vec3f, inverseMass: f32, accumulated: vec3f) -> vec3f {
  return accumulated;
}
