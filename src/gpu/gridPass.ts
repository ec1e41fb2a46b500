/**
 * Owns the uniform grid (shaders/grid.wgsl and its scan): the buffers and the
 * pipelines that rebuild it every step as a counting sort of the particles by
 * (bucket, index). The contact passes read its starts, entries and cells.
 */
import { bucketCount } from '../core/collisions/grid';
import { Kernel } from './kernel';
import type { ParticleBuffer } from './particleBuffer';
import { shaders } from '../shaders';
import { ScanPass } from './scanPass';
import { GRID_PARAMS } from './passParams';
import { UniformRing } from './uniformRing';

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
  private readonly block = GRID_PARAMS.value();
  private readonly bindGroup: GPUBindGroup;
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly assign: Kernel,
    private readonly scatter: Kernel,
    private readonly sortBuckets: Kernel,
  ) {
    const capacity = particles.capacity;
    this.buckets = bucketCount(capacity);
    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.starts = device.createBuffer({ label: 'GridPass.starts', size: (this.buckets + 4) * 4, usage: storage });
    this.cursors = device.createBuffer({ label: 'GridPass.cursors', size: this.buckets * 4, usage: storage });
    this.entries = device.createBuffer({ label: 'GridPass.entries', size: Math.max(capacity, 4) * 4, usage: storage });
    this.cells = device.createBuffer({ label: 'GridPass.cells', size: capacity * 16, usage: storage });
    this.scan = ScanPass.create(device, this.starts, this.buckets + 1, 'GridPass.scan');
    this.params = new UniformRing(device, 'GridPass.params', GRID_PARAMS.size, particles.submissions);
    this.bindGroup = assign.bindGroup(
      0,
      [this.params.binding, this.starts, this.cursors, this.entries, this.cells],
      'GridPass.bindGroup',
    );
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number): GridPass {
    const assign = Kernel.create(device, particles, {
      name: 'GridPass.assign',
      file: 'grid.wgsl',
      code: shaders.grid(),
      entryPoint: 'assign',
      constants: { WORKGROUP_SIZE: workgroupSize },
      // params; starts, cursors, entries, cells.
      groups: [['uniform-dynamic', 'storage', 'storage', 'storage', 'storage']],
    });
    const variant = (entryPoint: string) =>
      assign.variant({ name: `GridPass.${entryPoint}`, entryPoint, constants: { WORKGROUP_SIZE: workgroupSize } });
    return new GridPass(device, particles, assign, variant('scatter'), variant('sortBuckets'));
  }

  /** Records a rebuild of the grid over particles [0, count). */
  encode(encoder: GPUCommandEncoder, count: number, inverseCellSize: number): void {
    const block = this.block
      .set('count', count)
      .set('bucketMask', this.buckets - 1)
      .set('inverseCellSize', inverseCellSize)
      .set('bucketCount', this.buckets);
    const groups = [{ group: this.bindGroup, offsets: [this.params.offsetFor(block.bytes)] }];
    encoder.clearBuffer(this.starts);
    encoder.clearBuffer(this.cursors);
    let pass = encoder.beginComputePass({ label: 'GridPass.assign' });
    this.assign.record(pass, groups, { count });
    pass.end();
    this.scan.encode(encoder);
    pass = encoder.beginComputePass({ label: 'GridPass.scatter' });
    this.scatter.record(pass, groups, { count });
    this.sortBuckets.record(pass, groups, { count: this.buckets });
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
