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
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { acquireDevice, type AcquiredDevice } from '../../src/gpu/device';

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

/**
 * Acquires one device per test file and destroys it afterwards, and checks
 * every test of the file for uncaptured GPU errors (see above).
 */
export function useDevice(): TestDevice {
  let acquired: AcquiredDevice | undefined;
  const uncaptured: string[] = [];
  let expected: RegExp | null = null;
  let watched: Watched[] = [];
  let another: AcquiredDevice[] = [];

  const watch = (device: GPUDevice): void => {
    const entry: Watched = { device, lost: false };
    watched.push(entry);
    device.addEventListener('uncapturederror', (event) => {
      uncaptured.push((event as GPUUncapturedErrorEvent).error.message);
    });
    void device.lost.then(() => {
      entry.lost = true;
    });
  };

  beforeAll(async () => {
    acquired = await acquireDevice();
    watch(acquired.device);
  });
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
    const released = new Set(another.map((a) => a.device));
    for (const device of released) device.destroy();
    watched = watched.filter((w) => !released.has(w.device));
    another = [];
    const failure = uncapturedFailure(uncaptured, expected);
    uncaptured.length = 0;
    expected = null;
    if (failure) throw new Error(failure);
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
    expectUncapturedErrors: (pattern) => {
      expected = pattern;
    },
    acquireAnother: async () => {
      const other = await acquireDevice();
      another.push(other);
      watch(other.device);
      return other;
    },
  };
}
