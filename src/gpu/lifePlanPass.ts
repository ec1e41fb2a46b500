/**
 * Owns the lifecycle's bookkeeping pipelines (shaders/lifePlan.wgsl):
 * planStep (the dispatch sizes of the passes over the live list, before the
 * step) and planEmit (deaths, requests, what fits, the emission's dispatch,
 * the draw arguments, after the compaction). One invocation each.
 */
import type { LifeBuffers } from './lifeBuffers';
import { lifecycleShaders } from './lifecycleWgsl';

export class LifePlanPass {
  private constructor(
    private readonly planStep: GPUComputePipeline,
    private readonly planEmit: GPUComputePipeline,
    private readonly bindGroup: GPUBindGroup,
    private readonly frameGroup: GPUBindGroup,
  ) {}

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, buffers: LifeBuffers, workgroupSize: number): LifePlanPass {
    const storage = (type: GPUBufferBindingType) => ({ visibility: GPUShaderStage.COMPUTE, buffer: { type } });
    const layout = device.createBindGroupLayout({
      label: 'LifePlanPass.layout',
      entries: [
        { binding: 0, ...storage('storage') },
        { binding: 1, ...storage('storage') },
        { binding: 2, ...storage('read-only-storage') },
      ],
    });
    const frameLayout = device.createBindGroupLayout({
      label: 'LifePlanPass.frameLayout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } },
      ],
    });
    const pipelineLayout = device.createPipelineLayout({
      label: 'LifePlanPass.pipelineLayout',
      bindGroupLayouts: [layout, frameLayout],
    });
    const module = device.createShaderModule({ label: 'lifePlan.wgsl', code: lifecycleShaders.plan() });
    const constants = {
      CAPACITY: buffers.capacity,
      WORKGROUP_SIZE: workgroupSize,
      MAX_PER_DIMENSION: device.limits.maxComputeWorkgroupsPerDimension,
      SCAN_LEVELS: buffers.levels.length,
    };
    const pipeline = (entryPoint: string) =>
      device.createComputePipeline({
        label: `LifePlanPass.${entryPoint}`,
        layout: pipelineLayout,
        compute: { module, entryPoint, constants },
      });
    const bindGroup = device.createBindGroup({
      label: 'LifePlanPass.bindGroup',
      layout,
      entries: [
        { binding: 0, resource: { buffer: buffers.counters } },
        { binding: 1, resource: { buffer: buffers.args } },
        { binding: 2, resource: { buffer: buffers.levelInputs[buffers.levelInputs.length - 1] as GPUBuffer } },
      ],
    });
    const frameGroup = device.createBindGroup({
      label: 'LifePlanPass.frameBindGroup',
      layout: frameLayout,
      entries: [{ binding: 0, resource: buffers.frameBinding }],
    });
    return new LifePlanPass(pipeline('planStep'), pipeline('planEmit'), bindGroup, frameGroup);
  }

  /** planStep into a compute pass the caller opened, before the step's forces and integration. */
  recordStep(pass: GPUComputePassEncoder, frameOffset: number): void {
    pass.setPipeline(this.planStep);
    pass.setBindGroup(0, this.bindGroup);
    pass.setBindGroup(1, this.frameGroup, [frameOffset]);
    pass.dispatchWorkgroups(1);
  }

  /** planEmit, after the compaction. */
  recordEmit(pass: GPUComputePassEncoder, frameOffset: number): void {
    pass.setPipeline(this.planEmit);
    pass.setBindGroup(0, this.bindGroup);
    pass.setBindGroup(1, this.frameGroup, [frameOffset]);
    pass.dispatchWorkgroups(1);
  }

  /** Nothing of its own to free (the buffers are LifeBuffers'). Safe twice. */
  destroy(): void {}
}
