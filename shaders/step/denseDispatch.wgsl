// The step's walk of a system with emitters, composed in place of
// shaders/shared/dispatch.wgsl: invocation i of a dispatch over DENSE_SPAN
// invocations (src/gpu/step/liveIntegratePass.ts) gets slot i of the chunk this
// run owns, in slot order, so neighbouring lanes read neighbouring records;
// a slot that is not live gets NO_PARTICLE, which every kernel's
// `index >= count` guard rejects. A live slot's live index is
// `liveIndexOf[slot]` (kept by shaders/lifecycle/fill.wgsl, src/gpu/lifecycle/lifeBuffers.ts and
// src/gpu/system/snapshotTransfer.ts), so the ageing sets the death bit of the
// particle's place in the live list.
override WORKGROUP_SIZE: u32 = 64u;
override CAPACITY: u32;
// Slots a run covers: a chunk's over chunked state (src/gpu/shared/kernel.ts, 'owner'), else the capacity.
override DENSE_SPAN: u32;
// Over chunked state DENSE_SPAN - 1 (a chunk is a power of two), else all ones: a slot's offset in its chunk.
override DENSE_CHUNK_MASK: u32 = 0xffffffffu;

const NO_PARTICLE: u32 = 0xffffffffu;

// Group 2 of the step: LifeBuffers' stepLayout, the inverse map first.
@group(2) @binding(0) var<storage, read> liveIndexOf: array<u32>;
@group(2) @binding(1) var<storage, read> liveCounters: LifeCounters;
// One past the highest slot ever live (raised by shaders/lifecycle/fill.wgsl; src/gpu/lifecycle/lifeBuffers.ts, highWater).
@group(2) @binding(5) var<storage, read> highWater: u32;

// As in shaders/shared/dispatch.wgsl, which this replaces.
struct Invocation {
  @builtin(workgroup_id) workgroup: vec3u,
  @builtin(num_workgroups) workgroups: vec3u,
  @builtin(local_invocation_index) local: u32,
}

// The slot particleIndex found, kept for the ageing after the step (shaders/step/liveAge.wgsl): read once.
var<private> walkedSlot: u32 = NO_PARTICLE;

fn particleIndex(invocation: Invocation) -> u32 {
  let i = (invocation.workgroup.y * invocation.workgroups.x + invocation.workgroup.x) * WORKGROUP_SIZE + invocation.local;
  // The first slot of the bound chunk: particleCount() ends it (unchunked, the mask folds it to 0, no division).
  let slot = ((particleCount() - 1u) & ~DENSE_CHUNK_MASK) + i;
  // Live particles have alive = 1 until judged dead this step (shaders/lifecycle/lifeDeath.wgsl); free slots have 0.
  // The dispatch covers every slot, as the host cannot size it: the slots at or past the high-water mark,
  // where no particle is live, return before their life record is read.
  let pastMark = slot >= highWater;
  walkedSlot = select(slot, NO_PARTICLE, i >= DENSE_SPAN || slot >= CAPACITY || pastMark || life[slot].alive == 0u);
  return walkedSlot;
}

// The live index of the walked slot, read only for a death (its bit).
fn walkedLiveIndex() -> u32 {
  return liveIndexOf[walkedSlot];
}
