/**
 * The step's uniform (`StepParams` of shaders/step/integrate.wgsl: dt, count), the
 * health record bound beside it, and its override constants, shared by the step passes over every slot
 * (IntegratePass) and over the live list (LiveIntegratePass).
 *
 * `dt` and the count live in a ring of uniform slots addressed by dynamic
 * offset, one slot per distinct (dt, count), so several steps of different
 * `dt` can be recorded into one command buffer before it is submitted.
 */
import type { Variant } from '../../core/variants';
import type { ParticleBuffer } from '../shared/particleBuffer';
import { STEP_PARAMS } from '../../shaders/params';
import { computeLayout } from '../shared/kernel';
import { UniformRing } from '../shared/uniformRing';

/** The DAMPING_MODE override of shaders/step/integrate.wgsl for each damping mode; every step pipeline uses this one table. */
export const DAMPING_MODE_CONSTANT = { 'per-second': 0, 'per-step': 1, off: 2 } as const;

/** The override constants of shaders/step/integrate.wgsl for `variant`. */
export function stepConstants(variant: Variant, workgroupSize: number): Record<string, number> {
  return {
    WORKGROUP_SIZE: workgroupSize,
    SEMI_IMPLICIT: variant.integrator === 'semi-implicit' ? 1 : 0,
    DAMPING_MODE: DAMPING_MODE_CONSTANT[variant.damping],
  };
}

export class StepParams {
  readonly layout: GPUBindGroupLayout;
  readonly bindGroup: GPUBindGroup;
  private readonly ring: UniformRing;
  private readonly block = STEP_PARAMS.value();

  constructor(device: GPUDevice, label: string, particles: ParticleBuffer) {
    // The health record (src/gpu/shared/health.ts) after the params: the step counts particles it takes non-finite.
    this.layout = computeLayout(device, `${label}.paramsLayout`, ['uniform-dynamic', 'storage']);
    this.ring = new UniformRing(device, `${label}.params`, STEP_PARAMS.size, particles.submissions);
    this.bindGroup = device.createBindGroup({
      label: `${label}.paramsBindGroup`,
      layout: this.layout,
      entries: [
        { binding: 0, resource: this.ring.binding },
        { binding: 1, resource: { buffer: particles.health.buffer } },
      ],
    });
  }

  /**
   * The dynamic offset of the slot holding (dt, count, whether to read the
   * force accumulator), written on first use.
   */
  offsetFor(dt: number, count: number, forceAccumulator = true): number {
    const block = this.block
      .set('dt', dt)
      .set('count', count)
      .set('forceAccumulator', forceAccumulator ? 1 : 0);
    return this.ring.offsetFor(block.bytes);
  }

  destroy(): void {
    this.ring.destroy();
  }
}
