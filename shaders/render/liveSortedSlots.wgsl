// The live list of a system with emitters drawn through a depth sort's order
// (src/render/depthSort.ts with `live`): composed after
// shaders/render/liveRecords.wgsl, in shaders/render/liveOrder.wgsl's place,
// its slots read from sortedSlots[drawn] instead of the live list. The sort keyed free slots last, so the first
// `live` sorted slots, the ones the indirect draw reaches, are the live ones,
// back to front.

@group(0) @binding(5) var<storage, read> sortedSlots: array<u32>;

fn liveSlotOf(drawn: u32) -> u32 {
  return sortedSlots[drawn];
}
