// The live-list twin of shaders/shared/dispatch.wgsl: composed in its place, it
// turns a per-particle pass (the forces, src/gpu/forces/forcesPass.ts) into a pass
// over the live particles only. Invocation k of a dispatch over the capacity
// gets the k-th live slot; past the live count it gets NO_PARTICLE, which
// every kernel's `index >= count` guard rejects (the kernels' count is the
// capacity). The pass itself is unchanged.
override WORKGROUP_SIZE: u32 = 64u;
override CAPACITY: u32;

const NO_PARTICLE: u32 = 0xffffffffu;

// Group 2 of a live pass: the live lists (two halves) and the counters (live count, parity).
@group(2) @binding(0) var<storage, read> liveLists: array<u32>;
@group(2) @binding(1) var<storage, read> liveCounters: LifeCounters;

// As in shaders/shared/dispatch.wgsl, which this replaces.
struct Invocation {
  @builtin(workgroup_id) workgroup: vec3u,
  @builtin(num_workgroups) workgroups: vec3u,
  @builtin(local_invocation_index) local: u32,
}

fn particleIndex(invocation: Invocation) -> u32 {
  let k = (invocation.workgroup.y * invocation.workgroups.x + invocation.workgroup.x) * WORKGROUP_SIZE + invocation.local;
  if (k >= liveCounters.live) { return NO_PARTICLE; }
  let slot = liveLists[liveCounters.parity * CAPACITY + k];
  // Over chunked state the pass runs once per chunk (src/gpu/shared/kernel.ts, 'owner'): another chunk's slot is skipped.
  return select(NO_PARTICLE, slot, ownsParticle(slot));
}
