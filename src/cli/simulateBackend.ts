/**
 * The system a simulate run steps, on the GPU or the CPU reference (--cpu),
 * behind one interface: where the run starts (a scene built and filled, or a
 * snapshot restored), how to wait for submitted steps, and how to free it.
 */
import type { ParticleSystemApi } from '../core/api';
import type { CollisionOptions } from '../core/collisions/world';
import { CpuParticleSystem } from '../core/cpuParticleSystem';
import type { LifecycleOptions } from '../core/emitters/options';
import type { Variant } from '../core/variants';
import type { AdapterDescription } from '../gpu/device/device';
import { acquireDevice } from '../node/device';
import { ParticleSystem } from '../gpu/particleSystem';
import type { sceneToForces, sceneToParticles } from '../scene/scene';

const CPU_ADAPTER = { description: 'CPU reference (float32)' } as const;

/** What the run's output names as the adapter: the GPU's, or the CPU reference. */
export type BackendAdapter = AdapterDescription | typeof CPU_ADAPTER;

export interface Backend {
  system: ParticleSystemApi;
  adapter: BackendAdapter;
  /** Resolves when the steps submitted so far have run (the GPU queue is drained). */
  settle(): Promise<void>;
  close(): void;
}

/** What the scene puts in a fresh system before its first step. */
export interface SceneSetup {
  particles: ReturnType<typeof sceneToParticles>;
  forces: ReturnType<typeof sceneToForces>;
}

/** Where a run starts: a scene (its system built and filled) or a snapshot (restored). */
export type RunSource =
  | {
      kind: 'scene';
      capacity: number;
      collisions: CollisionOptions | undefined;
      lifecycle: LifecycleOptions;
      setup: SceneSetup;
    }
  | { kind: 'snapshot'; bytes: Uint8Array };

/** A backend with its system ready to step: built from the scene and filled, or restored from the snapshot. */
export async function openBackend(cpu: boolean, variant: Variant, source: RunSource): Promise<Backend> {
  const options = (s: Extract<RunSource, { kind: 'scene' }>) => ({
    capacity: s.capacity,
    ...variant,
    collisions: s.collisions,
    ...s.lifecycle,
  });
  let backend: Backend;
  if (cpu) {
    const system =
      source.kind === 'scene' ? new CpuParticleSystem(options(source)) : CpuParticleSystem.restore(source.bytes);
    backend = { system, adapter: CPU_ADAPTER, settle: async () => {}, close: () => system.destroy() };
  } else {
    const { device, adapterInfo } = await acquireDevice();
    try {
      const system =
        source.kind === 'scene'
          ? await ParticleSystem.create(device, options(source))
          : await ParticleSystem.restore(device, source.bytes);
      backend = {
        system,
        adapter: adapterInfo,
        settle: () => device.queue.onSubmittedWorkDone(),
        close: () => {
          system.destroy();
          device.destroy();
        },
      };
    } catch (error) {
      device.destroy();
      throw error;
    }
  }
  try {
    if (source.kind === 'scene') await setUp(backend, source.setup);
  } catch (error) {
    backend.close();
    throw error;
  }
  return backend;
}

async function setUp(backend: Backend, { particles, forces }: SceneSetup): Promise<void> {
  await backend.system.writeParticles(0, particles);
  // The scene's forces, the same on both backends (already checked by parseScene).
  for (const { generator, target } of forces.generators) backend.system.forces.add(generator, target);
  if (forces.links.length > 0) backend.system.springs.setLinks(forces.links);
}
