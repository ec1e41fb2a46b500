// The step alone (a system without emitters): one particle per invocation.
// A system with emitters enters through shaders/step/liveAge.wgsl instead.
@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  stepParticle(invocation);
}
