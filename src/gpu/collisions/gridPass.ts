/**
 * Owns the uniform grid (shaders/collisions/grid.wgsl): the buffers and the pipelines
 * that rebuild it every step as a counting sort of the particles by
 * (bucket, index). The contact passes read its starts, entries and cells.
 */
import { bucketCount } from '../../core/collisions/grid';
import { Kernel } from '../shared/kernel';
import type { ParticleBuffer } from '../shared/particleBuffer';
import { shaders } from '../../shaders';
import { GRID_PARAMS } from '../../shaders/params';
import { UniformRing } from '../shared/uniformRing';

/** The rebuild's stages, in order. */
export const GRID_STAGES = ['clear', 'assign', 'scan', 'scatter', 'sortBuckets'] as const;
/** Counts each workgroup of the scan's first dispatch sums (SCAN_CHUNK of shaders/collisions/grid.wgsl). */
const SCAN_CHUNK = 256;
export type GridStage = (typeof GRID_STAGES)[number];

export class GridPass {
  /** Bucket starts (bucketCount + 1 entries, padded): the last is the number of particles in the grid. */
  readonly starts: GPUBuffer;
  /** Bucket counts (bucketCount + 1 entries, the last 0), then scatter's cursors. */
  readonly cursors: GPUBuffer;
  /** The scan's chunk totals. */
  private readonly chunkSums: GPUBuffer;
  /** Particle indices sorted by (bucket, index). */
  readonly entries: GPUBuffer;
  /**
   * Per particle: cell xyz and bucket (-1: not in the grid); then (from entry
   * `count` of the rebuild) the same per entry, in the entries' order.
   */
  readonly cells: GPUBuffer;
  readonly buckets: number;
  private readonly params: UniformRing;
  private readonly block = GRID_PARAMS.value();
  private readonly bindGroup: GPUBindGroup;
  private destroyed = false;

  private constructor(
    device: GPUDevice,
    particles: ParticleBuffer,
    private readonly kernels: Record<
      'assign' | 'scanChunks' | 'scanChunkSums' | 'addChunkSums' | 'scatter' | 'sortBuckets',
      Kernel
    >,
  ) {
    const capacity = particles.capacity;
    this.buckets = bucketCount(capacity);
    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.starts = device.createBuffer({ label: 'GridPass.starts', size: (this.buckets + 4) * 4, usage: storage });
    this.cursors = device.createBuffer({ label: 'GridPass.cursors', size: (this.buckets + 4) * 4, usage: storage });
    const chunks = Math.ceil((this.buckets + 1) / SCAN_CHUNK);
    this.chunkSums = device.createBuffer({
      label: 'GridPass.chunkSums',
      size: Math.max(chunks, 4) * 4,
      usage: storage,
    });
    this.entries = device.createBuffer({ label: 'GridPass.entries', size: Math.max(capacity, 4) * 4, usage: storage });
    this.cells = device.createBuffer({ label: 'GridPass.cells', size: Math.max(capacity, 1) * 32, usage: storage });
    this.params = new UniformRing(device, 'GridPass.params', GRID_PARAMS.size, particles.submissions);
    this.bindGroup = kernels.assign.bindGroup(
      0,
      [this.params.binding, this.starts, this.cursors, this.entries, this.cells, this.chunkSums],
      'GridPass.bindGroup',
    );
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number): GridPass {
    const assign = Kernel.create(device, particles, {
      name: 'GridPass.assign',
      file: 'grid.wgsl',
      code: (store) => shaders.grid(store),
      entryPoint: 'assign',
      constants: { WORKGROUP_SIZE: workgroupSize },
      // params; starts, cursors, entries, cells, chunkSums.
      groups: [['uniform-dynamic', 'storage', 'storage', 'storage', 'storage', 'storage']],
    });
    const variant = (entryPoint: string, size = workgroupSize) =>
      assign.variant({ name: `GridPass.${entryPoint}`, entryPoint, constants: { WORKGROUP_SIZE: size } });
    return new GridPass(device, particles, {
      assign,
      // The scan's workgroups are its chunks: SCAN_CHUNK invocations each.
      scanChunks: variant('scanChunks', SCAN_CHUNK),
      scanChunkSums: variant('scanChunkSums', SCAN_CHUNK),
      addChunkSums: variant('addChunkSums'),
      scatter: variant('scatter'),
      sortBuckets: variant('sortBuckets'),
    });
  }

  /** Records a rebuild of the grid over particles [0, count). */
  encode(encoder: GPUCommandEncoder, count: number, inverseCellSize: number): void {
    for (const stage of GRID_STAGES) this.encodeStage(encoder, stage, count, inverseCellSize);
  }

  /** Records one stage of the rebuild (the profile times them one by one, in order). */
  encodeStage(encoder: GPUCommandEncoder, stage: GridStage, count: number, inverseCellSize: number): void {
    const block = this.block
      .set('count', count)
      .set('bucketMask', this.buckets - 1)
      .set('inverseCellSize', inverseCellSize)
      .set('bucketCount', this.buckets);
    const offsets = [this.params.offsetFor(block.bytes)];
    const groups = [{ group: this.bindGroup, offsets }];
    const record = (pass: GPUComputePassEncoder, kernel: Kernel, invocations: number) =>
      kernel.record(pass, groups, { count: invocations });
    if (stage === 'clear') {
      encoder.clearBuffer(this.cursors);
      return;
    }
    const pass = encoder.beginComputePass({ label: `GridPass.${stage}` });
    if (stage === 'assign') record(pass, this.kernels.assign, count);
    else if (stage === 'scan') {
      const scanned = this.buckets + 1;
      // A workgroup a chunk, then one workgroup.
      record(pass, this.kernels.scanChunks, Math.ceil(scanned / SCAN_CHUNK) * SCAN_CHUNK);
      record(pass, this.kernels.scanChunkSums, SCAN_CHUNK);
      record(pass, this.kernels.addChunkSums, scanned);
    } else if (stage === 'scatter') record(pass, this.kernels.scatter, count);
    else record(pass, this.kernels.sortBuckets, this.buckets);
    pass.end();
    // The counts become scatter's cursors.
    if (stage === 'scan') encoder.clearBuffer(this.cursors);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
    for (const buffer of [this.starts, this.cursors, this.entries, this.cells, this.chunkSums]) buffer.destroy();
  }
}
