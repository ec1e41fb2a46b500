/**
 * Owns the step's pipeline of a system with emitters: shaders/step/integrate.wgsl,
 * unchanged, composed with shaders/step/denseDispatch.wgsl in place of
 * shaders/shared/dispatch.wgsl, so invocation i steps slot i if it is live: one
 * invocation a slot, in slot order, the slots at or past the high-water
 * mark and those not live returning at once. Also the same with the field
 * forces, the colliders or both fused in (one pipeline per composition, as
 * IntegratePass). Used only by systems with emitters; without them the
 * system keeps IntegratePass. The ageing is fused in (shaders/step/liveAge.wgsl):
 * group 2 is LifeBuffers' stepLayout, the inverse map `liveIndexOf` (a live
 * slot's death bit is its live index's) and what ageing binds.
 */
import type { Variant } from '../../core/variants';
import { FusedPipelineCache, type FusedStep } from './fusedPipelines';
import { Kernel, type Dispatch } from '../shared/kernel';
import type { LifeBuffers } from '../lifecycle/lifeBuffers';
import { deathConstants } from '../lifecycle/lifecycleKernels';
import type { ParticleBuffer } from '../shared/particleBuffer';
import { StepParams, stepConstants } from './stepParams';
import { shaders } from '../../shaders';

export class LiveIntegratePass {
  private destroyed = false;
  private readonly fused: FusedPipelineCache;
  private readonly dispatch: Dispatch;

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
      shaders.integrateDenseFused,
      constants,
      'owner',
    );
    this.dispatch = { count: LiveIntegratePass.denseSpan(particles) };
  }

  /** The step's invocations a run: a chunk's slots over chunked state (once per chunk, 'owner'), else every slot. */
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
      // The collision events, when the colliders are fused in (shaders/step/liveAge.wgsl).
      EVENT_BITS_AT: buffers.eventBitsAt,
      // The step keeps what the ageing's death test needs (shaders/step/integrate.wgsl).
      AGED_AFTER: 1,
    };
    const chunk = particles.chunking ? 2 ** particles.chunking.shift : 0;
    const walk = {
      ...constants,
      DENSE_SPAN: LiveIntegratePass.denseSpan(particles),
      ...(chunk > 0 ? { DENSE_CHUNK_MASK: chunk - 1 } : {}),
    };
    const kernel = Kernel.create(device, particles, {
      name: `LiveIntegratePass(${variant.integrator}, ${variant.damping})`,
      file: 'integrate.wgsl (every slot)',
      code: (store) => shaders.integrateDense(store),
      constants: walk,
      groups: [params.layout, buffers.stepLayout],
      // Over chunked state, once per chunk, each run walking its chunk's slots (shaders/step/denseDispatch.wgsl).
      perChunk: 'owner',
    });
    return new LiveIntegratePass(device, particles, buffers, kernel, params, walk);
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
   * opened; `accumulator` false when no accumulator can hold
   * a force (ParticleSystem knows).
   */
  record(pass: GPUComputePassEncoder, dt: number, accumulator = true): void {
    const step = this.stepGroup(dt, accumulator);
    this.kernel.record(pass, [step, this.buffers.stepBindGroup], this.dispatch);
  }

  /**
   * The same step with work fused in: the field forces (Cyclone's order: they
   * accumulate, then the step integrates), the colliders, which the step
   * resolves where it leaves each particle, as the colliders pass would after
   * it, and whose touches the ageing turns into collision events
   * (shaders/step/liveAge.wgsl), or both (the colliders' table then in the forces'
   * group: the live step's own groups leave room for one more of WebGPU's four).
   */
  recordFused(pass: GPUComputePassEncoder, dt: number, fusion: FusedStep): void {
    const step = this.stepGroup(dt, fusion.accumulator);
    const groups = [step, this.buffers.stepBindGroup, ...this.fused.bindings(fusion)];
    this.fused.get(fusion).record(pass, groups, this.dispatch);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
  }
}
