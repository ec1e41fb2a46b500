/**
 * Owns the integration step's pipelines: shaders/step/integrate.wgsl specialised
 * for one variant through override constants, plain, and with the field
 * forces of a registry composition, the colliders of a collider composition
 * or both fused in, with or without the force accumulator, with or without
 * the acceleration|radius lane (one pipeline per combination, made on first
 * use and cached: src/gpu/step/fusedPipelines.ts).
 */
import type { Variant } from '../../core/variants';
import { FusedPipelineCache, type FusedStep } from './fusedPipelines';
import { Kernel } from '../shared/kernel';
import type { ParticleBuffer } from '../shared/particleBuffer';
import { StepParams, stepConstants } from './stepParams';
import { shaders } from '../../shaders';

export class IntegratePass {
  private destroyed = false;
  private readonly fused: FusedPipelineCache;
  /** The plain step without the acceleration|radius lane, made on first use. */
  private withoutAccelerationLane: Kernel | null = null;

  private constructor(
    device: GPUDevice,
    particles: ParticleBuffer,
    private readonly kernel: Kernel,
    private readonly params: StepParams,
    private readonly constants: Record<string, number>,
    readonly workgroupSize: number,
  ) {
    this.fused = new FusedPipelineCache(
      device,
      particles,
      'IntegratePass',
      [params.layout],
      shaders.integrateFused,
      constants,
      true,
    );
  }

  static async create(
    device: GPUDevice,
    particles: ParticleBuffer,
    variant: Variant,
    workgroupSize: number,
  ): Promise<IntegratePass> {
    const params = new StepParams(device, 'IntegratePass', particles);
    const constants = { ...stepConstants(variant, workgroupSize), ...particles.health.constants };
    // Created synchronously: the caller's error scopes catch any failure.
    const kernel = Kernel.create(device, particles, {
      name: `IntegratePass(${variant.integrator}, ${variant.damping})`,
      file: 'integrate.wgsl',
      code: (store) => shaders.integrate(store),
      constants,
      groups: [params.layout],
      // Over every slot, each touching its own: chunk by chunk over a chunked system.
      perChunk: true,
    });
    return new IntegratePass(device, particles, kernel, params, constants, workgroupSize);
  }

  /**
   * Records `steps` steps with `fusion` fused in (field forces, then the
   * step, then the colliders: Cyclone's order and the colliders pass's) into
   * a compute pass the caller opened. The pipeline made at creation when
   * nothing is fused.
   */
  recordFused(pass: GPUComputePassEncoder, dt: number, count: number, fusion: FusedStep, steps = 1): void {
    const offset = this.params.offsetFor(dt, count, fusion.accumulator);
    const params = { group: this.params.bindGroup, offsets: [offset] };
    // One dispatch per step; dispatches in one pass are ordered for storage writes.
    if (!fusion.forces && !fusion.colliders) {
      const kernel = fusion.accelerationLane === false ? this.plainWithoutAccelerationLane() : this.kernel;
      kernel.record(pass, [params], { count }, steps);
      return;
    }
    const groups = [params, ...this.fused.bindings(fusion)];
    this.fused.get(fusion).record(pass, groups, { count }, steps);
  }

  /** Created synchronously on first use: the caller's error scopes catch any failure. */
  private plainWithoutAccelerationLane(): Kernel {
    this.withoutAccelerationLane ??= this.kernel.variant({
      name: `${this.kernel.name}(no acceleration lane)`,
      constants: { ...this.constants, ACCELERATION_LANE: 0 },
    });
    return this.withoutAccelerationLane;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
  }
}
