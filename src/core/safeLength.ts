/** The CPU twin of shaders/shared/safeLength.wgsl. No GPU here. */
import type { Rounding } from './integrate';

/**
 * |d| of a vector whose squared length `length2` is already computed (a
 * spring's or a link's extent, a speed): sqrt(length2), or, when length2
 * overflowed float32 (|d| past about 1.8e19), the vector scaled by its largest
 * component first, so the length stays finite (shaders/shared/safeLength.wgsl, op for
 * op; the GPU's division may differ by its 2.5 ULP in that branch alone).
 */
export function safeLength(dx: number, dy: number, dz: number, length2: number, round: Rounding): number {
  if (length2 !== Infinity) return round(Math.sqrt(length2));
  const m = Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz));
  const ux = round(dx / m);
  const uy = round(dy / m);
  const uz = round(dz / m);
  return round(m * round(Math.sqrt(round(round(round(ux * ux) + round(uy * uy)) + round(uz * uz)))));
}
