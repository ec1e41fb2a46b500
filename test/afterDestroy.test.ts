/**
 * A destroyed system refuses further use on both backends (issue 17, item 8):
 * stepping, reading and writing throw, and its force registry and springs
 * refuse changes instead of accepting them silently; a call issued right
 * after its device is destroyed rejects instead of resolving as a success.
 */
import { describe, expect, it } from 'vitest';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import type { ParticleSystemApi } from '../src/core/api';
import { DeviceLostError } from '../src/gpu/device/errors';
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

describe('after the device is destroyed', () => {
  it.each([
    ['step', (system: ParticleSystem) => system.step(0.01)],
    ['stepMany', (system: ParticleSystem) => system.stepMany(0.01, 10)],
    ['writeParticles', (system: ParticleSystem) => system.writeParticles(0, [{ position: [1, 2, 3] }])],
  ])('%s issued right after rejects with DeviceLostError instead of resolving', async (_, call) => {
    // A device of its own: this one is destroyed.
    const { device } = await gpu.acquireAnother();
    const system = await ParticleSystem.create(device, { capacity: 4 });
    device.destroy();
    await expect(call(system)).rejects.toThrow(DeviceLostError);
    await expect(system.read()).rejects.toThrow(DeviceLostError);
    system.destroy();
  });
});
