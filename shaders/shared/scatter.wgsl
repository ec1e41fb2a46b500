// Writes (or, with ADD, adds) host-supplied values into one attribute of a
// range of particles: Cyclone's bulk setters and addForce. The particle store
// is read and written here by lane index so one pipeline serves every
// attribute; the lane and component mask come from src/core/layout.ts.
override ADD: bool = false;

// ScatterParams: generated from src/shaders/params.ts (the schema) and prepended.
@group(1) @binding(0) var<uniform> params: ScatterParams;
@group(1) @binding(1) var<storage, read> values: array<vec4f>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let i = particleIndex(invocation);
  if (i >= params.count) { return; }
  let slot = params.start + i;
  let old = particleLane(slot, params.lane);
  let incoming = select(values[i], old + values[i], ADD);
  storeParticleLane(slot, params.lane, select(old, incoming, params.mask != vec4u(0u)));
}
