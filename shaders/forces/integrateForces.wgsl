// The step with the registry's field forces fused in: shaders/step/integrate.wgsl
// asks `fieldForces` for the accumulator it integrates, and here that is the
// accumulator plus every registered generator's force, computed from the same
// position and velocity the force pass would read (Cyclone's order: forces
// accumulate, then the step integrates and clears). One pass instead of two:
// the record is read and written once a step, not twice (112 B a
// particle-step instead of 176 B), which is what counts on a GPU, where memory
// is the limit. On the software adapter, where each invocation and each
// uniform load costs, the typical effect fused measured 0.6-0.9x the step and
// as a pass of its own 1.0-1.2x (`npm run bench:forces` prints both).
// Composed over every slot (shaders/shared/dispatch.wgsl) or over the live list of a
// system with emitters (shaders/lifecycle/liveDispatch.wgsl, whose lists take group 2).
// Prepended: the force table's bindings, the records, shaders/forces/turbulence.wgsl and its generated modes, shaders/forces/forceGenerators.wgsl and
// `registeredForces` for the composition. Appended: shaders/step/integrate.wgsl.

// `table` and `masks` are declared by src/shaders/index.ts (forceTableBindings)
// in the group after the step's own.

fn fieldForces(index: u32, position: vec3f, velocity: vec3f, inverseMass: f32, accumulated: vec3f) -> vec3f {
  return registeredForces(index, ForceInput(position, velocity, inverseMass), accumulated);
}
