/**
 * A real WebGPU device for tests: Dawn in Node, hardware or SwiftShader. No
 * mocks, no skips: if no adapter is found, acquireDevice throws and the test
 * file fails.
 */
import { afterAll, beforeAll } from 'vitest';
import { acquireDevice, type AcquiredDevice } from '../../src/gpu/device';

/**
 * Acquires one device per test file and destroys it afterwards. Uncaptured
 * GPU errors are collected so a test can assert there were none.
 */
export function useDevice(): { get: () => AcquiredDevice; uncaptured: string[] } {
  let acquired: AcquiredDevice | undefined;
  const uncaptured: string[] = [];
  beforeAll(async () => {
    acquired = await acquireDevice();
    acquired.device.addEventListener('uncapturederror', (event) => {
      uncaptured.push((event as GPUUncapturedErrorEvent).error.message);
    });
  });
  afterAll(() => {
    acquired?.device.destroy();
  });
  return {
    get: () => {
      if (!acquired) throw new Error('no GPU device: acquireDevice() failed in beforeAll');
      return acquired;
    },
    uncaptured,
  };
}
