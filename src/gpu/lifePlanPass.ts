/**
 * Owns the lifecycle's bookkeeping pipelines (shaders/lifePlan.wgsl):
 * planStep (the dispatch sizes of the passes over the live list, before the
 * step; one invocation) and planEmit (deaths, requests, what fits, the
 * emission's dispatch, the draw arguments), which runs in the pass of the
 * deaths' scan's top level, one workgroup, before the compaction. planStep
 * also picks the step's walk (src/gpu/liveIntegratePass.ts): the dense walk in
 * slot order over the slots below the high-water mark once 2/3 of those are
 * live (or, `denseFrom` given, from that many live particles on), else the
 * walk over the live list.
 */
import type { LifeBuffers } from './lifeBuffers';
import { Kernel } from './kernel';
import { shaders } from '../shaders';

export class LifePlanPass {
  private constructor(
    private readonly planStep: Kernel,
    /** The scan's top level and planEmit (scanTopAndPlanEmit). */
    private readonly topAndEmit: Kernel,
    private readonly bindGroup: GPUBindGroup,
    private readonly frameGroup: GPUBindGroup,
    /** Direct dispatch: planStep is not recorded (recordStep). */
    private readonly direct: boolean,
  ) {}

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(
    device: GPUDevice,
    buffers: LifeBuffers,
    workgroupSize: number,
    /** denseFrom null: the dense walk once all but 1/denseDivisor of the slots below the high-water mark are live. */
    walk: { denseSpan: number; denseFrom: number | null; denseDivisor: number },
  ): LifePlanPass {
    const constants = {
      CAPACITY: buffers.capacity,
      WORKGROUP_SIZE: workgroupSize,
      MAX_PER_DIMENSION: device.limits.maxComputeWorkgroupsPerDimension,
      SCAN_LEVELS: buffers.levels.length,
      DENSE_SPAN: walk.denseSpan,
      DENSE_BY_HIGH_WATER: walk.denseFrom === null ? 1 : 0,
      DENSE_WALK_DIVISOR: walk.denseDivisor,
      // An override is a u32: past the capacity, never.
      DENSE_FROM: Math.min(walk.denseFrom ?? 0, 0xffffffff),
      STEP_COUNTED_BY_PLAN_EMIT: buffers.dispatchMode === 'direct' ? 1 : 0,
    };
    const planStep = Kernel.create(device, null, {
      name: 'LifePlanPass.planStep',
      file: 'lifePlan.wgsl',
      code: shaders.lifePlan(),
      entryPoint: 'planStep',
      constants,
      particles: false,
      // counters, dispatch and draw arguments, the high-water mark, the scan's top level (its items and their
      // scan); the frame's uniforms.
      groups: [['storage', 'storage', 'read-only-storage', 'read-only-storage', 'storage'], ['uniform-dynamic']],
    });
    const topAndEmit = planStep.variant({
      name: 'LifePlanPass.scanTopAndPlanEmit',
      entryPoint: 'scanTopAndPlanEmit',
      constants,
    });
    const top = buffers.levels.length - 1;
    // The block sums of the level below (there are always two levels at least: src/gpu/lifeBuffers.ts, scanLevels).
    const topInput = buffers.levelInputs[top - 1] as GPUBuffer;
    const bindGroup = planStep.bindGroup(
      0,
      [buffers.counters, buffers.args, buffers.highWater, topInput, buffers.levelOutputs[top] as GPUBufferBinding],
      'LifePlanPass.bindGroup',
    );
    const frameGroup = planStep.bindGroup(1, [buffers.frameBinding], 'LifePlanPass.frameBindGroup');
    return new LifePlanPass(planStep, topAndEmit, bindGroup, frameGroup, buffers.dispatchMode === 'direct');
  }

  /**
   * planStep into a compute pass the caller opened, before the step's forces
   * and integration. Not with direct dispatch: no pass reads its arguments
   * there, and planEmit counts the step (on a GPU each dispatch of a frame's
   * chain costs microseconds, whatever it does).
   */
  recordStep(pass: GPUComputePassEncoder, frameOffset: number): void {
    if (this.direct) return;
    this.planStep.record(pass, [this.bindGroup, { group: this.frameGroup, offsets: [frameOffset] }], { count: 1 });
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
