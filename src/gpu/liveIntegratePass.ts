/**
 * Owns the step's pipeline over the live list: shaders/integrate.wgsl,
 * unchanged, composed with shaders/liveDispatch.wgsl in place of
 * shaders/dispatch.wgsl, so invocation k steps the k-th live particle, and
 * dispatched indirectly with the live count. The cost follows the live
 * count, not the capacity. Also the same with the field forces fused in
 * (one pipeline per composition, as IntegratePass). Used only by systems with
 * emitters; without them the system keeps IntegratePass and its direct
 * dispatch over every slot.
 */
import type { Variant } from '../core/variants';
import type { FusedForces } from './forcesPass';
import { FusedPipelineCache } from './fusedPipelines';
import { DAMPING_MODE_CONSTANT } from './integratePass';
import { ARGS } from './lifecycleWgsl';
import type { LifeBuffers } from './lifeBuffers';
import type { ParticleBuffer } from './particleBuffer';
import { shaders } from './wgsl';

const PARAM_SLOTS = 256;
const SLOT_BYTES = 256;

export class LiveIntegratePass {
  private readonly params: GPUBuffer;
  private readonly paramsBindGroup: GPUBindGroup;
  private readonly slots = new Map<number, number>();
  private nextSlot = 0;
  private destroyed = false;
  private readonly fused: FusedPipelineCache;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly buffers: LifeBuffers,
    private readonly pipeline: GPUComputePipeline,
    paramsLayout: GPUBindGroupLayout,
    constants: Record<string, number>,
  ) {
    this.fused = new FusedPipelineCache(
      device,
      'LiveIntegratePass',
      [particles.bindGroupLayout, paramsLayout, buffers.liveLayout],
      shaders.integrateLiveWithForces,
      constants,
    );
    this.params = device.createBuffer({
      label: 'LiveIntegratePass.params',
      size: PARAM_SLOTS * SLOT_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.paramsBindGroup = device.createBindGroup({
      label: 'LiveIntegratePass.paramsBindGroup',
      layout: paramsLayout,
      entries: [{ binding: 0, resource: { buffer: this.params, size: 8 } }],
    });
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(
    device: GPUDevice,
    particles: ParticleBuffer,
    buffers: LifeBuffers,
    variant: Variant,
    workgroupSize: number,
  ): LiveIntegratePass {
    const paramsLayout = device.createBindGroupLayout({
      label: 'LiveIntegratePass.paramsLayout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } },
      ],
    });
    const constants = {
      WORKGROUP_SIZE: workgroupSize,
      CAPACITY: buffers.capacity,
      SEMI_IMPLICIT: variant.integrator === 'semi-implicit' ? 1 : 0,
      DAMPING_MODE: DAMPING_MODE_CONSTANT[variant.damping],
    };
    const pipeline = device.createComputePipeline({
      label: `LiveIntegratePass.pipeline(${variant.integrator}, ${variant.damping})`,
      layout: device.createPipelineLayout({
        label: 'LiveIntegratePass.pipelineLayout',
        bindGroupLayouts: [particles.bindGroupLayout, paramsLayout, buffers.liveLayout],
      }),
      compute: {
        module: device.createShaderModule({
          label: 'integrate.wgsl (live list)',
          code: shaders.integrateLive(),
        }),
        entryPoint: 'main',
        constants,
      },
    });
    return new LiveIntegratePass(device, particles, buffers, pipeline, paramsLayout, constants);
  }

  /** A uniform slot holding (dt, capacity): the kernel's guard then rejects only NO_PARTICLE. */
  private offsetFor(dt: number): number {
    const key = Math.fround(dt);
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.nextSlot;
      this.nextSlot = (this.nextSlot + 1) % PARAM_SLOTS;
      for (const [k, s] of this.slots) if (s === slot) this.slots.delete(k);
      this.slots.set(key, slot);
      const data = new ArrayBuffer(8);
      new Float32Array(data, 0, 1)[0] = dt;
      new Uint32Array(data, 4, 1)[0] = this.buffers.capacity;
      this.device.queue.writeBuffer(this.params, slot * SLOT_BYTES, data);
    }
    return slot * SLOT_BYTES;
  }

  /** One step of `dt` over the live particles, into a compute pass the caller opened (after planStep). */
  record(pass: GPUComputePassEncoder, dt: number): void {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.paramsBindGroup, [this.offsetFor(dt)]);
    pass.setBindGroup(2, this.buffers.liveBindGroup);
    pass.dispatchWorkgroupsIndirect(this.buffers.args, ARGS.live * 4);
  }

  /** The same step with the field forces fused in (Cyclone's order: they accumulate, then the step integrates). */
  recordWithForces(pass: GPUComputePassEncoder, dt: number, forces: FusedForces): void {
    pass.setPipeline(this.fused.get(forces));
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.paramsBindGroup, [this.offsetFor(dt)]);
    pass.setBindGroup(2, this.buffers.liveBindGroup);
    pass.setBindGroup(this.fused.forcesGroup, forces.bindGroup, [forces.offset]);
    pass.dispatchWorkgroupsIndirect(this.buffers.args, ARGS.live * 4);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
  }
}
