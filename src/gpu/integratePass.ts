/**
 * Owns the integration step's pipelines: shaders/integrate.wgsl specialised
 * for one variant through override constants, plain, and with the field
 * forces of a registry composition fused in (one pipeline per composition,
 * made on first use and cached).
 */
import type { Variant } from '../core/variants';
import { dispatchSize } from './dispatch';
import type { FusedForces } from './forcesPass';
import { FusedPipelineCache } from './fusedPipelines';
import type { ParticleBuffer } from './particleBuffer';
import { shaders } from './wgsl';

/** The DAMPING_MODE override of shaders/integrate.wgsl for each damping mode; every step pipeline uses this one table. */
export const DAMPING_MODE_CONSTANT = { 'per-second': 0, 'per-step': 1, off: 2 } as const;

/**
 * `dt` and the count live in a ring of uniform slots addressed by dynamic
 * offset, one slot per distinct (dt, count), so several steps of different
 * `dt` can be recorded into one command buffer before it is submitted.
 */
const PARAM_SLOTS = 256;
const SLOT_BYTES = 256; // minUniformBufferOffsetAlignment's largest allowed value

export class IntegratePass {
  private readonly params: GPUBuffer;
  private readonly paramsBindGroup: GPUBindGroup;
  private readonly slots = new Map<string, number>();
  private nextSlot = 0;
  private destroyed = false;
  private readonly fused: FusedPipelineCache;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly pipeline: GPUComputePipeline,
    paramsLayout: GPUBindGroupLayout,
    constants: Record<string, number>,
    readonly workgroupSize: number,
  ) {
    this.fused = new FusedPipelineCache(
      device,
      'IntegratePass',
      [particles.bindGroupLayout, paramsLayout],
      shaders.integrateWithForces,
      constants,
    );
    this.params = device.createBuffer({
      label: 'IntegratePass.params',
      size: PARAM_SLOTS * SLOT_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.paramsBindGroup = device.createBindGroup({
      label: 'IntegratePass.paramsBindGroup',
      layout: paramsLayout,
      entries: [{ binding: 0, resource: { buffer: this.params, size: 8 } }],
    });
  }

  static async create(
    device: GPUDevice,
    particles: ParticleBuffer,
    variant: Variant,
    workgroupSize: number,
  ): Promise<IntegratePass> {
    const paramsLayout = device.createBindGroupLayout({
      label: 'IntegratePass.paramsLayout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } },
      ],
    });
    const constants = {
      WORKGROUP_SIZE: workgroupSize,
      SEMI_IMPLICIT: variant.integrator === 'semi-implicit' ? 1 : 0,
      DAMPING_MODE: DAMPING_MODE_CONSTANT[variant.damping],
    };
    // Created synchronously: the caller's error scopes catch any failure.
    const pipeline = device.createComputePipeline({
      label: `IntegratePass.pipeline(${variant.integrator}, ${variant.damping})`,
      layout: device.createPipelineLayout({
        label: 'IntegratePass.pipelineLayout',
        bindGroupLayouts: [particles.bindGroupLayout, paramsLayout],
      }),
      compute: {
        module: device.createShaderModule({ label: 'integrate.wgsl', code: shaders.integrate() }),
        entryPoint: 'main',
        constants,
      },
    });
    return new IntegratePass(device, particles, pipeline, paramsLayout, constants, workgroupSize);
  }

  private slotFor(dt: number, count: number): number {
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
      this.device.queue.writeBuffer(this.params, slot * SLOT_BYTES, data);
    }
    return slot;
  }

  /** Records `steps` steps of `dt` over particles [0, count) into `encoder`. */
  encode(encoder: GPUCommandEncoder, dt: number, count: number, steps = 1): void {
    const offset = this.slotFor(dt, count) * SLOT_BYTES;
    const [x, y] = dispatchSize(count, this.workgroupSize, this.device.limits.maxComputeWorkgroupsPerDimension);
    const pass = encoder.beginComputePass({ label: 'IntegratePass' });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.paramsBindGroup, [offset]);
    // One dispatch per step; dispatches in one pass are ordered for storage writes.
    for (let s = 0; s < steps; s++) pass.dispatchWorkgroups(x, y);
    pass.end();
  }

  /** Records one step into a compute pass the caller opened, to interleave it with the force passes. */
  record(pass: GPUComputePassEncoder, dt: number, count: number): void {
    const offset = this.slotFor(dt, count) * SLOT_BYTES;
    const [x, y] = dispatchSize(count, this.workgroupSize, this.device.limits.maxComputeWorkgroupsPerDimension);
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.paramsBindGroup, [offset]);
    pass.dispatchWorkgroups(x, y);
  }

  /**
   * Records `steps` steps with the field forces fused in (Cyclone's order: they
   * accumulate, then the step integrates) into a compute pass the caller opened.
   */
  recordWithForces(pass: GPUComputePassEncoder, dt: number, count: number, forces: FusedForces, steps = 1): void {
    const offset = this.slotFor(dt, count) * SLOT_BYTES;
    const [x, y] = dispatchSize(count, this.workgroupSize, this.device.limits.maxComputeWorkgroupsPerDimension);
    pass.setPipeline(this.fused.get(forces));
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.paramsBindGroup, [offset]);
    pass.setBindGroup(this.fused.forcesGroup, forces.bindGroup, [forces.offset]);
    // One dispatch per step; dispatches in one pass are ordered for storage writes.
    for (let s = 0; s < steps; s++) pass.dispatchWorkgroups(x, y);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
  }
}
