/**
 * The step's uniform (`StepParams` of shaders/integrate.wgsl: dt, count) and
 * its override constants, shared by the step passes over every slot
 * (IntegratePass) and over the live list (LiveIntegratePass).
 *
 * `dt` and the count live in a ring of uniform slots addressed by dynamic
 * offset, one slot per distinct (dt, count), so several steps of different
 * `dt` can be recorded into one command buffer before it is submitted.
 */
import type { Variant } from '../core/variants';

const PARAM_SLOTS = 256;
const SLOT_BYTES = 256; // minUniformBufferOffsetAlignment's largest allowed value

/** The DAMPING_MODE override of shaders/integrate.wgsl for each damping mode; every step pipeline uses this one table. */
export const DAMPING_MODE_CONSTANT = { 'per-second': 0, 'per-step': 1, off: 2 } as const;

/** The override constants of shaders/integrate.wgsl for `variant`. */
export function stepConstants(variant: Variant, workgroupSize: number): Record<string, number> {
  return {
    WORKGROUP_SIZE: workgroupSize,
    SEMI_IMPLICIT: variant.integrator === 'semi-implicit' ? 1 : 0,
    DAMPING_MODE: DAMPING_MODE_CONSTANT[variant.damping],
  };
}

export class StepParams {
  readonly layout: GPUBindGroupLayout;
  readonly bindGroup: GPUBindGroup;
  private readonly buffer: GPUBuffer;
  private readonly slots = new Map<string, number>();
  private nextSlot = 0;

  constructor(
    private readonly device: GPUDevice,
    label: string,
  ) {
    this.layout = device.createBindGroupLayout({
      label: `${label}.paramsLayout`,
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } },
      ],
    });
    this.buffer = device.createBuffer({
      label: `${label}.params`,
      size: PARAM_SLOTS * SLOT_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.bindGroup = device.createBindGroup({
      label: `${label}.paramsBindGroup`,
      layout: this.layout,
      entries: [{ binding: 0, resource: { buffer: this.buffer, size: 8 } }],
    });
  }

  /** The dynamic offset of the slot holding (dt, count), written on first use. */
  offsetFor(dt: number, count: number): number {
    const key = `${Math.fround(dt)}:${count}`;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.nextSlot;
      this.nextSlot = (this.nextSlot + 1) % PARAM_SLOTS;
      for (const [k, s] of this.slots) if (s === slot) this.slots.delete(k);
      this.slots.set(key, slot);
      const data = new ArrayBuffer(8);
      new Float32Array(data, 0, 1)[0] = dt;
      new Uint32Array(data, 4, 1)[0] = count;
      this.device.queue.writeBuffer(this.buffer, slot * SLOT_BYTES, data);
    }
    return slot * SLOT_BYTES;
  }

  destroy(): void {
    this.buffer.destroy();
  }
}
