/**
 * A destroyed system refuses further use on both backends (issue 17, item 8):
 * stepping, reading and writing throw, and its force registry and springs
 * refuse changes instead of accepting them silently.
 */
import { describe, expect, it } from 'vitest';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import type { ParticleSystemApi } from '../src/core/api';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { useDevice } from './support/gpu';

const gpu = useDevice();

async function expectDestroyed(system: ParticleSystemApi, name: string): Promise<void> {
  const handle = system.forces.add({ type: 'gravity', g: [0, -10, 0] });
  system.destroy();
  const destroyed = new RegExp(`this ${name} has been destroyed`);
  await expect(async () => system.step(0.01)).rejects.toThrow(destroyed);
  await expect(async () => system.stepMany(0.01, 3)).rejects.toThrow(destroyed);
  await expect(async () => system.read()).rejects.toThrow(destroyed);
  await expect(async () => system.writeParticles(0, [{ position: [0, 0, 0] }])).rejects.toThrow(destroyed);
  expect(() => system.forces.add({ type: 'drag', k1: 1, k2: 0 })).toThrow(/forces cannot change/);
  expect(() => handle.update({ g: [0, -1, 0] })).toThrow(/forces cannot change/);
  expect(() => system.forces.remove(handle)).toThrow(/forces cannot change/);
  expect(() => system.springs.setLinks([{ a: 0, b: 1, restLength: 1, stiffness: 1 }])).toThrow(/springs cannot change/);
  expect(system.forces.size).toBe(1);
  expect(() => system.destroy()).not.toThrow();
}

describe('after destroy()', () => {
  it('the CPU reference refuses every call', async () => {
    await expectDestroyed(new CpuParticleSystem({ capacity: 2 }), 'CpuParticleSystem');
  });

  it('the GPU system refuses every call', async () => {
    await expectDestroyed(await ParticleSystem.create(gpu.get().device, { capacity: 2 }), 'ParticleSystem');
  });
});
