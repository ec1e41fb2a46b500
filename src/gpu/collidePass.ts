/**
 * Owns the colliders pass (shaders/collide.wgsl): every particle against
 * every collider, after the step; its APPLY_DELTAS variant also ends each
 * contact-resolver iteration by applying that iteration's corrections.
 */
import { dispatchSize } from './dispatch';
import type { ParticleBuffer } from './particleBuffer';
import { collisionShaders } from './collisionWgsl';
import { UNIFORM_DYNAMIC, UniformRing } from './uniformRing';

const PARAMS_BYTES = 16;

export interface CollideStep {
  count: number;
  colliderCount: number;
  dt: number;
  skin: number;
}

export class CollidePass {
  private readonly params: UniformRing;
  private bindGroup: GPUBindGroup | null = null;
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly layout: GPUBindGroupLayout,
    private readonly plain: GPUComputePipeline,
    private readonly applying: GPUComputePipeline,
    readonly workgroupSize: number,
  ) {
    this.params = new UniformRing(device, 'CollidePass.params', PARAMS_BYTES, particles.submissions);
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number): CollidePass {
    const layout = device.createBindGroupLayout({
      label: 'CollidePass.layout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: UNIFORM_DYNAMIC },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
        { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
      ],
    });
    const pipelineLayout = device.createPipelineLayout({
      label: 'CollidePass.pipelineLayout',
      bindGroupLayouts: [particles.bindGroupLayout, layout],
    });
    const module = device.createShaderModule({ label: 'collide.wgsl', code: collisionShaders.collide() });
    const pipeline = (applyDeltas: boolean) =>
      device.createComputePipeline({
        label: applyDeltas ? 'CollidePass.pipeline(apply deltas)' : 'CollidePass.pipeline',
        layout: pipelineLayout,
        compute: {
          module,
          entryPoint: 'main',
          constants: { WORKGROUP_SIZE: workgroupSize, APPLY_DELTAS: applyDeltas ? 1 : 0 },
        },
      });
    return new CollidePass(device, particles, layout, pipeline(false), pipeline(true), workgroupSize);
  }

  /** Binds the collider records and the resolver's corrections (the orchestrator owns both). */
  bind(colliders: GPUBuffer, deltas: GPUBuffer): void {
    this.bindGroup = this.device.createBindGroup({
      label: 'CollidePass.bindGroup',
      layout: this.layout,
      entries: [
        { binding: 0, resource: this.params.binding },
        { binding: 1, resource: { buffer: colliders } },
        { binding: 2, resource: { buffer: deltas } },
      ],
    });
  }

  /** Records one colliders pass over particles [0, step.count); with `applyDeltas`, the resolver's corrections first. */
  encode(encoder: GPUCommandEncoder, step: CollideStep, applyDeltas: boolean): void {
    if (!this.bindGroup) throw new Error('CollidePass.encode before bind()');
    const data = new ArrayBuffer(PARAMS_BYTES);
    new Uint32Array(data, 0, 2).set([step.count, step.colliderCount]);
    new Float32Array(data, 8, 2).set([step.dt, step.skin]);
    const offset = this.params.offsetFor(data);
    const [x, y] = dispatchSize(step.count, this.workgroupSize, this.device.limits.maxComputeWorkgroupsPerDimension);
    const pass = encoder.beginComputePass({ label: applyDeltas ? 'CollidePass(apply deltas)' : 'CollidePass' });
    pass.setPipeline(applyDeltas ? this.applying : this.plain);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.bindGroup, [offset]);
    pass.dispatchWorkgroups(x, y);
    pass.end();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
  }
}
