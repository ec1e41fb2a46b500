/**
 * Owns the step's pipeline over the live list: shaders/integrate.wgsl,
 * unchanged, composed with shaders/liveDispatch.wgsl in place of
 * shaders/dispatch.wgsl, so invocation k steps the k-th live particle, and
 * dispatched indirectly with the live count. The cost follows the live
 * count, not the capacity. Also the same with the field forces, the
 * colliders or both fused in (one pipeline per composition, as
 * IntegratePass). Used only by systems with
 * emitters; without them the system keeps IntegratePass and its direct
 * dispatch over every slot. The ageing is fused in (shaders/liveAge.wgsl):
 * group 2 is LifeBuffers' stepLayout, the live list's plus what ageing binds.
 *
 * Two walks, both recorded each step, one of them empty (planStep writes
 * their dispatches, shaders/lifePlan.wgsl): over the live list, and the
 * dense walk over every slot in slot order, which skips the slots that are
 * not live (shaders/denseDispatch.wgsl). Through the live list each lane
 * reaches its particle and life record at an address the list decides,
 * which a software adapter pays per lane and field once churn has shuffled
 * the list; when most slots are live, walking them all in order costs less.
 * The same particles get the same arithmetic and the same death bits
 * either way.
 */
import type { Variant } from '../core/variants';
import { FusedPipelineCache, type FusedStep } from './fusedPipelines';
import { Kernel, type Dispatch } from './kernel';
import { INDIRECT_ARGS } from './indirectArgs';
import type { LifeBuffers } from './lifeBuffers';
import { deathConstants } from './lifecycleKernels';
import type { ParticleBuffer } from './particleBuffer';
import { StepParams, stepConstants } from './stepParams';
import { shaders } from '../shaders';

export class LiveIntegratePass {
  private destroyed = false;
  private readonly fused: FusedPipelineCache;
  private readonly denseFused: FusedPipelineCache;
  /** The walk over the live list; null with direct dispatch, where the dense walk alone steps. */
  private readonly dispatch: Dispatch | null;
  private readonly denseDispatch: Dispatch;

  private constructor(
    device: GPUDevice,
    particles: ParticleBuffer,
    private readonly buffers: LifeBuffers,
    private readonly kernel: Kernel,
    private readonly denseKernel: Kernel,
    private readonly params: StepParams,
    constants: Record<string, number>,
    denseConstants: Record<string, number>,
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
    this.denseFused = new FusedPipelineCache(
      device,
      particles,
      'LiveIntegratePass(dense)',
      [params.layout, buffers.stepLayout],
      shaders.integrateDenseFused,
      denseConstants,
      'owner',
    );
    // Direct dispatch has no empty walk: the dense walk alone, over every slot, steps the same particles.
    this.dispatch =
      buffers.dispatchMode === 'direct' ? null : { indirect: buffers.args, offset: INDIRECT_ARGS.offsets.stepList };
    this.denseDispatch = buffers.dispatchAt(INDIRECT_ARGS.offsets.stepDense, LiveIntegratePass.denseSpan(particles));
  }

  /** The dense walk's invocations a run: a chunk's slots over chunked state (once per chunk, 'owner'), else every slot. */
  static denseSpan(particles: ParticleBuffer): number {
    return particles.chunking ? 2 ** particles.chunking.shift : particles.capacity;
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
      ...deathConstants(buffers),
      CAPACITY: buffers.capacity,
      // The collision events, when the colliders are fused in (shaders/liveAge.wgsl).
      EVENT_BITS_AT: buffers.eventBitsAt,
      // The step keeps what the ageing's death test needs (shaders/integrate.wgsl).
      AGED_AFTER: 1,
    };
    const chunk = particles.chunking ? 2 ** particles.chunking.shift : 0;
    const denseConstants = {
      ...constants,
      DENSE_SPAN: LiveIntegratePass.denseSpan(particles),
      ...(chunk > 0 ? { DENSE_CHUNK_MASK: chunk - 1 } : {}),
      // A direct dispatch covers every slot; an indirect one, sized by planStep, stops at the mark already.
      BOUND_BY_HIGH_WATER: buffers.dispatchMode === 'direct' ? 1 : 0,
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
    const denseKernel = Kernel.create(device, particles, {
      name: `LiveIntegratePass(${variant.integrator}, ${variant.damping}, dense)`,
      file: 'integrate.wgsl (dense walk)',
      code: shaders.integrateDense(),
      constants: denseConstants,
      groups: [params.layout, buffers.stepLayout],
      // Over chunked state, once per chunk, each run walking its chunk's slots (shaders/denseDispatch.wgsl).
      perChunk: 'owner',
    });
    return new LiveIntegratePass(device, particles, buffers, kernel, denseKernel, params, constants, denseConstants);
  }

  /**
   * The step's uniforms: (dt, capacity), so the kernel's guard rejects only
   * NO_PARTICLE, and whether the force accumulators are read and cleared
   * (StepParams.forceAccumulator: not when nothing wrote one since a step
   * cleared them; the emission writes them +0).
   */
  private stepGroup(dt: number, accumulator = true): { group: GPUBindGroup; offsets: number[] } {
    return { group: this.params.bindGroup, offsets: [this.params.offsetFor(dt, this.buffers.capacity, accumulator)] };
  }

  /**
   * One step of `dt` over the live particles, into a compute pass the caller
   * opened (after planStep); `accumulator` false when no accumulator can hold
   * a force (ParticleSystem knows).
   */
  record(pass: GPUComputePassEncoder, dt: number, accumulator = true): void {
    const step = this.stepGroup(dt, accumulator);
    if (this.dispatch) this.kernel.record(pass, [step, this.buffers.stepBindGroup], this.dispatch);
    this.denseKernel.record(pass, [step, this.buffers.denseStepBindGroup], this.denseDispatch);
  }

  /**
   * The same step with work fused in: the field forces (Cyclone's order: they
   * accumulate, then the step integrates), the colliders, which the step
   * resolves where it leaves each particle, as the colliders pass would after
   * it, and whose touches the ageing turns into collision events
   * (shaders/liveAge.wgsl), or both (the colliders' table then in the forces'
   * group: the live step's own groups leave room for one more of WebGPU's four).
   */
  recordFused(pass: GPUComputePassEncoder, dt: number, fusion: FusedStep): void {
    const step = this.stepGroup(dt, fusion.accumulator);
    if (this.dispatch) {
      const groups = [step, this.buffers.stepBindGroup, ...this.fused.bindings(fusion)];
      this.fused.get(fusion).record(pass, groups, this.dispatch);
    }
    const groups = [step, this.buffers.denseStepBindGroup, ...this.denseFused.bindings(fusion)];
    this.denseFused.get(fusion).record(pass, groups, this.denseDispatch);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
  }
}
