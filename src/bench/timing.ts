/**
 * Timing a batch of GPU work, and the statistics of repeated runs.
 *
 * With the adapter's 'timestamp-query' feature the batch is bracketed by two
 * empty compute passes whose `timestampWrites` record the GPU clock before
 * the first command and after the last one: one method for every case,
 * including `copyBufferToBuffer` (which has no pass of its own) and steps
 * recorded by ParticleSystem.encodeSteps (whose pass the bench does not own).
 * Without it, wall time around submit and `queue.onSubmittedWorkDone()`.
 * Encoding happens before the clock starts, and the queue is drained first.
 */

import { withHeldErrorScopes } from '../gpu/device/errors';
import type { ParticleSystem } from '../gpu/particleSystem';

export type TimingMethod = 'timestamp-query' | 'wall (onSubmittedWorkDone)' | 'wall (host)';

export interface Sample {
  /** Milliseconds for the whole batch. */
  ms: number;
  /** Wall time around submit and onSubmittedWorkDone, also kept when timestamps are used. */
  wallMs: number;
  method: TimingMethod;
}

export class GpuTimer {
  readonly method: TimingMethod;
  private readonly querySet: GPUQuerySet | null = null;
  private readonly resolve: GPUBuffer | null = null;
  private readonly readback: GPUBuffer | null = null;
  private destroyed = false;

  /** Timestamps when the device has 'timestamp-query' and `useTimestamps` allows; else wall time. */
  constructor(
    private readonly device: GPUDevice,
    useTimestamps = true,
  ) {
    if (useTimestamps && device.features.has('timestamp-query')) {
      this.querySet = device.createQuerySet({ label: 'GpuTimer.querySet', type: 'timestamp', count: 2 });
      this.resolve = device.createBuffer({
        label: 'GpuTimer.resolve',
        size: 16,
        usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
      });
      this.readback = device.createBuffer({
        label: 'GpuTimer.readback',
        size: 16,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
      this.method = 'timestamp-query';
    } else {
      this.method = 'wall (onSubmittedWorkDone)';
    }
  }

  /** Encodes the work with `record`, submits it alone and times it. */
  async time(record: (encoder: GPUCommandEncoder) => void, label = 'GpuTimer'): Promise<Sample> {
    if (this.destroyed) throw new Error('this GpuTimer has been destroyed');
    const encoder = this.device.createCommandEncoder({ label });
    const { querySet, resolve, readback } = this;
    if (querySet) {
      encoder
        .beginComputePass({ label: `${label}: begin`, timestampWrites: { querySet, beginningOfPassWriteIndex: 0 } })
        .end();
    }
    record(encoder);
    if (querySet && resolve && readback) {
      encoder.beginComputePass({ label: `${label}: end`, timestampWrites: { querySet, endOfPassWriteIndex: 1 } }).end();
      encoder.resolveQuerySet(querySet, 0, 2, resolve, 0);
      encoder.copyBufferToBuffer(resolve, 0, readback, 0, 16);
    }
    const commands = encoder.finish();
    await this.device.queue.onSubmittedWorkDone();
    const started = performance.now();
    this.device.queue.submit([commands]);
    await this.device.queue.onSubmittedWorkDone();
    const wallMs = performance.now() - started;
    if (!readback) return { ms: wallMs, wallMs, method: this.method };
    await readback.mapAsync(GPUMapMode.READ);
    const [begin, end] = new BigUint64Array(readback.getMappedRange());
    readback.unmap();
    const ms = Number((end ?? 0n) - (begin ?? 0n)) / 1e6;
    // A clock that did not advance (or ran backwards) is no measurement: fall back to wall time.
    if (!(ms > 0)) return { ms: wallMs, wallMs, method: 'wall (onSubmittedWorkDone)' };
    return { ms, wallMs, method: this.method };
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const resource of [this.querySet, this.resolve, this.readback]) resource?.destroy();
  }
}

/**
 * Wall-clock a step of `steps` steps of `system` recorded into one command
 * buffer (labelled `label`), submit to onSubmittedWorkDone, the queue
 * drained first where `drain` says; the device's errors held, named `scope`.
 */
export function timeSteps(
  device: GPUDevice,
  system: ParticleSystem,
  dt: number,
  steps: number,
  options: { label: string; scope: string; drain?: boolean },
): Promise<number> {
  return withHeldErrorScopes(device, options.scope, async () => {
    const encoder = device.createCommandEncoder({ label: options.label });
    system.encodeSteps(encoder, dt, steps);
    const commands = encoder.finish();
    if (options.drain) await device.queue.onSubmittedWorkDone();
    const started = performance.now();
    device.queue.submit([commands]);
    system.submitted();
    await device.queue.onSubmittedWorkDone();
    return (performance.now() - started) / steps;
  });
}

/**
 * Milliseconds of wall time from submitting what `record` encodes, alone and
 * after the queue drained, to the queue's done: the contact and sort ratios'
 * clock and the profiles' (encoding happens before the clock starts).
 */
export async function timeSubmitted(
  device: GPUDevice,
  record: (encoder: GPUCommandEncoder) => void,
  label: string,
): Promise<number> {
  const encoder = device.createCommandEncoder({ label });
  record(encoder);
  const commands = encoder.finish();
  await device.queue.onSubmittedWorkDone();
  const started = performance.now();
  device.queue.submit([commands]);
  await device.queue.onSubmittedWorkDone();
  return performance.now() - started;
}

/** Times host work (the CPU reference, or a host-side API call that submits itself). */
export async function timeHost(work: () => void | Promise<void>): Promise<Sample> {
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  return { ms, wallMs: ms, method: 'wall (host)' };
}

export interface Spread {
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
}

/** Linear-interpolated quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const low = sorted[below] as number;
  const high = sorted[Math.min(below + 1, sorted.length - 1)] as number;
  return low + (high - low) * (at - below);
}

/** The median of the alternating rounds' figures (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** Median, quartiles and extremes of at least one value. */
export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) throw new RangeError('spreadOf needs at least one value');
  const sorted = [...values].sort((a, b) => a - b);
  return {
    min: sorted[0] as number,
    q1: quantile(sorted, 0.25),
    median: quantile(sorted, 0.5),
    q3: quantile(sorted, 0.75),
    max: sorted[sorted.length - 1] as number,
  };
}

