/**
 * For test files whose code under test acquires its own devices (the CLI's
 * runSimulate): wraps the real acquireDevice so every device it returns is
 * handed to the file's uncaptured-error check. Nothing is mocked: the device
 * is Dawn's, as acquired; only who gets to watch it changes. Use it as
 *
 *   vi.mock('../src/node/device', async (original) =>
 *     (await import('./support/acquired')).watchingAcquisitions(await original()),
 *   );
 *   const gpu = useAcquiredDevices();
 *
 * This module must not import src/node/device at run time: the mock's factory
 * imports it while that module is being mocked.
 */
import type * as DeviceModule from '../../src/node/device';

let onAcquired: ((device: GPUDevice) => void) | null = null;

/** Hands each device acquired from now on to `watch` (null: to nobody). */
export function setAcquisitionWatcher(watch: ((device: GPUDevice) => void) | null): void {
  onAcquired = watch;
}

/** The device module with an acquireDevice that reports each device it acquires. */
export function watchingAcquisitions(original: unknown): typeof DeviceModule {
  const module = original as typeof DeviceModule;
  return {
    ...module,
    acquireDevice: async (...args: Parameters<typeof module.acquireDevice>) => {
      const acquired = await module.acquireDevice(...args);
      onAcquired?.(acquired.device);
      return acquired;
    },
  };
}
