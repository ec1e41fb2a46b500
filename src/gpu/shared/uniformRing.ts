/**
 * The one ring of uniform parameter blocks, used by every pass whose
 * parameters (a dt, a count, a force table, an emitter frame) may differ
 * between recordings that sit in command buffers not yet submitted.
 *
 * Each distinct block gets its own 256-byte-aligned slot, addressed by a
 * dynamic offset; queue.writeBuffer lands before the next submit, so two
 * pending recordings must never share a slot with different contents. A slot
 * is reused freely for the same contents (the common case: one dt, one
 * count). A slot holding other contents is reclaimed only once the recordings
 * that used it have been submitted, which the ring learns from its
 * SubmitWindow; when every slot is pending it throws, naming the limit, before
 * anything is submitted. It never wraps silently.
 */

/**
 * Counts the owner's submits: a slot assigned in an earlier window than the
 * current one belongs to recordings already submitted. The owner (the
 * particle system) calls `submitted()` after each queue.submit of work it
 * recorded; a caller who records into its own encoder calls the system's
 * `submitted()` after submitting it.
 */
export class SubmitWindow {
  private current = 0;
  get generation(): number {
    return this.current;
  }
  submitted(): void {
    this.current++;
  }
}

/** Thrown when more distinct parameter blocks are pending than a ring holds. */
export class UniformRingFullError extends RangeError {
  /** `'UniformRingFullError'`. */
  override readonly name = 'UniformRingFullError';
  constructor(
    /** The ring's label, which names its owner. */
    readonly label: string,
    /** Distinct blocks the ring holds between submits (256 for a system). */
    readonly limit: number,
  ) {
    super(
      `${label}: more than ${limit} distinct parameter blocks (dt values, counts, force tables or emitter frames) ` +
        `recorded since the last submit; the limit is ${limit}. Submit the command buffer (and call the system's ` +
        `submitted() after submitting an encoder of your own) before recording more.`,
    );
  }
}

/** minUniformBufferOffsetAlignment's largest allowed value, so any device accepts the offsets. */
const OFFSET_ALIGNMENT = 256;
/** Default slots a ring: distinct blocks that may be pending between submits. */
export const DEFAULT_RING_SLOTS = 256;

export class UniformRing {
  readonly buffer: GPUBuffer;
  /** Bytes between slots: the block size rounded up to the offset alignment. */
  readonly stride: number;
  /** Slot by contents; Map order is least recently used first. */
  private readonly byKey = new Map<string, number>();
  /** Per slot: its contents' key and the window it was last used in (-1: never). */
  private readonly keys: (string | null)[];
  private readonly used: Int32Array;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    readonly label: string,
    /** Bytes of one parameter block. */
    readonly size: number,
    private readonly window: SubmitWindow,
    readonly slots = DEFAULT_RING_SLOTS,
  ) {
    this.stride = Math.ceil(size / OFFSET_ALIGNMENT) * OFFSET_ALIGNMENT;
    this.keys = new Array<string | null>(slots).fill(null);
    this.used = new Int32Array(slots).fill(-1);
    this.buffer = device.createBuffer({
      label,
      size: slots * this.stride,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
  }

  /** The dynamic offset of a slot holding `data`, written now if no slot holds it yet. */
  offsetFor(data: ArrayBufferView | ArrayBuffer): number {
    return this.offsetForKey(contentsKey(data), () => data);
  }

  /**
   * The same for contents named by `key`, where naming them is cheaper than
   * making them (a force table packed for one registry version and dt):
   * `make` runs only when no slot holds `key`.
   */
  offsetForKey(key: string, make: () => ArrayBufferView | ArrayBuffer): number {
    const generation = this.window.generation;
    let slot = this.byKey.get(key);
    if (slot !== undefined) {
      this.byKey.delete(key); // most recently used goes last
    } else {
      const bytes = asBytes(make());
      if (bytes.byteLength > this.size) {
        throw new RangeError(`${this.label}: a ${bytes.byteLength}-byte block does not fit ${this.size}-byte slots`);
      }
      slot = this.reclaim(generation);
      const previous = this.keys[slot];
      if (previous !== null && previous !== undefined) this.byKey.delete(previous);
      this.keys[slot] = key;
      this.device.queue.writeBuffer(this.buffer, slot * this.stride, bytes);
    }
    this.byKey.set(key, slot);
    this.used[slot] = generation;
    return slot * this.stride;
  }

  /** A never-used slot, else the least recently used one not pending in this window. */
  private reclaim(generation: number): number {
    const fresh = this.keys.indexOf(null);
    if (fresh >= 0) return fresh;
    for (const slot of this.byKey.values()) if (this.used[slot] !== generation) return slot;
    throw new UniformRingFullError(this.label, this.slots);
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

function asBytes(data: ArrayBufferView | ArrayBuffer): Uint8Array<ArrayBuffer> {
  return data instanceof ArrayBuffer
    ? new Uint8Array(data)
    : new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
}

/** The key offsetFor names `data` by: its words (or bytes) as numbers, joined. */
export function contentsKey(data: ArrayBufferView | ArrayBuffer): string {
  const bytes = asBytes(data);
  if (bytes.byteLength % 4 === 0 && bytes.byteOffset % 4 === 0) {
    return Array.from(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)).join(',');
  }
  return Array.from(bytes).join(',');
}
