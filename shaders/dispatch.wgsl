// Shared by every per-particle pass: the workgroup size comes from TypeScript,
// and counts past 65,535 workgroups are dispatched as a 2D grid of workgroups,
// flattened back to one index here (the kernel then checks it against its count).
override WORKGROUP_SIZE: u32 = 64u;

fn particleIndex(workgroup: vec3u, workgroups: vec3u, local: u32) -> u32 {
  return (workgroup.y * workgroups.x + workgroup.x) * WORKGROUP_SIZE + local;
}
