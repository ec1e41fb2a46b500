/**
 * Owns the emission pipeline (shaders/emit.wgsl, with shaders/spawn.wgsl and
 * shaders/pcg.wgsl): one invocation per granted request, dispatched
 * indirectly with the count planEmit wrote.
 */
import { ARGS } from './lifecycleWgsl';
import type { LifeBuffers } from './lifeBuffers';
import type { ParticleBuffer } from './particleBuffer';
import { lifecycleShaders } from './lifecycleWgsl';

export class EmitPass {
  private constructor(
    private readonly pipeline: GPUComputePipeline,
    private readonly particles: ParticleBuffer,
    private readonly buffers: LifeBuffers,
    private readonly bindGroup: GPUBindGroup,
    private readonly frameGroup: GPUBindGroup,
  ) {}

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, buffers: LifeBuffers, workgroupSize: number): EmitPass {
    const types: GPUBufferBindingType[] = [
      'storage', // life
      'storage', // lists
      'read-only-storage', // freeList
      'read-only-storage', // deaths
      'read-only-storage', // counters
      'storage', // ruleStats
      'uniform', // rules
    ];
    const layout = device.createBindGroupLayout({
      label: 'EmitPass.layout',
      entries: types.map((type, binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } })),
    });
    const frameLayout = device.createBindGroupLayout({
      label: 'EmitPass.frameLayout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } },
      ],
    });
    const pipeline = device.createComputePipeline({
      label: 'EmitPass.pipeline',
      layout: device.createPipelineLayout({
        label: 'EmitPass.pipelineLayout',
        bindGroupLayouts: [particles.bindGroupLayout, layout, frameLayout],
      }),
      compute: {
        module: device.createShaderModule({ label: 'emit.wgsl', code: lifecycleShaders.emit() }),
        entryPoint: 'main',
        constants: { WORKGROUP_SIZE: workgroupSize, CAPACITY: buffers.capacity },
      },
    });
    const resources = [
      buffers.life,
      buffers.lists,
      buffers.freeList,
      buffers.deaths,
      buffers.counters,
      buffers.ruleStats,
      buffers.rules,
    ];
    const bindGroup = device.createBindGroup({
      label: 'EmitPass.bindGroup',
      layout,
      entries: resources.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    const frameGroup = device.createBindGroup({
      label: 'EmitPass.frameBindGroup',
      layout: frameLayout,
      entries: [{ binding: 0, resource: buffers.frameBinding }],
    });
    return new EmitPass(pipeline, particles, buffers, bindGroup, frameGroup);
  }

  /** Into a compute pass the caller opened, after planEmit. */
  record(pass: GPUComputePassEncoder, frameOffset: number): void {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.bindGroup);
    pass.setBindGroup(2, this.frameGroup, [frameOffset]);
    pass.dispatchWorkgroupsIndirect(this.buffers.args, ARGS.emit * 4);
  }

  /** Nothing of its own to free. Safe twice. */
  destroy(): void {}
}
