/**
 * Owns the step's pipeline over the live list: shaders/integrate.wgsl,
 * unchanged, composed with shaders/liveDispatch.wgsl in place of
 * shaders/dispatch.wgsl, so invocation k steps the k-th live particle, and
 * dispatched indirectly with the live count. The cost follows the live
 * count, not the capacity. Also the same with the field forces fused in
 * (one pipeline per composition, as IntegratePass). Used only by systems with
 * emitters; without them the system keeps IntegratePass and its direct
 * dispatch over every slot. The ageing is fused in (shaders/liveAge.wgsl):
 * group 2 is LifeBuffers' stepLayout, the live list's plus what ageing binds.
 */
import type { Variant } from '../core/variants';
import type { FusedForces } from './forcesPass';
import { FusedPipelineCache } from './fusedPipelines';
import { Kernel } from './kernel';
import { INDIRECT_ARGS } from './indirectArgs';
import type { LifeBuffers } from './lifeBuffers';
import type { ParticleBuffer } from './particleBuffer';
import { StepParams, stepConstants } from './stepParams';
import { shaders } from '../shaders';

export class LiveIntegratePass {
  private destroyed = false;
  private readonly fused: FusedPipelineCache;
  private readonly dispatch: { readonly indirect: GPUBuffer; readonly offset: number };

  private constructor(
    device: GPUDevice,
    particles: ParticleBuffer,
    private readonly buffers: LifeBuffers,
    private readonly kernel: Kernel,
    private readonly params: StepParams,
    constants: Record<string, number>,
  ) {
    this.fused = new FusedPipelineCache(
      device,
      particles,
      'LiveIntegratePass',
      [params.layout, buffers.stepLayout],
      shaders.integrateLiveFused,
      constants,
      'owner',
    );
    this.dispatch = { indirect: buffers.args, offset: INDIRECT_ARGS.offsets.live };
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
    const constants = {
      ...stepConstants(variant, workgroupSize),
      ...particles.health.constants,
      CAPACITY: buffers.capacity,
    };
    const kernel = Kernel.create(device, particles, {
      name: `LiveIntegratePass(${variant.integrator}, ${variant.damping})`,
      file: 'integrate.wgsl (live list)',
      code: shaders.integrateLive(),
      constants,
      groups: [params.layout, buffers.stepLayout],
      // Over chunked state, once per chunk, each run stepping its chunk's live particles (shaders/liveDispatch.wgsl).
      perChunk: 'owner',
    });
    return new LiveIntegratePass(device, particles, buffers, kernel, params, constants);
  }

  /** The step's uniforms: (dt, capacity), so the kernel's guard rejects only NO_PARTICLE. */
  private stepGroup(dt: number): { group: GPUBindGroup; offsets: number[] } {
    return { group: this.params.bindGroup, offsets: [this.params.offsetFor(dt, this.buffers.capacity)] };
  }

  /** One step of `dt` over the live particles, into a compute pass the caller opened (after planStep). */
  record(pass: GPUComputePassEncoder, dt: number): void {
    this.kernel.record(pass, [this.stepGroup(dt), this.buffers.stepBindGroup], this.dispatch);
  }

  /** The same step with the field forces fused in (Cyclone's order: they accumulate, then the step integrates). */
  recordWithForces(pass: GPUComputePassEncoder, dt: number, forces: FusedForces): void {
    const fusion = { forces, colliders: null, accumulator: true };
    const groups = [this.stepGroup(dt), this.buffers.stepBindGroup, ...FusedPipelineCache.bindings(fusion)];
    this.fused.get(fusion).record(pass, groups, this.dispatch);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
  }
}
