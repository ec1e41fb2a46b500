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
import { ARGS } from './lifecycleWgsl';
import type { LifeBuffers } from './lifeBuffers';
import type { ParticleBuffer } from './particleBuffer';
import { StepParams, stepConstants } from './stepParams';
import { shaders } from './wgsl';

export class LiveIntegratePass {
  private destroyed = false;
  private readonly fused: FusedPipelineCache;

  private constructor(
    device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly buffers: LifeBuffers,
    private readonly pipeline: GPUComputePipeline,
    private readonly params: StepParams,
    constants: Record<string, number>,
  ) {
    this.fused = new FusedPipelineCache(
      device,
      'LiveIntegratePass',
      [particles.bindGroupLayout, params.layout, buffers.liveLayout],
      shaders.integrateLiveWithForces,
      constants,
    );
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(
    device: GPUDevice,
    particles: ParticleBuffer,
    buffers: LifeBuffers,
    variant: Variant,
    workgroupSize: number,
  ): LiveIntegratePass {
    const params = new StepParams(device, 'LiveIntegratePass', particles);
    const constants = { ...stepConstants(variant, workgroupSize), CAPACITY: buffers.capacity };
    const pipeline = device.createComputePipeline({
      label: `LiveIntegratePass.pipeline(${variant.integrator}, ${variant.damping})`,
      layout: device.createPipelineLayout({
        label: 'LiveIntegratePass.pipelineLayout',
        bindGroupLayouts: [particles.bindGroupLayout, params.layout, buffers.liveLayout],
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
    return new LiveIntegratePass(device, particles, buffers, pipeline, params, constants);
  }

  /** The uniform slot holding (dt, capacity): the kernel's guard then rejects only NO_PARTICLE. */
  private offsetFor(dt: number): number {
    return this.params.offsetFor(dt, this.buffers.capacity);
  }

  /** One step of `dt` over the live particles, into a compute pass the caller opened (after planStep). */
  record(pass: GPUComputePassEncoder, dt: number): void {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.params.bindGroup, [this.offsetFor(dt)]);
    pass.setBindGroup(2, this.buffers.liveBindGroup);
    pass.dispatchWorkgroupsIndirect(this.buffers.args, ARGS.live * 4);
  }

  /** The same step with the field forces fused in (Cyclone's order: they accumulate, then the step integrates). */
  recordWithForces(pass: GPUComputePassEncoder, dt: number, forces: FusedForces): void {
    pass.setPipeline(this.fused.get(forces));
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.params.bindGroup, [this.offsetFor(dt)]);
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
