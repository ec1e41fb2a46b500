/**
 * Owns the lifecycle's bookkeeping pipeline (shaders/lifecycle/lifePlan.wgsl):
 * planEmit (deaths, requests, what fits, the draw arguments, the step's
 * count), which runs in the pass of the deaths' scan's top level, one
 * workgroup, before the compaction.
 */
import type { LifeBuffers } from './lifeBuffers';
import { Kernel } from '../shared/kernel';
import { shaders } from '../../shaders';

export class LifePlanPass {
  private constructor(
    /** The scan's top level and planEmit (scanTopAndPlanEmit). */
    private readonly topAndEmit: Kernel,
    private readonly bindGroup: GPUBindGroup,
    private readonly frameGroup: GPUBindGroup,
  ) {}

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, buffers: LifeBuffers): LifePlanPass {
    const topAndEmit = Kernel.create(device, null, {
      name: 'LifePlanPass.scanTopAndPlanEmit',
      file: 'lifePlan.wgsl',
      code: () => shaders.lifePlan(),
      entryPoint: 'scanTopAndPlanEmit',
      constants: { CAPACITY: buffers.capacity, SCAN_LEVELS: buffers.levels.length },
      particles: false,
      // counters, draw arguments, the scan's top level (its items and their scan); the frame's uniforms.
      groups: [['storage', 'storage', 'read-only-storage', 'storage'], ['uniform-dynamic']],
    });
    const top = buffers.levels.length - 1;
    // The block sums of the level below (there are always two levels at least: src/gpu/lifecycle/lifeBuffers.ts, scanLevels).
    const topInput = buffers.levelInputs[top - 1] as GPUBuffer;
    const bindGroup = topAndEmit.bindGroup(
      0,
      [buffers.counters, buffers.args, topInput, buffers.levelOutputs[top] as GPUBufferBinding],
      'LifePlanPass.bindGroup',
    );
    const frameGroup = topAndEmit.bindGroup(1, [buffers.frameBinding], 'LifePlanPass.frameBindGroup');
    return new LifePlanPass(topAndEmit, bindGroup, frameGroup);
  }

  /**
   * The scan's top level (a single block) and planEmit, one workgroup, after
   * the levels below it (LifeScanPass.recordUp) and before the compaction.
   */
  recordTopAndEmit(pass: GPUComputePassEncoder, frameOffset: number): void {
    this.topAndEmit.record(pass, [this.bindGroup, { group: this.frameGroup, offsets: [frameOffset] }], {
      workgroups: 1,
    });
  }

  /** Nothing of its own to free (the buffers are LifeBuffers'). Safe twice. */
  destroy(): void {}
}
