/**
 * The Integrators page's CPU reference (src/core, float32): one variant run
 * the same steps as the GPU, every position kept, and its trajectories as the
 * line strips the page draws over the GPU's dots.
 */
import { CpuParticleSystem } from '../../core/cpuParticleSystem';
import { floatIndex } from '../../core/layout';
import type { ParticleInit } from '../../core/particles';
import type { Variant } from '../../core/variants';

/** xyz per particle per sample (steps + 1 samples, the initial state first) of `particles` under `variant`. */
export function referencePositions(
  variant: Variant,
  particles: ParticleInit[],
  steps: number,
  dt: number,
): Float32Array {
  const count = particles.length;
  const reference = new CpuParticleSystem({ capacity: count, ...variant });
  reference.writeParticles(0, particles);
  const cpu = new Float32Array((steps + 1) * count * 3);
  for (let s = 0; s <= steps; s++) {
    if (s > 0) reference.step(dt);
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < 3; c++)
        cpu[(s * count + i) * 3 + c] = reference.state[floatIndex(i, 'position', c)] as number;
    }
  }
  return cpu;
}

/** Each particle's reference trajectory, one strip of xyz per sample. */
export function referenceStrips(cpu: Float32Array, count: number, steps: number): Float32Array[] {
  return Array.from({ length: count }, (_, i) => {
    const strip = new Float32Array((steps + 1) * 3);
    for (let s = 0; s <= steps; s++) strip.set(cpu.subarray((s * count + i) * 3, (s * count + i) * 3 + 3), s * 3);
    return strip;
  });
}
