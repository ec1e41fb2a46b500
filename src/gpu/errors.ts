/** GPU failures as typed, thrown errors instead of console messages. */

export class GpuValidationError extends Error {
  override readonly name: string = 'GpuValidationError';
  constructor(
    readonly operation: string,
    readonly gpuError: GPUError,
  ) {
    super(`${operation}: ${gpuError.constructor?.name ?? 'GPUError'}: ${gpuError.message}`);
  }
}

/** The device could not allocate what was asked (e.g. a buffer larger than its memory). */
export class GpuOutOfMemoryError extends GpuValidationError {
  override readonly name: string = 'GpuOutOfMemoryError';
}

export class DeviceLostError extends Error {
  override readonly name = 'DeviceLostError';
  constructor(
    readonly reason: string,
    readonly detail: string,
  ) {
    super(`the GPU device was lost (${reason}): ${detail}`);
  }
}

/**
 * Runs `work` inside validation, out-of-memory and internal error scopes and
 * throws what they caught, naming `operation`: an out-of-memory error first
 * (as GpuOutOfMemoryError), since the validation errors that follow it (an
 * invalid buffer used later) are only its consequences.
 */
export async function withErrorScopes<T>(device: GPUDevice, operation: string, work: () => T | Promise<T>): Promise<T> {
  device.pushErrorScope('internal');
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await work() };
  } catch (error) {
    outcome = { ok: false, error };
  }
  // Always pop all three, so a failure never leaves scopes pushed.
  const errors = [await device.popErrorScope(), await device.popErrorScope(), await device.popErrorScope()];
  // The host-side exception explains more than the GPU error it caused.
  if (!outcome.ok) throw outcome.error;
  const [validation, outOfMemory, internal] = errors;
  if (outOfMemory) throw new GpuOutOfMemoryError(operation, outOfMemory);
  const first = internal ?? validation;
  if (first) throw new GpuValidationError(operation, first);
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
