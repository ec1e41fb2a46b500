/**
 * What the CPU reference takes beyond the shared system options: the
 * arithmetic it steps in, and the most particles it allocates.
 */
import type { ParticleSystemOptions } from '../api';

/**
 * `float32`: every operation rounds to float32, as the GPU does (the default).
 * `float64`: no rounding, to measure float32's own error.
 */
export type Precision = 'float32' | 'float64';

export interface CpuParticleSystemOptions extends ParticleSystemOptions {
  /** `float32` (default) rounds as the GPU does; `float64` does not, to measure float32's own error. */
  precision?: Precision;
}

/** Far more than any test needs; keeps a typo from allocating the whole heap. */
export const CPU_MAX_PARTICLES = 1 << 26;
