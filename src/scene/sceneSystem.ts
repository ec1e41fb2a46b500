/**
 * A scene file's system on the GPU: made with its capacity, collisions and
 * lifecycle, its particles written and its forces and springs registered.
 * The gallery's scene pages, the playground and the render CLI start from it
 * (and the tests, which load a CPU system the same way).
 */
import type { ParticleSystemApi } from '../core/api';
import type { DampingMode, IntegrationOrder } from '../core/variants';
import { ParticleSystem, type GpuParticleSystemOptions } from '../gpu/particleSystem';
import { sceneCapacity, sceneToCollisions, sceneToForces, sceneToLifecycle, sceneToParticles } from './scene';
import type { Scene } from './scene';

type SceneVariant = { integrator: IntegrationOrder; damping: DampingMode };

/** A system's options from the scene (capacity, collisions, lifecycle) and `variant`'s integrator and damping. */
export function sceneSystemOptions(scene: Scene, variant: SceneVariant) {
  return {
    capacity: sceneCapacity(scene),
    integrator: variant.integrator,
    damping: variant.damping,
    collisions: sceneToCollisions(scene),
    ...sceneToLifecycle(scene),
  };
}

/** Writes the scene's particles into `system` from slot 0 and registers its generators (with their targets) and pair springs. */
export async function loadSceneInto<S extends ParticleSystemApi>(system: S, scene: Scene): Promise<S> {
  const particles = sceneToParticles(scene);
  if (particles.length > 0) await system.writeParticles(0, particles);
  const forces = sceneToForces(scene);
  for (const { generator, target } of forces.generators) system.forces.add(generator, target);
  if (forces.links.length > 0) system.springs.setLinks(forces.links);
  return system;
}

/**
 * The scene's system, ready to step; the caller owns it (destroyed here only if making it fails).
 * `gpu`: options of the GPU system only (chunking, fusion, workgroup size).
 */
export async function createSceneSystem(
  device: GPUDevice,
  scene: Scene,
  variant: SceneVariant,
  gpu: Omit<GpuParticleSystemOptions, keyof ReturnType<typeof sceneSystemOptions>> = {},
): Promise<ParticleSystem> {
  const system = await ParticleSystem.create(device, { ...sceneSystemOptions(scene, variant), ...gpu });
  try {
    return await loadSceneInto(system, scene);
  } catch (error) {
    system.destroy();
    throw error;
  }
}
