/**
 * A scene file's system on the GPU: made with its capacity, collisions and
 * lifecycle, its particles written and its forces and springs registered.
 * The gallery's scene pages, the playground and the render CLI start from it.
 */
import type { DampingMode, IntegrationOrder } from '../core/variants';
import { ParticleSystem } from '../gpu/particleSystem';
import {
  sceneCapacity,
  sceneToCollisions,
  sceneToForces,
  sceneToLifecycle,
  sceneToParticles,
  type Scene,
} from './scene';

/** The scene's system, ready to step; the caller owns it (destroyed here only if making it fails). */
export async function createSceneSystem(
  device: GPUDevice,
  scene: Scene,
  variant: { integrator: IntegrationOrder; damping: DampingMode },
): Promise<ParticleSystem> {
  const system = await ParticleSystem.create(device, {
    capacity: sceneCapacity(scene),
    integrator: variant.integrator,
    damping: variant.damping,
    collisions: sceneToCollisions(scene),
    ...sceneToLifecycle(scene),
  });
  try {
    const particles = sceneToParticles(scene);
    if (particles.length > 0) await system.writeParticles(0, particles);
    const forces = sceneToForces(scene);
    for (const { generator, target } of forces.generators) system.forces.add(generator, target);
    if (forces.links.length > 0) system.springs.setLinks(forces.links);
    return system;
  } catch (error) {
    system.destroy();
    throw error;
  }
}
