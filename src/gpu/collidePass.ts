/**
 * Owns the colliders pass (shaders/collide.wgsl): every particle against
 * every collider, after the step; its APPLY_DELTAS variant also ends each
 * contact-resolver iteration by applying that iteration's corrections.
 */
import { Kernel } from './kernel';
import type { ParticleBuffer } from './particleBuffer';
import { shaders } from '../shaders';
import { COLLIDE_PARAMS } from './passParams';
import { UniformRing } from './uniformRing';

export interface CollideStep {
  count: number;
  colliderCount: number;
  dt: number;
  skin: number;
}

export class CollidePass {
  private readonly params: UniformRing;
  private readonly block = COLLIDE_PARAMS.value();
  private bindGroup: GPUBindGroup | null = null;
  private destroyed = false;

  private readonly health: GPUBuffer;

  private constructor(
    private readonly device: GPUDevice,
    particles: ParticleBuffer,
    private readonly plain: Kernel,
    private readonly applying: Kernel,
  ) {
    this.params = new UniformRing(device, 'CollidePass.params', COLLIDE_PARAMS.size, particles.submissions);
    this.health = particles.health.buffer;
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number): CollidePass {
    const plain = Kernel.create(device, particles, {
      name: 'CollidePass',
      file: 'collide.wgsl',
      code: shaders.collide(),
      constants: { WORKGROUP_SIZE: workgroupSize, APPLY_DELTAS: 0, ...particles.health.constants },
      // Binding 3: the health record (src/gpu/health.ts).
      groups: [['uniform-dynamic', 'read-only-storage', 'read-only-storage', 'storage']],
      // Each invocation moves its own particle only: chunk by chunk over a chunked system.
      perChunk: true,
    });
    const applying = plain.variant({
      name: 'CollidePass(apply deltas)',
      constants: { WORKGROUP_SIZE: workgroupSize, APPLY_DELTAS: 1, ...particles.health.constants },
    });
    return new CollidePass(device, particles, plain, applying);
  }

  /** Binds the collider records and the resolver's corrections (the orchestrator owns both). */
  bind(colliders: GPUBuffer, deltas: GPUBuffer): void {
    this.bindGroup = this.plain.bindGroup(
      0,
      [this.params.binding, colliders, deltas, this.health],
      'CollidePass.bindGroup',
    );
  }

  /** Records one colliders pass over particles [0, step.count); with `applyDeltas`, the resolver's corrections first. */
  encode(encoder: GPUCommandEncoder, step: CollideStep, applyDeltas: boolean): void {
    if (!this.bindGroup) throw new Error('CollidePass.encode before bind()');
    const block = this.block
      .set('count', step.count)
      .set('colliderCount', step.colliderCount)
      .set('dt', step.dt)
      .set('skin', step.skin);
    const offset = this.params.offsetFor(block.bytes);
    const pass = encoder.beginComputePass({ label: applyDeltas ? 'CollidePass(apply deltas)' : 'CollidePass' });
    (applyDeltas ? this.applying : this.plain).record(pass, [{ group: this.bindGroup, offsets: [offset] }], {
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
