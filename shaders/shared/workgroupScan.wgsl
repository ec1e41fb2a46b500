// A log-step (Hillis-Steele) inclusive scan of one u32 a lane across a
// workgroup of SCAN_LANES invocations, in workgroup memory: eight rounds of
// two barriers. Shared by the grid's parallel scan (shaders/collisions/grid.wgsl) and the
// depth sort's digit totals (shaders/render/depthSort.wgsl). Every invocation
// of the workgroup calls it, from uniform control flow.
const SCAN_LANES: u32 = 256u;

var<workgroup> scanLanes: array<u32, SCAN_LANES>;

// The sum of `value` over lanes [0, lane], for every lane at once.
fn workgroupInclusiveScan(lane: u32, value: u32) -> u32 {
  scanLanes[lane] = value;
  workgroupBarrier();
  for (var offset = 1u; offset < SCAN_LANES; offset <<= 1u) {
    let before = select(0u, scanLanes[max(lane, offset) - offset], lane >= offset);
    workgroupBarrier();
    scanLanes[lane] += before;
    workgroupBarrier();
  }
  return scanLanes[lane];
}
