// The uniform grid's cells and their buckets in the hash table, shared by the
// grid build (shaders/collisions/grid.wgsl) and the contact passes (shaders/collisions/contacts.wgsl).
// Mirrored by src/core/collisions/grid.ts.

// Cells past 2^30 are clamped: still correct (clamping keeps neighbours
// within one cell), only slower where many particles share an edge cell.
const CELL_LIMIT: f32 = 1073741824.0;

// One multiply (correctly rounded on every adapter, and not fusable) then
// floor: the GPU and the CPU twin put every particle in the same cell.
fn cellOf(p: vec3f, inverseCellSize: f32) -> vec3i {
  return vec3i(clamp(floor(p * inverseCellSize), vec3f(-CELL_LIMIT), vec3f(CELL_LIMIT)));
}

// The hash of a row of cells along x (Teschner et al.'s spatial hash of y and
// z, then a xor-shift-multiply mix so that the low bits the mask keeps depend
// on every bit); a cell's bucket is its row's plus x, so the three cells
// (x - 1, y, z) .. (x + 1, y, z) lie in three consecutive buckets (modulo the
// table) and their particles in one run of the sorted entries.
fn rowOf(y: i32, z: i32) -> u32 {
  var h = (bitcast<u32>(y) * 19349663u) ^ (bitcast<u32>(z) * 83492791u);
  h = (h ^ (h >> 16u)) * 0x7feb352du;
  return h ^ (h >> 15u);
}

fn bucketOf(cell: vec3i, mask: u32) -> u32 {
  return (rowOf(cell.y, cell.z) + bitcast<u32>(cell.x)) & mask;
}
