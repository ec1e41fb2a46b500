/**
 * The CPU reference of shaders/forces/springs.wgsl: each particle gathers the forces
 * of its own springs from the compressed rows, in the same order.
 */
import type { Rounding } from '../integrate';
import { OFFSET, FLOATS_PER_PARTICLE } from '../layout';
import type { FloatArray } from '../particles';
import type { SpringRows } from './registry';
import { safeLength } from '../safeLength';

const { POSITION, INVERSE_MASS, FORCE_ACCUM } = OFFSET;

/** Adds every spring's force to the accumulators of its movable ends. */
export function applySpringForces(state: FloatArray, rows: SpringRows, params: FloatArray, round: Rounding): void {
  for (let row = 0; row < rows.count; row++) {
    const index = rows.first + row;
    const base = index * FLOATS_PER_PARTICLE;
    // Nothing for immovable particles: the step never clears their accumulator.
    if ((state[base + INVERSE_MASS] as number) <= 0) continue;
    const px = state[base + POSITION] as number;
    const py = state[base + POSITION + 1] as number;
    const pz = state[base + POSITION + 2] as number;
    for (let e = rows.offsets[row] as number; e < (rows.offsets[row + 1] as number); e++) {
      const other = (rows.ends[2 * e] as number) * FLOATS_PER_PARTICLE;
      const link = rows.ends[2 * e + 1] as number;
      const restLength = params[2 * link] as number;
      const stiffness = params[2 * link + 1] as number;
      const dx = round(px - (state[other + POSITION] as number));
      const dy = round(py - (state[other + POSITION + 1] as number));
      const dz = round(pz - (state[other + POSITION + 2] as number));
      const length2 = round(round(round(dx * dx) + round(dy * dy)) + round(dz * dz));
      if (length2 <= 0) continue; // coincident ends: no direction, no force
      const length = safeLength(dx, dy, dz, length2, round);
      const stretch = round(length - restLength);
      if (rows.bungee[link] !== 0 && stretch <= 0) continue;
      const scale = round(round(-stiffness * stretch) / length);
      state[base + FORCE_ACCUM] = round((state[base + FORCE_ACCUM] as number) + round(dx * scale));
      state[base + FORCE_ACCUM + 1] = round((state[base + FORCE_ACCUM + 1] as number) + round(dy * scale));
      state[base + FORCE_ACCUM + 2] = round((state[base + FORCE_ACCUM + 2] as number) + round(dz * scale));
    }
  }
}
