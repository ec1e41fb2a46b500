/** GPU validation errors and device loss reach the caller as thrown errors. */
import { describe, expect, it } from 'vitest';
import { acquireDevice } from '../src/gpu/device';
import { DeviceLostError, GpuOutOfMemoryError, GpuValidationError } from '../src/gpu/errors';
import { ParticleBuffer } from '../src/gpu/particleBuffer';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { useDevice } from './support/gpu';

const gpu = useDevice();

describe('GPU errors', () => {
  it('throws a validation error caught by an error scope instead of printing it', async () => {
    const s = await ParticleSystem.create(gpu.get().device, { capacity: 8 });
    // Sabotage from outside the API: submitting work on a destroyed buffer is invalid.
    s.particles.buffer.destroy();
    await expect(s.step(0.01)).rejects.toThrow(GpuValidationError);
    await expect(s.step(0.01)).rejects.toThrow(/step\(dt = 0.01\)/);
    s.destroy();
    expect(gpu.uncaptured).toEqual([]);
  });

  it('surfaces device loss: `lost` resolves and later calls throw', async () => {
    const { device } = await acquireDevice();
    const s = await ParticleSystem.create(device, { capacity: 8 });
    device.destroy();
    const lost = await s.lost;
    expect(lost).toBeInstanceOf(DeviceLostError);
    expect(lost.message).toMatch(/destroyed/);
    await expect(s.step(0.01)).rejects.toThrow(DeviceLostError);
    await expect(s.read()).rejects.toThrow(DeviceLostError);
    s.destroy();
    s.destroy(); // safe twice
  });

  it('destroy() is safe twice and later calls fail clearly', async () => {
    const s = await ParticleSystem.create(gpu.get().device, { capacity: 8 });
    s.destroy();
    s.destroy();
    await expect(s.step(0.01)).rejects.toThrow(/destroyed/);
  });

  it('at the largest count the limits allow, a system is made or refused as out of memory, naming the capacity', async () => {
    // The limits allow 2^24 particles (1 GiB) on SwiftShader, whose memory cannot back it: the
    // invalid buffer the failed allocation leaves must not hide the out-of-memory error behind
    // the validation errors it causes. A device that has the memory must simply make the system.
    const { device } = await acquireDevice();
    try {
      const capacity = ParticleBuffer.maxParticles(device);
      let outcome: ParticleSystem | unknown;
      try {
        outcome = await ParticleSystem.create(device, { capacity });
      } catch (error) {
        outcome = error;
      }
      if (outcome instanceof ParticleSystem) {
        await outcome.step(0.01);
        outcome.destroy();
      } else {
        expect(outcome).toBeInstanceOf(GpuOutOfMemoryError);
        expect((outcome as Error).message).toContain(`capacity ${capacity}`);
        expect((outcome as Error).message).not.toMatch(/Invalid Buffer/);
      }
    } finally {
      device.destroy();
    }
  }, 120_000);
});
