/** GPU failures as typed, thrown errors instead of console messages. */

export class GpuValidationError extends Error {
  override readonly name = 'GpuValidationError';
  constructor(
    readonly operation: string,
    readonly gpuError: GPUError,
  ) {
    super(`${operation}: ${gpuError.constructor?.name ?? 'GPUError'}: ${gpuError.message}`);
  }
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
 * throws the first error any of them caught, naming `operation`.
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
  const first = errors.find((e): e is GPUError => e !== null);
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
