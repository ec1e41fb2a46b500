/**
 * Bytes each case moves a particle-step, counted from what its shader (or
 * loop) actually loads and stores, and the arithmetic from a measured time to
 * bandwidth and to a fraction of a roofline.
 */
import { BYTES_PER_PARTICLE, FLOATS_PER_LANE } from '../core/layout';
import { SOA_BYTES_READ, SOA_BYTES_WRITTEN } from './soaPass';

const LANE_BYTES = FLOATS_PER_LANE * 4;

export interface ByteCount {
  read: number;
  written: number;
}

/** Bytes a particle-step for each kind of case. */
export const BYTES = {
  /** integrate.wgsl: loads the whole record, stores the three lanes it changes (not acceleration). */
  step: { read: BYTES_PER_PARTICLE, written: 3 * LANE_BYTES },
  /** integrateUniformAcceleration.wgsl: loads and stores three lanes; acceleration comes from the uniform. */
  uniformAcceleration: { read: 3 * LANE_BYTES, written: 3 * LANE_BYTES },
  /** integrateSoA.wgsl: the step's six attributes' own bytes, no spare slots. */
  soa: { read: SOA_BYTES_READ, written: SOA_BYTES_WRITTEN },
  /** copy.wgsl and copyBufferToBuffer: one whole record in, one out. */
  copy: { read: BYTES_PER_PARTICLE, written: BYTES_PER_PARTICLE },
  /** scatter.wgsl adding forces: the uploaded lane and the force lane in, the force lane out. */
  scatterAdd: { read: 2 * LANE_BYTES, written: LANE_BYTES },
  /** forces.wgsl: position|inverseMass and velocity|damping and the force lane in, the force lane out. */
  forces: { read: 3 * LANE_BYTES, written: LANE_BYTES },
  /**
   * src/core/integrate.ts: reads the step's own attributes (the same six as
   * the SoA layout), writes position, velocity and force; spare slots and
   * attributes the step does not use are never touched.
   */
  cpu: { read: SOA_BYTES_READ, written: SOA_BYTES_WRITTEN },
} as const satisfies Record<string, ByteCount>;

export function totalBytes(count: ByteCount): number {
  return count.read + count.written;
}

/** Particle-steps a second from the median time of one step over `particles`. */
export function particleStepsPerSecond(particles: number, msPerStep: number): number {
  return particles / (msPerStep / 1000);
}

export function gigabytesPerSecond(particleStepsPerSecond: number, bytesPerParticleStep: number): number {
  return (particleStepsPerSecond * bytesPerParticleStep) / 1e9;
}
