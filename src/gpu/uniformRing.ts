/**
 * Uniform parameters for passes that may be recorded several times, with
 * different values, into command buffers not yet submitted: a ring of 256-byte
 * slots addressed by dynamic offset, one slot per distinct content (as
 * IntegratePass does for its `dt`). queue.writeBuffer lands before the next
 * submit, so two recordings must never share a slot with different contents.
 */
const SLOTS = 256;
const SLOT_BYTES = 256; // minUniformBufferOffsetAlignment's largest allowed value

export class UniformRing {
  readonly buffer: GPUBuffer;
  private readonly slots = new Map<string, number>();
  private next = 0;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    label: string,
    /** Bytes of one parameter block (at most 256). */
    readonly size: number,
  ) {
    if (size > SLOT_BYTES) throw new RangeError(`${label}: ${size} bytes do not fit a ${SLOT_BYTES}-byte slot`);
    this.buffer = device.createBuffer({
      label,
      size: SLOTS * SLOT_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
  }

  /** The dynamic offset of a slot holding `data`, written now if no slot holds it yet. */
  offsetFor(data: ArrayBuffer): number {
    const key = Array.from(new Uint32Array(data)).join(',');
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.next;
      this.next = (this.next + 1) % SLOTS;
      for (const [k, s] of this.slots) if (s === slot) this.slots.delete(k);
      this.slots.set(key, slot);
      this.device.queue.writeBuffer(this.buffer, slot * SLOT_BYTES, data);
    }
    return slot * SLOT_BYTES;
  }

  /** A binding of one slot, for a bind group entry with `hasDynamicOffset`. */
  get binding(): GPUBufferBinding {
    return { buffer: this.buffer, size: this.size };
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.buffer.destroy();
  }
}

export const UNIFORM_DYNAMIC: GPUBufferBindingLayout = { type: 'uniform', hasDynamicOffset: true };
