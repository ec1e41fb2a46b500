/**
 * A uniform block that holds one value at a time (a pass's parameters that
 * are written before each submit, or once): its buffer, sized by its schema
 * struct, and the host value written into it by field name. Parameters that
 * may differ between recordings pending in one command buffer belong in a
 * UniformRing instead.
 */
import type { FieldSpecs, StructDef, StructValue } from '../../core/schema';

export class UniformBlock<F extends FieldSpecs = FieldSpecs> {
  readonly buffer: GPUBuffer;
  /** The host copy: set fields, then `write()`. */
  readonly value: StructValue<F>;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    label: string,
    struct: StructDef<F>,
  ) {
    this.value = struct.value();
    this.buffer = device.createBuffer({
      label,
      size: struct.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
  }

  /** Uploads the host value (it lands before the next submit). */
  write(): this {
    this.device.queue.writeBuffer(this.buffer, 0, this.value.bytes);
    return this;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.buffer.destroy();
  }
}
