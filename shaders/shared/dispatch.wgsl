// Shared by every per-particle pass: the workgroup size comes from TypeScript,
// and counts past 65,535 workgroups are dispatched as a 2D grid of workgroups,
// flattened back to one index here (the kernel then checks it against its count).
override WORKGROUP_SIZE: u32 = 64u;

// A kernel's entry point takes `invocation: Invocation` and asks particleIndex for its index.
struct Invocation {
  @builtin(workgroup_id) workgroup: vec3u,
  @builtin(num_workgroups) workgroups: vec3u,
  @builtin(local_invocation_index) local: u32,
}

fn flatIndex(invocation: Invocation) -> u32 {
  return (invocation.workgroup.y * invocation.workgroups.x + invocation.workgroup.x) * WORKGROUP_SIZE + invocation.local;
}

// The first slot and the size of the chunk a kernel runs over when a chunked
// system dispatches it chunk by chunk (src/gpu/shared/kernel.ts, `perChunk`); else
// 0 and all. An invocation past its chunk (the last workgroup's rest) gets an
// index past every count, which the kernel's own bound check turns away.
override OWN_CHUNK_BASE: u32 = 0u;
override OWN_CHUNK_SIZE: u32 = 0xffffffffu;

fn particleIndex(invocation: Invocation) -> u32 {
  let flat = flatIndex(invocation);
  // (Unchunked, the first operand is the constant false: no test at all.)
  return select(OWN_CHUNK_BASE + flat, 0xffffffffu, OWN_CHUNK_SIZE != 0xffffffffu && flat >= OWN_CHUNK_SIZE);
}
