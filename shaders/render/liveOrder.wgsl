// The live list of a system with emitters drawn in its own order: the
// drawn-th particle is the drawn-th live slot (shaders/render/liveRecords.wgsl).

fn liveSlotOf(drawn: u32) -> u32 {
  return liveLists[liveCounters.parity * params.count + drawn];
}
