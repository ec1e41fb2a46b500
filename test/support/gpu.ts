/**
 * A real WebGPU device for tests: Dawn in Node, hardware or SwiftShader. No
 * mocks, no skips: if no adapter is found, acquireDevice throws and the test
 * file fails.
 *
 * Every test of a file that calls useDevice is checked for uncaptured GPU
 * errors: after it, the queue is drained (so an error from work it submitted
 * late is still its own) and the test fails, naming the messages, if any
 * device it used reported one. A test that provokes GPU errors on purpose
 * either catches them in error scopes of its own or says so with
 * expectUncapturedErrors.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { create } from 'webgpu';
import type { AcquiredDevice } from '../../src/gpu/device/device';
import { acquireDevice, SWIFTSHADER_ICD } from '../../src/node/device';
import { setAcquisitionWatcher } from './acquired';

export interface TestDevice {
  /** The file's shared device. */
  get(): AcquiredDevice;
  /** The messages of the uncaptured errors reported during the current test, on any watched device. */
  readonly uncaptured: string[];
  /**
   * Declares that the current test provokes uncaptured GPU errors on purpose:
   * instead of failing on them, the check after it requires at least one and
   * that every message matches `pattern`.
   */
  expectUncapturedErrors(pattern: RegExp): void;
  /**
   * Another device, for this test alone (one to lose, one to run out of
   * memory on): its uncaptured errors are checked like the shared device's,
   * and it is destroyed after the test if the test has not destroyed it.
   */
  acquireAnother(): Promise<AcquiredDevice>;
}

interface Watched {
  device: GPUDevice;
  lost: boolean;
}

/** What the check after a test found wrong, or null. */
export function uncapturedFailure(messages: readonly string[], expected: RegExp | null): string | null {
  const list = () => messages.map((m, i) => `  ${i + 1}. ${m}`).join('\n');
  if (expected === null) {
    return messages.length === 0 ? null : `${messages.length} uncaptured GPU error(s) during this test:\n${list()}`;
  }
  if (messages.length === 0) return `the test expected uncaptured GPU errors matching ${expected}, but none came`;
  const unexpected = messages.filter((m) => !expected.test(m));
  if (unexpected.length === 0) return null;
  return `uncaptured GPU errors not matching ${expected} during this test:\n${list()}`;
}

/** The check after each test, over every device handed to `watch`. */
interface UncapturedCheck {
  uncaptured: string[];
  watch(device: GPUDevice): void;
  expectUncapturedErrors(pattern: RegExp): void;
  /** Runs after the queues are drained and before the messages are checked. */
  beforeCheck: (() => void) | null;
}

/** Registers the per-test hooks of the check (see above) in the calling file. */
function useUncapturedCheck(): UncapturedCheck {
  const uncaptured: string[] = [];
  let expected: RegExp | null = null;
  const watched: Watched[] = [];
  const check: UncapturedCheck = {
    uncaptured,
    watch: (device) => {
      const entry: Watched = { device, lost: false };
      watched.push(entry);
      device.addEventListener('uncapturederror', (event) => {
        uncaptured.push((event as GPUUncapturedErrorEvent).error.message);
      });
      void device.lost.then(() => {
        entry.lost = true;
        // A lost device reports nothing more: stop waiting on it.
        watched.splice(watched.indexOf(entry), 1);
      });
    },
    expectUncapturedErrors: (pattern) => {
      expected = pattern;
    },
    beforeCheck: null,
  };
  beforeEach(() => {
    uncaptured.length = 0;
    expected = null;
  });
  afterEach(async () => {
    // Drain every live queue first, so errors from work submitted late are reported in time.
    await Promise.all(
      watched
        .filter((w) => !w.lost)
        .map((w) => Promise.race([w.device.queue.onSubmittedWorkDone(), w.device.lost]).catch(() => undefined)),
    );
    check.beforeCheck?.();
    const failure = uncapturedFailure(uncaptured, expected);
    uncaptured.length = 0;
    expected = null;
    if (failure) throw new Error(failure);
  });
  return check;
}

/**
 * Acquires one device per test file and destroys it afterwards, and checks
 * every test of the file for uncaptured GPU errors (see above).
 */
export function useDevice(): TestDevice {
  let acquired: AcquiredDevice | undefined;
  let another: AcquiredDevice[] = [];
  const check = useUncapturedCheck();
  check.beforeCheck = () => {
    for (const other of another) other.device.destroy();
    another = [];
  };
  beforeAll(async () => {
    acquired = await acquireDevice();
    check.watch(acquired.device);
  });
  afterAll(() => {
    acquired?.device.destroy();
  });
  return {
    get: () => {
      if (!acquired) throw new Error('no GPU device: acquireDevice() failed in beforeAll');
      return acquired;
    },
    uncaptured: check.uncaptured,
    expectUncapturedErrors: check.expectUncapturedErrors,
    acquireAnother: async () => {
      const other = await acquireDevice();
      another.push(other);
      check.watch(other.device);
      return other;
    },
  };
}

/**
 * For a file whose code under test acquires its own devices (the CLI): checks
 * every test for uncaptured GPU errors on each device acquired during it. The
 * file must also route acquireDevice through support/acquired.ts (see there).
 */
export function useAcquiredDevices(): Pick<TestDevice, 'uncaptured' | 'expectUncapturedErrors'> {
  const check = useUncapturedCheck();
  beforeAll(() => setAcquisitionWatcher(check.watch));
  afterAll(() => setAcquisitionWatcher(null));
  return { uncaptured: check.uncaptured, expectUncapturedErrors: check.expectUncapturedErrors };
}

/**
 * A second adapter like the one `shared`'s device came from (an adapter makes
 * one device): Dawn's hardware adapter, or SwiftShader where acquireDevice
 * fell back to it. Its Dawn instance is kept for the process, as
 * src/node/device.ts keeps its own.
 */
const instances: GPU[] = [];
export async function freshAdapter(shared: TestDevice): Promise<GPUAdapter> {
  const swiftShader = shared.get().adapterInfo.source.includes('SwiftShader fallback');
  const previous = process.env.VK_ICD_FILENAMES;
  if (swiftShader) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  try {
    const instance = create([]);
    instances.push(instance);
    const adapter = await instance.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) throw new Error('no second adapter');
    return adapter;
  } finally {
    if (previous === undefined) delete process.env.VK_ICD_FILENAMES;
    else process.env.VK_ICD_FILENAMES = previous;
  }
}

/**
 * Runs `use` on a device of a fresh adapter (see freshAdapter) requested with
 * `descriptor` (`{}`: WebGPU's default limits, as a three.js renderer's
 * device has), failing on any uncaptured error, then destroys it.
 */
export async function withFreshDevice(
  shared: TestDevice,
  descriptor: GPUDeviceDescriptor,
  use: (device: GPUDevice) => Promise<void>,
): Promise<void> {
  const device = await (await freshAdapter(shared)).requestDevice(descriptor);
  const uncaptured: string[] = [];
  device.addEventListener('uncapturederror', (event) =>
    uncaptured.push((event as GPUUncapturedErrorEvent).error.message),
  );
  try {
    await use(device);
    await device.queue.onSubmittedWorkDone();
    expect(uncaptured).toEqual([]);
  } finally {
    device.destroy();
  }
}
