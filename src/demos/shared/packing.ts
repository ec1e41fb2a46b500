/**
 * Host-side particle records for the demos' relaunches: packed straight into
 * the layout of src/core/layout.ts (force accumulators cleared) and written
 * through the queue, with no per-particle objects. Values are produced by the
 * demos themselves (finite, inverse mass > 0 or 0, damping in [0, 1]), so the
 * API's validation is not repeated per frame.
 */
import { OFFSET, FLOATS_PER_PARTICLE } from '../../core/layout';
import type { ParticleSystem } from '../../gpu/particleSystem';

const { POSITION, INVERSE_MASS, VELOCITY, DAMPING, ACCELERATION, FORCE_ACCUM: FORCE } = OFFSET;

export class ParticleRecords {
  readonly data: Float32Array<ArrayBuffer>;

  constructor(readonly capacity: number) {
    this.data = new Float32Array(capacity * FLOATS_PER_PARTICLE);
  }

  /** Record `i` (in this block): position, velocity, acceleration, inverse mass, damping. */
  set(
    i: number,
    px: number,
    py: number,
    pz: number,
    vx: number,
    vy: number,
    vz: number,
    ax: number,
    ay: number,
    az: number,
    inverseMass: number,
    damping: number,
  ): void {
    const d = this.data;
    const b = i * FLOATS_PER_PARTICLE;
    d[b + POSITION] = px;
    d[b + POSITION + 1] = py;
    d[b + POSITION + 2] = pz;
    d[b + INVERSE_MASS] = inverseMass;
    d[b + VELOCITY] = vx;
    d[b + VELOCITY + 1] = vy;
    d[b + VELOCITY + 2] = vz;
    d[b + DAMPING] = damping;
    d[b + ACCELERATION] = ax;
    d[b + ACCELERATION + 1] = ay;
    d[b + ACCELERATION + 2] = az;
    d[b + FORCE] = 0;
    d[b + FORCE + 1] = 0;
    d[b + FORCE + 2] = 0;
  }

  /**
   * Queues records [0, count) of this block into `system`'s particles from
   * `start`; they land before the next submitted command buffer runs.
   */
  writeTo(system: ParticleSystem, start: number, count = this.capacity): void {
    system.particles.write(start, this.data.subarray(0, count * FLOATS_PER_PARTICLE));
  }
}

/** A uniformly random unit vector into `out` (Marsaglia). */
export function randomDirection(random: () => number, out: [number, number, number]): [number, number, number] {
  let x = 0;
  let y = 0;
  let s = 2;
  while (s >= 1 || s === 0) {
    x = random() * 2 - 1;
    y = random() * 2 - 1;
    s = x * x + y * y;
  }
  const k = 2 * Math.sqrt(1 - s);
  out[0] = x * k;
  out[1] = y * k;
  out[2] = 1 - 2 * s;
  return out;
}
