/**
 * The uniform grid for particle-particle collisions: the CPU twin of
 * shaders/collisions/gridHash.wgsl and shaders/collisions/grid.wgsl. Cells are cubes a little
 * wider than the widest contact (two of the largest radius plus the skin), so
 * every pair in contact lies in the same or adjacent cells; cells are hashed
 * into a power-of-two table, and the particles are counting-sorted by
 * (bucket, index). The GPU builds the same table with atomics and then sorts
 * each bucket; here one pass in index order gives that order directly.
 */
import { OFFSET, FLOATS_PER_PARTICLE } from '../layout';
import type { Rounding } from '../integrate';
import type { FloatArray } from '../particles';

/** Cells past 2^30 are clamped (still correct: clamping keeps neighbours within one cell). */
export const CELL_LIMIT = 2 ** 30;
/**
 * The cell is wider than the widest contact by this share, so a pair in
 * contact is never two cells apart through the rounding of p * (1/cell):
 * that rounding moves a cell coordinate by at most 2u|p|/cell, below the
 * margin while |p| < 2^15 cells from the origin (2^-8 / 2^-23 / 2). Further
 * out, pairs within float32 rounding of touching may be missed.
 */
export const CELL_MARGIN = 2 ** -8;
export const MIN_BUCKETS = 1024;

export interface GridSpacing {
  /** Float32, as the shaders see it. */
  readonly cellSize: number;
  readonly inverseCellSize: number;
}

/** The grid's cell for particles of radius up to `maxRadius` with contacts from `skin` apart. */
export function gridSpacing(maxRadius: number, skin: number): GridSpacing {
  const cellSize = Math.fround((2 * maxRadius + skin) * (1 + CELL_MARGIN));
  return { cellSize, inverseCellSize: Math.fround(1 / cellSize) };
}

/** Buckets in the hash table: a power of two, at least the capacity (so a bucket holds about one cell). */
export function bucketCount(capacity: number): number {
  return Math.max(MIN_BUCKETS, 2 ** Math.ceil(Math.log2(Math.max(capacity, 1))));
}

/** cellOf of shaders/collisions/gridHash.wgsl, one axis: floor(p * (1/cell)), clamped. */
export function cellCoordinate(x: number, inverseCellSize: number, round: Rounding): number {
  return Math.min(Math.max(Math.floor(round(x * inverseCellSize)), -CELL_LIMIT), CELL_LIMIT);
}

/** rowOf of shaders/collisions/gridHash.wgsl: the hash of the row of cells along x at (y, z), u32 arithmetic through Math.imul. */
export function rowOf(cy: number, cz: number): number {
  let h = (Math.imul(cy, 19349663) ^ Math.imul(cz, 83492791)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}

/** bucketOf of shaders/collisions/gridHash.wgsl: the row's hash plus x, so neighbours along x share a run of buckets. */
export function bucketOf(cx: number, cy: number, cz: number, mask: number): number {
  return ((rowOf(cy, cz) + cx) & mask) >>> 0;
}

const { POSITION, RADIUS } = OFFSET;

/** The grid's tables, laid out as the GPU's buffers. */
export class CpuGrid {
  readonly buckets: number;
  readonly mask: number;
  /** bucketCount + 1 starts: bucket b holds entries[starts[b], starts[b + 1]). */
  readonly starts: Uint32Array;
  /** Particle indices sorted by (bucket, index). */
  readonly entries: Uint32Array;
  /** Per particle: cell xyz and bucket (-1: not in the grid). */
  readonly cells: Int32Array;

  constructor(readonly capacity: number) {
    this.buckets = bucketCount(capacity);
    this.mask = this.buckets - 1;
    this.starts = new Uint32Array(this.buckets + 1);
    this.entries = new Uint32Array(capacity);
    this.cells = new Int32Array(capacity * 4);
  }

  /** Builds the grid of particles [0, count): `assign`, the scan, `scatter` and `sortBuckets` of the shaders. */
  build(state: FloatArray, count: number, inverseCellSize: number, round: Rounding): void {
    const { starts, cells, entries, mask } = this;
    starts.fill(0);
    for (let i = 0; i < count; i++) {
      const base = i * FLOATS_PER_PARTICLE;
      if ((state[base + RADIUS] as number) < 0) {
        cells[i * 4] = 0;
        cells[i * 4 + 1] = 0;
        cells[i * 4 + 2] = 0;
        cells[i * 4 + 3] = -1;
        continue;
      }
      const cx = cellCoordinate(state[base + POSITION] as number, inverseCellSize, round);
      const cy = cellCoordinate(state[base + POSITION + 1] as number, inverseCellSize, round);
      const cz = cellCoordinate(state[base + POSITION + 2] as number, inverseCellSize, round);
      const bucket = bucketOf(cx, cy, cz, mask);
      cells[i * 4] = cx;
      cells[i * 4 + 1] = cy;
      cells[i * 4 + 2] = cz;
      cells[i * 4 + 3] = bucket;
      starts[bucket]! += 1;
    }
    let sum = 0;
    for (let b = 0; b <= this.buckets; b++) {
      const n = starts[b] as number;
      starts[b] = sum;
      sum += n;
    }
    const cursor = starts.slice(0, this.buckets);
    for (let i = 0; i < count; i++) {
      const bucket = cells[i * 4 + 3] as number;
      if (bucket >= 0) entries[cursor[bucket]!++] = i;
    }
  }
}
