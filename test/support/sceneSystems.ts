/**
 * A parsed scene made into a system on either backend the way the CLI and
 * the gallery make it (src/scene/sceneSystem.ts): the capacity, collisions
 * and lifecycle options from the scene, its particles written from slot 0,
 * its generators registered with their targets and its pair springs set.
 */
import { CpuParticleSystem } from '../../src/core/cpuParticleSystem';
import type { Variant } from '../../src/core/variants';
import type { ParticleSystem } from '../../src/gpu/particleSystem';
import type { Scene } from '../../src/scene/scene';
import { createSceneSystem, loadSceneInto, sceneSystemOptions } from '../../src/scene/sceneSystem';

export async function cpuSystemFor(scene: Scene, variant: Variant): Promise<CpuParticleSystem> {
  return loadSceneInto(new CpuParticleSystem(sceneSystemOptions(scene, variant)), scene);
}

/** `gpu`: options of the GPU system only (chunking, fusion, workgroup size). */
export function gpuSystemFor(
  device: GPUDevice,
  scene: Scene,
  variant: Variant,
  gpu: Parameters<typeof createSceneSystem>[3] = {},
): Promise<ParticleSystem> {
  return createSceneSystem(device, scene, variant, gpu);
}
