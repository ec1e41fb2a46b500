/**
 * Owns the ageing pipeline (shaders/age.wgsl): one invocation per live
 * particle, dispatched indirectly with the live count planStep wrote.
 */
import { ARGS } from './lifecycleWgsl';
import type { LifeBuffers } from './lifeBuffers';
import type { ParticleBuffer } from './particleBuffer';
import { lifecycleShaders } from './lifecycleWgsl';

export class AgePass {
  private constructor(
    private readonly pipeline: GPUComputePipeline,
    private readonly particles: ParticleBuffer,
    private readonly buffers: LifeBuffers,
    private readonly bindGroup: GPUBindGroup,
    private readonly frameGroup: GPUBindGroup,
  ) {}

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, buffers: LifeBuffers, workgroupSize: number): AgePass {
    const entry = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type },
    });
    const layout = device.createBindGroupLayout({
      label: 'AgePass.layout',
      entries: [
        entry(0, 'storage'),
        entry(1, 'read-only-storage'),
        entry(2, 'storage'),
        entry(3, 'read-only-storage'),
        entry(4, 'uniform'),
      ],
    });
    const frameLayout = device.createBindGroupLayout({
      label: 'AgePass.frameLayout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } },
      ],
    });
    const pipeline = device.createComputePipeline({
      label: 'AgePass.pipeline',
      layout: device.createPipelineLayout({
        label: 'AgePass.pipelineLayout',
        bindGroupLayouts: [particles.bindGroupLayout, layout, frameLayout],
      }),
      compute: {
        module: device.createShaderModule({ label: 'age.wgsl', code: lifecycleShaders.age() }),
        entryPoint: 'main',
        constants: { WORKGROUP_SIZE: workgroupSize, CAPACITY: buffers.capacity },
      },
    });
    const bindGroup = device.createBindGroup({
      label: 'AgePass.bindGroup',
      layout,
      entries: [
        { binding: 0, resource: { buffer: buffers.life } },
        { binding: 1, resource: { buffer: buffers.lists } },
        { binding: 2, resource: { buffer: buffers.flags } },
        { binding: 3, resource: { buffer: buffers.counters } },
        { binding: 4, resource: { buffer: buffers.rules } },
      ],
    });
    const frameGroup = device.createBindGroup({
      label: 'AgePass.frameBindGroup',
      layout: frameLayout,
      entries: [{ binding: 0, resource: buffers.frameBinding }],
    });
    return new AgePass(pipeline, particles, buffers, bindGroup, frameGroup);
  }

  /** Into a compute pass the caller opened, after planStep, the step and the collisions. */
  record(pass: GPUComputePassEncoder, frameOffset: number): void {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.bindGroup);
    pass.setBindGroup(2, this.frameGroup, [frameOffset]);
    pass.dispatchWorkgroupsIndirect(this.buffers.args, ARGS.live * 4);
  }

  /** Nothing of its own to free. Safe twice. */
  destroy(): void {}
}
