/**
 * Owns the uniform grid (shaders/grid.wgsl and its scan): the buffers and the
 * pipelines that rebuild it every step as a counting sort of the particles by
 * (bucket, index). The contact passes read its starts, entries and cells.
 */
import { bucketCount } from '../core/collisions/grid';
import { dispatchSize } from './dispatch';
import type { ParticleBuffer } from './particleBuffer';
import { collisionShaders } from './collisionWgsl';
import { ScanPass } from './scanPass';
import { UNIFORM_DYNAMIC, UniformRing } from './uniformRing';

const PARAMS_BYTES = 16;

export class GridPass {
  /** Bucket counts, then bucket starts (bucketCount + 1 entries, padded). */
  readonly starts: GPUBuffer;
  readonly cursors: GPUBuffer;
  /** Particle indices sorted by (bucket, index). */
  readonly entries: GPUBuffer;
  /** Per particle: cell xyz and bucket (-1: not in the grid). */
  readonly cells: GPUBuffer;
  readonly buckets: number;
  private readonly scan: ScanPass;
  private readonly params: UniformRing;
  private readonly bindGroup: GPUBindGroup;
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly assign: GPUComputePipeline,
    private readonly scatter: GPUComputePipeline,
    private readonly sortBuckets: GPUComputePipeline,
    layout: GPUBindGroupLayout,
    private readonly workgroupSize: number,
  ) {
    const capacity = particles.capacity;
    this.buckets = bucketCount(capacity);
    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.starts = device.createBuffer({ label: 'GridPass.starts', size: (this.buckets + 4) * 4, usage: storage });
    this.cursors = device.createBuffer({ label: 'GridPass.cursors', size: this.buckets * 4, usage: storage });
    this.entries = device.createBuffer({ label: 'GridPass.entries', size: Math.max(capacity, 4) * 4, usage: storage });
    this.cells = device.createBuffer({ label: 'GridPass.cells', size: capacity * 16, usage: storage });
    this.scan = ScanPass.create(device, this.starts, this.buckets + 1, 'GridPass.scan');
    this.params = new UniformRing(device, 'GridPass.params', PARAMS_BYTES, particles.submissions);
    this.bindGroup = device.createBindGroup({
      label: 'GridPass.bindGroup',
      layout,
      entries: [
        { binding: 0, resource: this.params.binding },
        { binding: 1, resource: { buffer: this.starts } },
        { binding: 2, resource: { buffer: this.cursors } },
        { binding: 3, resource: { buffer: this.entries } },
        { binding: 4, resource: { buffer: this.cells } },
      ],
    });
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number): GridPass {
    const storage = (binding: number): GPUBindGroupLayoutEntry => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type: 'storage' },
    });
    const layout = device.createBindGroupLayout({
      label: 'GridPass.layout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: UNIFORM_DYNAMIC },
        storage(1),
        storage(2),
        storage(3),
        storage(4),
      ],
    });
    const pipelineLayout = device.createPipelineLayout({
      label: 'GridPass.pipelineLayout',
      bindGroupLayouts: [particles.bindGroupLayout, layout],
    });
    const module = device.createShaderModule({ label: 'grid.wgsl', code: collisionShaders.grid() });
    const pipeline = (entryPoint: string) =>
      device.createComputePipeline({
        label: `GridPass.${entryPoint}`,
        layout: pipelineLayout,
        compute: { module, entryPoint, constants: { WORKGROUP_SIZE: workgroupSize } },
      });
    return new GridPass(
      device,
      particles,
      pipeline('assign'),
      pipeline('scatter'),
      pipeline('sortBuckets'),
      layout,
      workgroupSize,
    );
  }

  /** Records a rebuild of the grid over particles [0, count). */
  encode(encoder: GPUCommandEncoder, count: number, inverseCellSize: number): void {
    const data = new ArrayBuffer(PARAMS_BYTES);
    new Uint32Array(data).set([count, this.buckets - 1, 0, this.buckets]);
    new Float32Array(data, 8, 1)[0] = inverseCellSize;
    const offset = this.params.offsetFor(data);
    const max = this.device.limits.maxComputeWorkgroupsPerDimension;
    encoder.clearBuffer(this.starts);
    encoder.clearBuffer(this.cursors);
    const perParticle = dispatchSize(count, this.workgroupSize, max);
    let pass = encoder.beginComputePass({ label: 'GridPass.assign' });
    pass.setPipeline(this.assign);
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.bindGroup, [offset]);
    pass.dispatchWorkgroups(...perParticle);
    pass.end();
    this.scan.encode(encoder);
    pass = encoder.beginComputePass({ label: 'GridPass.scatter' });
    pass.setBindGroup(0, this.particles.bindGroup);
    pass.setBindGroup(1, this.bindGroup, [offset]);
    pass.setPipeline(this.scatter);
    pass.dispatchWorkgroups(...perParticle);
    pass.setPipeline(this.sortBuckets);
    pass.dispatchWorkgroups(...dispatchSize(this.buckets, this.workgroupSize, max));
    pass.end();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.scan.destroy();
    this.params.destroy();
    for (const buffer of [this.starts, this.cursors, this.entries, this.cells]) buffer.destroy();
  }
}
