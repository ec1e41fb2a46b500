/**
 * What the bench's own kernels' passes (CopyPass, SoAStepPass,
 * UniformAccelerationPass) share: the device and the kernel they record, and
 * what they own (a uniform block, buffers), freed by `destroy`, safe twice.
 */
import type { Kernel } from '../gpu/shared/kernel';

export abstract class BenchPass {
  private destroyed = false;

  protected constructor(
    protected readonly device: GPUDevice,
    protected readonly kernel: Kernel,
  ) {}

  /** What `destroy` frees, in order. */
  protected abstract owned(): readonly { destroy(): void }[];

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const resource of this.owned()) resource.destroy();
  }
}
