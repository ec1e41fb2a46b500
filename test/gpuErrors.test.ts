/** GPU validation errors and device loss reach the caller as thrown errors. */
import { describe, expect, it } from 'vitest';
import { DeviceLostError, GpuOutOfMemoryError, GpuValidationError } from '../src/gpu/device/errors';
import { ParticleBuffer } from '../src/gpu/shared/particleBuffer';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { uncapturedFailure, useDevice } from './support/gpu';

const gpu = useDevice();

describe('GPU errors', () => {
  it('throws a validation error caught by an error scope instead of printing it', async () => {
    const s = await ParticleSystem.create(gpu.get().device, { capacity: 8 });
    // Sabotage from outside the API: submitting work on a destroyed buffer is invalid.
    s.particles.buffer.destroy();
    await expect(s.step(0.01)).rejects.toThrow(GpuValidationError);
    await expect(s.step(0.01)).rejects.toThrow(/step\(dt = 0.01\)/);
    s.destroy();
  });

  it('surfaces device loss: `lost` resolves and later calls throw', async () => {
    const { device } = await gpu.acquireAnother();
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

  it('at the largest count one binding holds, a system is made or refused as out of memory, naming the capacity', async () => {
    // One binding holds 2^24 particles (1 GiB) on SwiftShader, whose memory may not back it: the
    // invalid buffer the failed allocation leaves must not hide the out-of-memory error behind
    // the validation errors it causes. A device that has the memory must simply make the system.
    const { device } = await gpu.acquireAnother();
    try {
      const capacity = ParticleBuffer.maxPerBinding(device);
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

  it('an error another call makes while stepMany awaits is not reported against stepMany', () =>
    withSystem(async (s, device) => {
      const stepping = s.stepMany(0.01, 3);
      // A render loop's frame, submitted while stepMany is still pending, that fails validation.
      submitInvalidFrame(device);
      await expect(stepping).resolves.toBeUndefined();
      // The frame's error is its own: no scope of stepMany caught it, so it arrives uncaptured.
      gpu.expectUncapturedErrors(INVALID_FRAME);
    }));

  it('an error another call makes while read awaits its mapping is not reported against read', () =>
    withSystem(async (s, device) => {
      const reading = s.read();
      submitInvalidFrame(device);
      const snapshot = await reading;
      expect(snapshot.count).toBe(8);
      gpu.expectUncapturedErrors(INVALID_FRAME);
    }));

  it('a frame with an error scope of its own gets its own error while stepMany awaits, and stepMany none', () =>
    withSystem(async (s, device) => {
      const stepping = s.stepMany(0.01, 3);
      device.pushErrorScope('validation');
      submitInvalidFrame(device);
      const frameError = device.popErrorScope();
      await expect(stepping).resolves.toBeUndefined();
      expect((await frameError)?.message).toMatch(INVALID_FRAME);
    }));
  it('a scope another caller holds open across stepMany is neither popped by stepMany nor reported against it', () =>
    withSystem(async (s, device) => {
      // A frame pushes its scope, submits, and pops only later: stepMany starts in between.
      device.pushErrorScope('validation');
      submitInvalidFrame(device);
      const stepping = s.stepMany(0.01, 3);
      const frameError = device.popErrorScope();
      await expect(stepping).resolves.toBeUndefined();
      expect((await frameError)?.message).toMatch(INVALID_FRAME);
    }));
});

describe('the check after each test for uncaptured GPU errors', () => {
  it('names every message, and holds a test that expects errors to what it expects', () => {
    expect(uncapturedFailure([], null)).toBeNull();
    expect(uncapturedFailure(['first', 'second'], null)).toBe(
      '2 uncaptured GPU error(s) during this test:\n  1. first\n  2. second',
    );
    expect(uncapturedFailure([], /x/)).toMatch(/expected uncaptured GPU errors matching \/x\/, but none came/);
    expect(uncapturedFailure(['x1', 'y'], /x/)).toMatch(/not matching \/x\/[^]*2\. y/);
    expect(uncapturedFailure(['x1', 'x2'], /x/)).toBeNull();
  });

  it('sees an error from work submitted at the end of a test', () => {
    submitInvalidFrame(gpu.get().device);
    gpu.expectUncapturedErrors(INVALID_FRAME);
  });
});

/** A system of 8 particles on the test's device for `body`, destroyed after. */
async function withSystem(body: (s: ParticleSystem, device: GPUDevice) => Promise<void>): Promise<void> {
  const { device } = gpu.get();
  const s = await ParticleSystem.create(device, { capacity: 8 });
  try {
    await body(s, device);
  } finally {
    s.destroy();
  }
}

/** What the invalid frame's errors say: its copy, or the command buffer that copy left invalid. */
const INVALID_FRAME = /gpuErrors\.invalidFrame/;

/** Submits a frame that fails validation (a buffer copied onto itself), outside any error scope. */
function submitInvalidFrame(device: GPUDevice): void {
  const buffer = device.createBuffer({
    label: 'gpuErrors.invalidFrame',
    size: 16,
    usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  const encoder = device.createCommandEncoder({ label: 'gpuErrors.invalidFrame' });
  encoder.copyBufferToBuffer(buffer, 0, buffer, 0, 16);
  device.queue.submit([encoder.finish({ label: 'gpuErrors.invalidFrame' })]);
  buffer.destroy();
}
