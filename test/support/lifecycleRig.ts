/**
 * The systems with emitters as the lifecycle tests drive them: the real
 * ParticleSystem and CpuParticleSystem, created with emitters (and the
 * permanent particles written), seen through one small interface.
 */
import { CpuParticleSystem } from '../../src/core/cpuParticleSystem';
import type { EmitterSet } from '../../src/core/emitters/emitterSet';
import type { LifecycleOptions } from '../../src/core/emitters/options';
import type { LifecycleSnapshot } from '../../src/core/emitters/stats';
import type { ParticleInit } from '../../src/core/particles';
import type { Variant } from '../../src/core/variants';
import { ParticleSystem } from '../../src/gpu/particleSystem';

export type LifecycleView = LifecycleSnapshot;

export interface LifeRig {
  readonly capacity: number;
  readonly emitters: EmitterSet;
  stepMany(dt: number, steps: number): Promise<void>;
  readPacked(): Promise<Float32Array>;
  readLifecycle(): Promise<LifecycleView>;
  destroy(): void;
}

export interface RigOptions extends LifecycleOptions {
  capacity: number;
  variant?: Variant;
  /** Written into slots [0, particles.length) (they must be permanent). */
  particles?: ParticleInit[];
  workgroupSize?: number;
}

function systemOptions(options: RigOptions) {
  const { variant, particles: _, ...rest } = options;
  return { ...rest, ...variant };
}

async function lifecycleOf(system: ParticleSystem | CpuParticleSystem): Promise<LifecycleView> {
  const view = await system.readLifecycle();
  if (!view) throw new Error('a system with emitters has a lifecycle');
  return view;
}

export async function gpuRig(device: GPUDevice, options: RigOptions): Promise<LifeRig & { system: ParticleSystem }> {
  const system = await ParticleSystem.create(device, systemOptions(options));
  if (options.particles) await system.writeParticles(0, options.particles);
  return {
    system,
    capacity: options.capacity,
    emitters: system.emitters as EmitterSet,
    stepMany: (dt, steps) => system.stepMany(dt, steps),
    readPacked: () => system.readPacked(),
    readLifecycle: () => lifecycleOf(system),
    destroy: () => system.destroy(),
  };
}

export interface CpuLifeRig extends LifeRig {
  readonly system: CpuParticleSystem;
  readonly state: Float32Array;
  readonly lifecycle: NonNullable<CpuParticleSystem['lifecycle']>;
  /** One step, synchronously. */
  step(dt: number): void;
}

export function cpuRig(options: RigOptions): CpuLifeRig {
  const system = new CpuParticleSystem(systemOptions(options));
  if (options.particles) system.writeParticles(0, options.particles);
  if (!system.lifecycle) throw new Error('cpuRig: no emitters or fireworks');
  return {
    system,
    capacity: options.capacity,
    emitters: system.emitters as EmitterSet,
    state: system.state as Float32Array,
    lifecycle: system.lifecycle,
    step: (dt) => system.step(dt),
    stepMany: async (dt, steps) => system.stepMany(dt, steps),
    readPacked: () => system.readPacked(),
    readLifecycle: () => lifecycleOf(system),
    destroy: () => system.destroy(),
  };
}
