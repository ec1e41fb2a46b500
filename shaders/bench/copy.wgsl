// The bandwidth roofline for the per-particle passes: a plain copy with vec4
// loads and stores and no arithmetic. Each invocation copies 64 bytes, four
// vec4s written out (a loop bounded by an override measured ~25% slower on
// SwiftShader): today's particle record, so the copy has the step's shape,
// one invocation a particle at the same stride, and what separates the two is
// the step's math and its partial store.
// Prepended: shaders/shared/dispatch.wgsl.
const VEC4S_PER_INVOCATION: u32 = 4u;

// CopyParams: generated from src/shaders/params.ts (the schema) and prepended.
@group(0) @binding(0) var<storage, read> source: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> destination: array<vec4f>;
@group(0) @binding(2) var<uniform> params: CopyParams;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let index = particleIndex(invocation);
  if (index >= params.invocations) { return; }
  let first = index * VEC4S_PER_INVOCATION;
  let lane0 = source[first];
  let lane1 = source[first + 1u];
  let lane2 = source[first + 2u];
  let lane3 = source[first + 3u];
  destination[first] = lane0;
  destination[first + 1u] = lane1;
  destination[first + 2u] = lane2;
  destination[first + 3u] = lane3;
}
