/**
 * Owns the colliders pass (shaders/collisions/collide.wgsl): every particle against
 * every collider, after the step; its APPLY_DELTAS variant also ends each
 * contact-resolver iteration by applying that iteration's corrections.
 */
import { Kernel } from '../shared/kernel';
import type { ParticleBuffer } from '../shared/particleBuffer';
import { shaders } from '../../shaders';
import { COLLIDE_PARAMS } from '../../shaders/params';
import { UniformRing } from '../shared/uniformRing';

export interface CollideStep {
  count: number;
  colliderCount: number;
  dt: number;
  skin: number;
}

/** The colliders pass's variants: after the step, and the contact iterations' apply pass with colliders or without. */
type CollideKernel = 'plain' | 'applying' | 'applyingOnly';

export class CollidePass {
  private readonly params: UniformRing;
  private readonly block = COLLIDE_PARAMS.value();
  private bindGroup: GPUBindGroup | null = null;
  /** Where the contact resolver's position copy starts in the bound deltas, in vec4 (0: none). */
  private positionCopy = 0;
  private destroyed = false;

  private readonly health: GPUBuffer;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly plain: Kernel,
    private readonly applying: Kernel,
    /** The apply pass of a world without colliders: the collider loop compiled out. */
    private readonly applyingOnly: Kernel,
    private readonly workgroupSize: number,
  ) {
    this.params = new UniformRing(device, 'CollidePass.params', COLLIDE_PARAMS.size, particles.submissions);
    this.health = particles.health.buffer;
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number): CollidePass {
    const plain = Kernel.create(device, particles, {
      name: 'CollidePass',
      file: 'collide.wgsl',
      code: (store) => shaders.collide(store),
      constants: { WORKGROUP_SIZE: workgroupSize, APPLY_DELTAS: 0, ...particles.health.constants },
      // Binding 3: the health record (src/gpu/shared/health.ts).
      groups: [['uniform-dynamic', 'read-only-storage', 'storage', 'storage']],
      // Each invocation moves its own particle only: chunk by chunk over a chunked system.
      perChunk: true,
    });
    const applying = plain.variant({
      name: 'CollidePass(apply deltas)',
      constants: { WORKGROUP_SIZE: workgroupSize, APPLY_DELTAS: 1, ...particles.health.constants },
    });
    const applyingOnly = plain.variant({
      name: 'CollidePass(apply deltas, no colliders)',
      constants: { WORKGROUP_SIZE: workgroupSize, APPLY_DELTAS: 1, COLLIDERS: 0, ...particles.health.constants },
    });
    return new CollidePass(device, particles, plain, applying, applyingOnly, workgroupSize);
  }

  /**
   * Binds the collider records and the resolver's corrections (the
   * orchestrator owns both), with where the resolver's position copy starts in
   * them (ContactPass.positionCopy; 0: none), which applying them updates.
   */
  bind(colliders: GPUBuffer, deltas: GPUBuffer, positionCopy = 0): void {
    this.positionCopy = positionCopy;
    this.resources = [this.params.binding, colliders, deltas, this.health];
    this.bindGroup = this.plain.bindGroup(0, this.resources, 'CollidePass.bindGroup');
  }
  private resources: readonly (GPUBuffer | GPUBufferBinding)[] = [];

  /** Which variant a pass takes: after the step, or applying the resolver's corrections (with colliders or none). */
  private kernelOf(step: CollideStep, applyDeltas: boolean): CollideKernel {
    return applyDeltas ? (step.colliderCount > 0 ? 'applying' : 'applyingOnly') : 'plain';
  }

  /** The bound group and the uniform slot of `step`'s parameters. */
  private prepared(step: CollideStep): { bindGroup: GPUBindGroup; offset: number } {
    if (!this.bindGroup) throw new Error('CollidePass.encode before bind()');
    const block = this.block
      .set('count', step.count)
      .set('colliderCount', step.colliderCount)
      .set('dt', step.dt)
      .set('skin', step.skin)
      .set('positionCopy', this.positionCopy);
    return { bindGroup: this.bindGroup, offset: this.params.offsetFor(block.bytes) };
  }

  /** Records one colliders pass over particles [0, step.count); with `applyDeltas`, the resolver's corrections first. */
  encode(encoder: GPUCommandEncoder, step: CollideStep, applyDeltas: boolean): void {
    const { bindGroup, offset } = this.prepared(step);
    const pass = encoder.beginComputePass({ label: applyDeltas ? 'CollidePass(apply deltas)' : 'CollidePass' });
    this[this.kernelOf(step, applyDeltas)].record(pass, [{ group: bindGroup, offsets: [offset] }], {
      count: step.count,
    });
    pass.end();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
  }
}
