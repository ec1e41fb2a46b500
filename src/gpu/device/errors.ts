/** GPU failures as typed, thrown errors instead of console messages. */

/**
 * WebGPU reported a validation, out-of-memory or internal error for a call's
 * GPU work (caught by error scopes around exactly that work).
 */
export class GpuValidationError extends Error {
  /** `'GpuValidationError'`, or `'GpuOutOfMemoryError'` for the subclass. */
  override readonly name: string = 'GpuValidationError';
  constructor(
    /** What was being done, e.g. `creating the particle system (capacity 16777216, ...)`. */
    readonly operation: string,
    /** The error WebGPU reported. */
    readonly gpuError: GPUError,
  ) {
    super(`${operation}: ${gpuError.constructor?.name ?? 'GPUError'}: ${gpuError.message}`);
  }
}

/** The device could not allocate what was asked (e.g. a buffer larger than its memory). */
export class GpuOutOfMemoryError extends GpuValidationError {
  /** `'GpuOutOfMemoryError'`. */
  override readonly name: string = 'GpuOutOfMemoryError';
}

/** The device was lost: `system.lost` resolves with it, and every later call throws it. */
export class DeviceLostError extends Error {
  /** `'DeviceLostError'`. */
  override readonly name = 'DeviceLostError';
  constructor(
    /** GPUDeviceLostInfo's reason: `destroyed` or `unknown`. */
    readonly reason: string,
    /** GPUDeviceLostInfo's message. */
    readonly detail: string,
  ) {
    super(`the GPU device was lost (${reason}): ${detail}`);
  }
}

/** The three scopes popped, innermost first: validation, out-of-memory, internal. */
type Popped = [Promise<GPUError | null>, Promise<GPUError | null>, Promise<GPUError | null>];

function pushScopes(device: GPUDevice): void {
  device.pushErrorScope('internal');
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
}

function popScopes(device: GPUDevice): Popped {
  return [device.popErrorScope(), device.popErrorScope(), device.popErrorScope()];
}

/** What the scopes caught, as the error to throw: out-of-memory first, since what follows it only echoes it. */
async function scopedError(operation: string, popped: Popped): Promise<GpuValidationError | null> {
  const [validation, outOfMemory, internal] = await Promise.all(popped);
  if (outOfMemory) return new GpuOutOfMemoryError(operation, outOfMemory);
  const first = internal ?? validation;
  return first ? new GpuValidationError(operation, first) : null;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** A synchronous result: a `record` that returns a promise would leave work outside its scopes. */
export type Recorded<T> = T extends PromiseLike<unknown> ? never : T;

/**
 * Runs `record` inside validation, out-of-memory and internal error scopes
 * and throws what they caught, naming `operation`: an out-of-memory error
 * first (as GpuOutOfMemoryError), since the validation errors that follow it
 * (an invalid buffer used later) are only its consequences.
 *
 * The scopes hold exactly the GPU calls `record` makes: they are pushed, then
 * `record` runs (synchronously: it creates, encodes and submits), then they
 * are popped, with no await in between. So no other code (a render loop's
 * frame, another system's step) can issue GPU work into them, and scopes
 * that other code pushes and pops are never interleaved with these. A
 * `record` that returns a promise is refused: its work after an await would
 * fall outside the scopes.
 *
 * `tail`, if given, is the call's asynchronous remainder (a readback's
 * mapAsync), started after the scopes are popped and given what `record`
 * returned; it must make no GPU calls that can fail validation. Both are
 * awaited; an error the scopes caught is thrown before the tail's.
 */
export function withErrorScopes<T>(device: GPUDevice, operation: string, record: () => Recorded<T>): Promise<T>;
export function withErrorScopes<T, R>(
  device: GPUDevice,
  operation: string,
  record: () => Recorded<T>,
  tail: (recorded: T) => Promise<R>,
): Promise<R>;
export async function withErrorScopes<T, R>(
  device: GPUDevice,
  operation: string,
  record: () => T,
  tail?: (recorded: T) => Promise<R>,
): Promise<T | R> {
  pushScopes(device);
  let recorded: T;
  try {
    recorded = record();
  } catch (error) {
    // Always pop all three, so a failure never leaves scopes pushed; the
    // host-side exception explains more than the GPU error it caused.
    await Promise.allSettled(popScopes(device));
    throw error;
  }
  const popped = popScopes(device);
  if (isThenable(recorded)) {
    await Promise.allSettled(popped);
    recorded.then(undefined, () => undefined);
    throw new TypeError(
      `${operation}: withErrorScopes needs a synchronous record (its work after an await would escape the scopes); ` +
        'pass the asynchronous remainder as tail, or use withHeldErrorScopes on a device nothing else uses',
    );
  }
  const [caught, finished] = await Promise.allSettled([
    scopedError(operation, popped),
    tail ? tail(recorded) : Promise.resolve(recorded),
  ]);
  if (caught.status === 'rejected') throw caught.reason;
  if (caught.value) throw caught.value;
  if (finished.status === 'rejected') throw finished.reason;
  return finished.value;
}

/**
 * A readback inside error scopes: `start` copies and submits (synchronously,
 * inside the scopes) and returns the mapping's promise, awaited after them.
 */
export function readWithinScopes<R>(device: GPUDevice, operation: string, start: () => Promise<R>): Promise<R> {
  return withErrorScopes(
    device,
    operation,
    () => ({ reading: start() }),
    ({ reading }) => reading,
  );
}

/**
 * Runs `work`, awaits included, inside the three error scopes and throws what
 * they caught, as withErrorScopes does. The scopes stay pushed across every
 * await, so they also catch whatever any other code does on the device
 * meanwhile, and scopes pushed by other code interleave with them: use it
 * only where the caller holds the device alone (the bench's per-case
 * out-of-memory check), and withErrorScopes everywhere else.
 */
export async function withHeldErrorScopes<T>(
  device: GPUDevice,
  operation: string,
  work: () => T | Promise<T>,
): Promise<T> {
  pushScopes(device);
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await work() };
  } catch (error) {
    outcome = { ok: false, error };
  }
  // Always pop all three, so a failure never leaves scopes pushed.
  const caught = await scopedError(operation, popScopes(device));
  // The host-side exception explains more than the GPU error it caused.
  if (!outcome.ok) throw outcome.error;
  if (caught) throw caught;
  return outcome.value;
}

/**
 * Watches `device.lost`: `check()` throws once the device is gone, so every
 * later call fails loudly rather than recording into a dead device.
 */
export class DeviceLossWatch {
  private lostInfo: GPUDeviceLostInfo | null = null;
  /** Resolves when the device is lost, with the reason. */
  readonly lost: Promise<DeviceLostError>;

  constructor(device: GPUDevice) {
    this.lost = device.lost.then((info) => {
      this.lostInfo = info;
      return new DeviceLostError(info.reason, info.message);
    });
  }

  check(): void {
    if (this.lostInfo) throw new DeviceLostError(this.lostInfo.reason, this.lostInfo.message);
  }
}
