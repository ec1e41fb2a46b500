/**
 * Owns the compaction pipeline (shaders/compact.wgsl): survivors into the
 * other live list, deaths onto the free list and into the deaths buffer, by
 * the scan's prefix sums. Dispatched indirectly like the ageing.
 */
import { ARGS } from './lifecycleWgsl';
import type { LifeBuffers } from './lifeBuffers';
import type { ParticleBuffer } from './particleBuffer';
import { lifecycleShaders } from './lifecycleWgsl';

export class CompactPass {
  private constructor(
    private readonly pipeline: GPUComputePipeline,
    private readonly particles: ParticleBuffer,
    private readonly buffers: LifeBuffers,
    private readonly bindGroup: GPUBindGroup,
  ) {}

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(
    device: GPUDevice,
    particles: ParticleBuffer,
    buffers: LifeBuffers,
    workgroupSize: number,
  ): CompactPass {
    const types: GPUBufferBindingType[] = [
      'storage', // life
      'storage', // lists
      'storage', // freeList
      'read-only-storage', // scanned
      'storage', // deaths
      'read-only-storage', // counters
      'storage', // ruleStats
    ];
    const layout = device.createBindGroupLayout({
      label: 'CompactPass.layout',
      entries: types.map((type, binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } })),
    });
    const pipeline = device.createComputePipeline({
      label: 'CompactPass.pipeline',
      layout: device.createPipelineLayout({
        label: 'CompactPass.pipelineLayout',
        bindGroupLayouts: [particles.bindGroupLayout, layout],
      }),
      compute: {
        module: device.createShaderModule({ label: 'compact.wgsl', code: lifecycleShaders.compact() }),
        entryPoint: 'main',
        constants: {
          WORKGROUP_SIZE: workgroupSize,
          CAPACITY: buffers.capacity,
          HAS_PAYLOADS: buffers.lifecycle.rules.hasPayloads ? 1 : 0,
          LEVEL1_AT: buffers.level1At,
        },
      },
    });
    const resources = [
      buffers.life,
      buffers.lists,
      buffers.freeList,
      buffers.scanned,
      buffers.deaths,
      buffers.counters,
      buffers.ruleStats,
    ];
    const bindGroup = device.createBindGroup({
      label: 'CompactPass.bindGroup',
      layout,
      entries: resources.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    return new CompactPass(pipeline, particles, buffers, bindGroup);
  }

  /** Into a compute pass the caller opened, after the scan. */
  record(pass: GPUComputePassEncoder): void {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.bindGroup);
    pass.dispatchWorkgroupsIndirect(this.buffers.args, ARGS.live * 4);
  }

  /** Nothing of its own to free. Safe twice. */
  destroy(): void {}
}
