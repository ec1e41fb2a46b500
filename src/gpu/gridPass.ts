/**
 * Owns the uniform grid (shaders/grid.wgsl): the buffers and the pipelines
 * that rebuild it every step as a counting sort of the particles by
 * (bucket, index). The contact passes read its starts, entries and cells.
 */
import { bucketCount } from '../core/collisions/grid';
import { isHardwareDevice } from './device';
import type { LiveDispatch } from './lifeBuffers';
import { Kernel } from './kernel';
import type { ParticleBuffer } from './particleBuffer';
import { shaders } from '../shaders';
import { GRID_PARAMS } from './passParams';
import { UniformRing } from './uniformRing';

/** The rebuild's stages, in order. */
export const GRID_STAGES = ['clear', 'assign', 'scan', 'scatter', 'sortBuckets'] as const;
/** Counts each invocation of the scan's first dispatch sums (SCAN_CHUNK of shaders/grid.wgsl). */
const SCAN_CHUNK = 256;
export type GridStage = (typeof GRID_STAGES)[number];

/**
 * How the grid scans its bucket counts: 'serial', a loop an invocation and
 * no barrier (what a software adapter, paying for every invocation and
 * barrier, wants), or 'parallel', a workgroup a chunk in workgroup memory
 * (what a GPU wants, where the serial loops are chains of memory latencies).
 * The same integer sums either way.
 */
export type GridScan = 'serial' | 'parallel';

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
  /** assign and scatter over the live list (shaders/liveDispatch.wgsl) and their group, made on first use. */
  private overLive: { assign: Kernel; scatter: Kernel; bindGroup: GPUBindGroup } | null = null;
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly kernels: Record<
      'assign' | 'scanChunks' | 'scanChunkSums' | 'addChunkSums' | 'scatter' | 'sortBuckets',
      Kernel
    >,
    /** How the counts are scanned (GridScan). */
    readonly scan: GridScan,
    /** Invocations per workgroup of the passes over particles. */
    private readonly workgroupSize: number,
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

  /**
   * Created synchronously: the caller's error scopes catch any failure.
   * `scan`: 'parallel' on a hardware adapter, else 'serial' (GridScan).
   */
  static create(
    device: GPUDevice,
    particles: ParticleBuffer,
    workgroupSize: number,
    scan: GridScan = isHardwareDevice(device) ? 'parallel' : 'serial',
  ): GridPass {
    const assign = Kernel.create(device, particles, {
      name: 'GridPass.assign',
      file: 'grid.wgsl',
      code: shaders.grid(),
      entryPoint: 'assign',
      constants: { WORKGROUP_SIZE: workgroupSize },
      // params; starts, cursors, entries, cells, chunkSums.
      groups: [['uniform-dynamic', 'storage', 'storage', 'storage', 'storage', 'storage']],
    });
    const variant = (entryPoint: string, size = workgroupSize) =>
      assign.variant({ name: `GridPass.${entryPoint}`, entryPoint, constants: { WORKGROUP_SIZE: size } });
    const parallel = scan === 'parallel';
    return new GridPass(
      device,
      particles,
      {
        assign,
        // The parallel scan's workgroups are its chunks: SCAN_CHUNK invocations each.
        scanChunks: parallel ? variant('scanChunksParallel', SCAN_CHUNK) : variant('scanChunks'),
        scanChunkSums: parallel ? variant('scanChunkSumsParallel', SCAN_CHUNK) : variant('scanChunkSums'),
        addChunkSums: variant('addChunkSums'),
        scatter: variant('scatter'),
        sortBuckets: variant('sortBuckets'),
      },
      scan,
      workgroupSize,
    );
  }

  /**
   * Records a rebuild of the grid over particles [0, count). With `live` (a
   * pool with emitters, unchunked, indirect dispatch), `assign` and `scatter`
   * walk as the step did: the live list, or every slot from the dense walk's
   * threshold. The grid is the same (a free slot, radius -1, is out of it
   * either way), but a free slot's cell record is then left as it was: only
   * for a resolver that reads no particle's record out of the grid (its
   * entries order without links, src/gpu/contactPass.ts).
   */
  encode(encoder: GPUCommandEncoder, count: number, inverseCellSize: number, live?: LiveDispatch): void {
    for (const stage of GRID_STAGES) this.encodeStage(encoder, stage, count, inverseCellSize, live);
  }

  /** assign and scatter over the live list, made on first use (inside the caller's error scopes). */
  private liveKernels(live: LiveDispatch): { assign: Kernel; scatter: Kernel; bindGroup: GPUBindGroup } {
    if (!this.overLive) {
      const constants = { WORKGROUP_SIZE: this.workgroupSize, CAPACITY: live.capacity };
      const assign = Kernel.create(this.device, this.particles, {
        name: 'GridPass.assign(live list)',
        file: 'grid.wgsl (live list)',
        code: shaders.gridLive(),
        entryPoint: 'assign',
        constants,
        groups: [['uniform-dynamic', 'storage', 'storage', 'storage', 'storage', 'storage'], live.layout],
      });
      const scatter = assign.variant({ name: 'GridPass.scatter(live list)', entryPoint: 'scatter', constants });
      this.overLive = {
        assign,
        scatter,
        bindGroup: assign.bindGroup(
          0,
          [this.params.binding, this.starts, this.cursors, this.entries, this.cells, this.chunkSums],
          'GridPass(live list).bindGroup',
        ),
      };
    }
    return this.overLive;
  }

  /** Records one stage of the rebuild (the profile times them one by one, in order); `live` as in encode. */
  encodeStage(
    encoder: GPUCommandEncoder,
    stage: GridStage,
    count: number,
    inverseCellSize: number,
    live?: LiveDispatch,
  ): void {
    const block = this.block
      .set('count', count)
      .set('bucketMask', this.buckets - 1)
      .set('inverseCellSize', inverseCellSize)
      .set('bucketCount', this.buckets);
    const offsets = [this.params.offsetFor(block.bytes)];
    const groups = [{ group: this.bindGroup, offsets }];
    const record = (pass: GPUComputePassEncoder, kernel: Kernel, invocations: number) =>
      kernel.record(pass, groups, { count: invocations });
    // Over the live list: the list's walk, then the dense walk's over every slot (planStep sized one of them empty).
    const walks = (pass: GPUComputePassEncoder, kernel: 'assign' | 'scatter') => {
      if (!live) return false;
      const overLive = this.liveKernels(live);
      overLive[kernel].record(pass, [{ group: overLive.bindGroup, offsets }, live.bindGroup], live.stepWalks.list);
      this.kernels[kernel].record(pass, groups, live.stepWalks.dense);
      return true;
    };
    if (stage === 'clear') {
      encoder.clearBuffer(this.cursors);
      return;
    }
    const pass = encoder.beginComputePass({ label: `GridPass.${stage}` });
    if (stage === 'assign') {
      if (!walks(pass, 'assign')) record(pass, this.kernels.assign, count);
    } else if (stage === 'scan') {
      const scanned = this.buckets + 1;
      // Serial: an invocation a chunk, then one invocation; parallel: a workgroup a chunk, then one workgroup.
      const perChunk = this.scan === 'parallel' ? SCAN_CHUNK : 1;
      record(pass, this.kernels.scanChunks, Math.ceil(scanned / SCAN_CHUNK) * perChunk);
      record(pass, this.kernels.scanChunkSums, perChunk);
      record(pass, this.kernels.addChunkSums, scanned);
    } else if (stage === 'scatter') {
      if (!walks(pass, 'scatter')) record(pass, this.kernels.scatter, count);
    } else record(pass, this.kernels.sortBuckets, this.buckets);
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