/**
 * How many steps one timed submission should hold so that it lasts about
 * `targetMs`, at least `least` and at most `most`. On a fast GPU a step is
 * microseconds, and a submission's own cost (tens of microseconds from submit
 * to onSubmittedWorkDone) would otherwise be most of what a ratio divides by;
 * on a software adapter one step already lasts milliseconds and `least` stands.
 * `timeSteps(k)` returns the milliseconds of one submission of k steps.
 */
export async function stepsPerSubmission(
  timeSteps: (steps: number) => Promise<number>,
  least: number,
  targetMs = 4,
  most = 1024,
): Promise<number> {
  let steps = least;
  for (let tries = 0; tries < 4 && steps < most; tries++) {
    const ms = await timeSteps(steps);
    if (ms >= targetMs) break;
    steps = Math.min(most, Math.max(2 * steps, Math.ceil((steps * targetMs) / Math.max(ms, 0.001))));
  }
  return steps;
}

/** What a ratio timed in alternating rounds takes: steps (or passes) a submission, timed rounds, dt. */
export interface RatioOptions {
  /** Steps or dispatches per submitted command buffer. Default 5. */
  passesPerSubmit?: number;
  /** Timed rounds; the median is reported. Default 15 (single rounds on a shared machine spread by a factor of 2). */
  rounds?: number;
  dt?: number;
}

/** `options` with the defaults filled in: 5 a submission, 15 rounds, dt 1/60. */
export function ratioDefaults(options: RatioOptions): { passes: number; rounds: number; dt: number } {
  return { passes: options.passesPerSubmit ?? 5, rounds: options.rounds ?? 15, dt: options.dt ?? 1 / 60 };
}

/**
 * `rounds` timed rounds after a round 0 that warms up (pipelines, uploads,
 * the driver's first dispatches) and is not kept: each round's `time()`
 * gives the plain step's time and the other work's, taken moments apart.
 * The kept times, and the other's over the step's, round by round.
 */
export async function alternatingRounds(
  rounds: number,
  time: () => Promise<readonly [step: number, other: number]>,
): Promise<{ steps: number[]; others: number[]; ratios: number[] }> {
  const steps: number[] = [];
  const others: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const [step, other] = await time();
    if (round > 0) {
      steps.push(step);
      others.push(other);
    }
  }
  return { steps, others, ratios: others.map((o, r) => o / (steps[r] as number)) };
}
