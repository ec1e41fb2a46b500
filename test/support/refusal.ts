/**
 * The refusals the validation tests look at: the SparkworksInputError a call
 * throws, failing the test if it returns or throws anything else; and a
 * change refused on both backends that leaves their state as it was.
 */
import { expect } from 'vitest';
import type { ParticleSystemApi, ParticleSystemOptions } from '../../src/core/api';
import { CpuParticleSystem } from '../../src/core/cpuParticleSystem';
import { SparkworksInputError } from '../../src/core/errors';
import type { ParticleInit } from '../../src/core/particles';
import { ParticleSystem } from '../../src/gpu/particleSystem';
import { parseScene } from '../../src/scene/scene';

/** The SparkworksInputError `run` throws (failing if it returns or throws anything else). */
export function refusal(run: () => unknown): SparkworksInputError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SparkworksInputError);
    return error as SparkworksInputError;
  }
  throw new Error('expected a SparkworksInputError, nothing was thrown');
}

/** The refusal parseScene throws for `text` read as the file `file`. */
export function sceneRefusal(text: string, file: string): SparkworksInputError {
  return refusal(() => parseScene(text, file));
}

const sameBytes = (a: Float32Array, b: Float32Array) => Buffer.from(a.buffer).equals(Buffer.from(b.buffer));

/**
 * `change` is refused (a SparkworksInputError matching `message`) on a GPU
 * and a CPU system made with `options` and holding `particles`, each time
 * asked, with their records as they were; and the CPU one then steps
 * (`steps` of `dt`) exactly as one never asked, so its collision state is
 * unchanged too.
 */
export async function expectRefusedUnchanged(
  device: GPUDevice,
  setup: { options: ParticleSystemOptions; particles: ParticleInit[] },
  change: (system: ParticleSystemApi) => unknown,
  message: RegExp,
  run: { dt: number; steps: number },
): Promise<void> {
  const gpuSystem = await ParticleSystem.create(device, setup.options);
  const cpuSystem = new CpuParticleSystem(setup.options);
  const untouched = new CpuParticleSystem(setup.options);
  try {
    for (const system of [gpuSystem, cpuSystem, untouched] as ParticleSystemApi[])
      await system.writeParticles(0, setup.particles);
    for (const system of [gpuSystem, cpuSystem] as ParticleSystemApi[]) {
      const before = await system.readPacked();
      const call = async () => change(system);
      await expect(call()).rejects.toThrow(SparkworksInputError);
      await expect(call()).rejects.toThrow(message);
      expect(sameBytes(await system.readPacked(), before)).toBe(true);
    }
    cpuSystem.stepMany(run.dt, run.steps);
    untouched.stepMany(run.dt, run.steps);
    expect(sameBytes(await cpuSystem.readPacked(), await untouched.readPacked())).toBe(true);
  } finally {
    gpuSystem.destroy();
  }
}
