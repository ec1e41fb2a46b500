/**
 * How many dispatches a frame of a system with emitters records. On a GPU
 * each dispatch of a frame's chain waits for the one before and costs
 * microseconds whatever it does (about 5 us on the H200, docs/benchmarks.md),
 * so their number is part of what a frame costs there, and a change that
 * adds one should say so here. The frame is recorded into the device's own
 * encoder; only its compute passes are watched (every call reaches the real
 * pass), and the frame then runs.
 */
import { describe, expect, it } from 'vitest';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { useDevice } from './support/gpu';

const gpu = useDevice();
const DT = 1 / 60;

/** `encoder`, whose compute passes count their dispatches into `counts`. */
function countingEncoder(encoder: GPUCommandEncoder, counts: { dispatches: number }): GPUCommandEncoder {
  const bound = <T extends object>(target: T, property: string | symbol): unknown => {
    const value = Reflect.get(target, property, target) as unknown;
    // Dawn's methods need their own object as `this`, not the proxy.
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  };
  const watched = (pass: GPUComputePassEncoder) =>
    new Proxy(pass, {
      get(target, property) {
        if (property === 'dispatchWorkgroups') counts.dispatches++;
        return bound(target, property);
      },
    });
  return new Proxy(encoder, {
    get(target, property) {
      if (property === 'beginComputePass') {
        return (descriptor?: GPUComputePassDescriptor) => watched(target.beginComputePass(descriptor));
      }
      return bound(target, property);
    },
  });
}

async function frameDispatches(capacity: number) {
  const device = gpu.get().device;
  const system = await ParticleSystem.create(device, {
    capacity,
    emitters: [{ rate: capacity / 4, burst: capacity / 2, lifetime: [0.05, 0.2], seed: 3 }],
  });
  try {
    // The first step after a start (or a restore) judges its deaths again (GpuLifecycle, contactLanesMayHoldTouches):
    // the frames after it are the ones counted.
    const counts = { dispatches: 0 };
    const first = device.createCommandEncoder();
    system.encodeSteps(first, DT, 1);
    const encoder = device.createCommandEncoder();
    system.encodeSteps(countingEncoder(encoder, counts), DT, 1);
    device.queue.submit([first.finish(), encoder.finish()]);
    system.submitted();
    // The frame ran: its burst is live.
    expect((await system.readStats()).live).toBeGreaterThan(0);
    return counts.dispatches;
  } finally {
    system.destroy();
  }
}

describe('a frame with emitters, as dispatches', () => {
  // The step over the slots, countDeaths with the scan's level 0, the scan's top level with planEmit, the
  // compaction, the fill, the emission. Pools of up to 2^25 slots have no scan level between
  // (src/gpu/lifecycle/lifeBuffers.ts, scanLevels).
  it.each([2 ** 12, 2 ** 20])('%i slots: six dispatches', async (capacity) => {
    expect(await frameDispatches(capacity)).toBe(6);
  });
});
