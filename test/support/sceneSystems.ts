/**
 * A parsed scene made into a system the way the CLI makes it
 * (src/cli/simulate.ts): the capacity, collisions and lifecycle options from
 * the scene, its particles written from slot 0, its generators registered
 * with their targets and its pair springs set.
 */
import type { ParticleSystemApi } from '../../src/core/api';
import { CpuParticleSystem } from '../../src/core/cpuParticleSystem';
import type { Variant } from '../../src/core/variants';
import { ParticleSystem, type GpuParticleSystemOptions } from '../../src/gpu/particleSystem';
import {
  sceneCapacity,
  sceneToCollisions,
  sceneToForces,
  sceneToLifecycle,
  sceneToParticles,
  type Scene,
} from '../../src/scene/scene';

async function load<S extends ParticleSystemApi>(system: S, scene: Scene): Promise<S> {
  const forces = sceneToForces(scene);
  await system.writeParticles(0, sceneToParticles(scene));
  for (const { generator, target } of forces.generators) system.forces.add(generator, target);
  if (forces.links.length > 0) system.springs.setLinks(forces.links);
  return system;
}

function options(scene: Scene, variant: Variant) {
  return {
    capacity: sceneCapacity(scene),
    ...variant,
    collisions: sceneToCollisions(scene),
    ...sceneToLifecycle(scene),
  };
}

export async function cpuSystemFor(scene: Scene, variant: Variant): Promise<CpuParticleSystem> {
  return load(new CpuParticleSystem(options(scene, variant)), scene);
}

/** `gpu`: options of the GPU system only (chunking, fusion, workgroup size). */
export async function gpuSystemFor(
  device: GPUDevice,
  scene: Scene,
  variant: Variant,
  gpu: Omit<GpuParticleSystemOptions, keyof ReturnType<typeof options>> = {},
): Promise<ParticleSystem> {
  const system = await ParticleSystem.create(device, { ...options(scene, variant), ...gpu });
  try {
    return await load(system, scene);
  } catch (error) {
    system.destroy();
    throw error;
  }
}
