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
import { StepParams, stepConstants } from './stepParams';
import { shaders } from './wgsl';

export { DAMPING_MODE_CONSTANT } from './stepParams';

export class IntegratePass {
  private destroyed = false;
  private readonly fused: FusedPipelineCache;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly pipeline: GPUComputePipeline,
    private readonly params: StepParams,
    constants: Record<string, number>,
    readonly workgroupSize: number,
  ) {
    this.fused = new FusedPipelineCache(
      device,
      'IntegratePass',
      [particles.bindGroupLayout, params.layout],
      shaders.integrateWithForces,
      constants,
    );
  }

  static async create(
    device: GPUDevice,
    particles: ParticleBuffer,
    variant: Variant,
    workgroupSize: number,
  ): Promise<IntegratePass> {
    const params = new StepParams(device, 'IntegratePass', particles);
    const constants = stepConstants(variant, workgroupSize);
    // Created synchronously: the caller's error scopes catch any failure.
    const pipeline = device.createComputePipeline({
      label: `IntegratePass.pipeline(${variant.integrator}, ${variant.damping})`,
      layout: device.createPipelineLayout({
        label: 'IntegratePass.pipelineLayout',
        bindGroupLayouts: [particles.bindGroupLayout, params.layout],
      }),
      compute: {
        module: device.createShaderModule({ label: 'integrate.wgsl', code: shaders.integrate() }),
        entryPoint: 'main',
        constants,
      },
    });
    return new IntegratePass(device, particles, pipeline, params, constants, workgroupSize);
  }

  /** Records `steps` steps of `dt` over particles [0, count) into `encoder`. */
  encode(encoder: GPUCommandEncoder, dt: number, count: number, steps = 1): void {
    const offset = this.params.offsetFor(dt, count);
    const [x, y] = dispatchSize(count, this.workgroupSize, this.device.limits.maxComputeWorkgroupsPerDimension);
    const pass = encoder.beginComputePass({ label: 'IntegratePass' });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.params.bindGroup, [offset]);
    // One dispatch per step; dispatches in one pass are ordered for storage writes.
    for (let s = 0; s < steps; s++) pass.dispatchWorkgroups(x, y);
    pass.end();
  }

  /** Records `steps` steps into a compute pass the caller opened (one, to interleave it with the force passes). */
  record(pass: GPUComputePassEncoder, dt: number, count: number, steps = 1): void {
    const offset = this.params.offsetFor(dt, count);
    const [x, y] = dispatchSize(count, this.workgroupSize, this.device.limits.maxComputeWorkgroupsPerDimension);
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.params.bindGroup, [offset]);
    // One dispatch per step; dispatches in one pass are ordered for storage writes.
    for (let s = 0; s < steps; s++) pass.dispatchWorkgroups(x, y);
  }

  /**
   * Records `steps` steps with the field forces fused in (Cyclone's order: they
   * accumulate, then the step integrates) into a compute pass the caller opened.
   */
  recordWithForces(pass: GPUComputePassEncoder, dt: number, count: number, forces: FusedForces, steps = 1): void {
    const offset = this.params.offsetFor(dt, count);
    const [x, y] = dispatchSize(count, this.workgroupSize, this.device.limits.maxComputeWorkgroupsPerDimension);
    pass.setPipeline(this.fused.get(forces));
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.params.bindGroup, [offset]);
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
