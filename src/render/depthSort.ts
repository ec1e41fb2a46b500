/**
 * Sorts the particles of one buffer back to front by view depth on the GPU,
 * each frame, for alpha-blended draws (shaders/render/depthSort.wgsl): a
 * radix sort of u32 keys (8 bits a pass, 4 passes), deterministic, ties by
 * slot, in the order the CPU reference gives (src/core/depthSort.ts).
 * `encode` records the sort into the caller's encoder before its render
 * pass; `slots` then holds the slots back to front, which a binding from
 * ParticlePass.bindSorted draws through. Owns its pipelines' layouts, its
 * buffers and its uniform blocks; `destroy()` frees them, safe twice.
 */
import { SparkworksInputError } from '../core/errors';
import { LIFE } from '../core/layout';
import { depthRow } from '../core/depthSort';
import { defineStruct } from '../core/schema';
import { Kernel } from '../gpu/shared/kernel';
import { UniformBlock } from '../gpu/shared/uniformBlock';
import { shaders } from '../shaders';
import { storeOf, type ParticleStore } from '../gpu/shared/particleBuffer';
import type { LiveSource } from '../gpu/lifecycle/lifeBuffers';
import type { DrawTime, DrawView } from './particleLook';

/** shaders/render/depthSort.wgsl's parameters, written before each sort. */
export const DEPTH_SORT_PARAMS = defineStruct('DepthSortParams', {
  depthRow: { type: 'vec4f', doc: 'the world-to-clip row that grows with view depth (src/core/depthSort.ts depthRow)' },
  extrapolate: { type: 'f32', doc: 'seconds along the velocity, as the draw moves each particle' },
  count: { type: 'u32', doc: 'particles sorted' },
  chunkSize: { type: 'u32', doc: 'entries one invocation walks' },
  chunks: { type: 'u32', doc: 'ceil(count / chunkSize)' },
});

/** The digit one radix pass sorts by, written once per pass's bind group. */
export const SORT_DIGIT = defineStruct('SortDigit', {
  shift: { type: 'u32', doc: 'the digit is (key >> shift) & 255' },
});

const DIGITS = 4;
const RADIX = 256;
const WORKGROUP_SIZE = 64;

/**
 * Entries one invocation walks: at least 256 (a chunk's 256 tallies are
 * written and read per invocation), and so many that a pass has at most 512
 * chunks (the scan walks every chunk of a digit in one invocation).
 */
export function sortChunkSize(count: number): number {
  return Math.max(256, Math.ceil(count / 512));
}

/**
 * What a DepthSort sorts: `count` Particle records of `particles` (the
 * owner's buffer); with `live` (a system with emitters: its
 * `lifecycle.buffers`), every slot of it, the free ones keyed last
 * (DEAD_KEY), so the first `live` sorted slots are the live ones.
 */
export interface DepthSortOptions {
  /** Prefix of the GPU objects' labels and of the refusals' messages. */
  label: string;
  /** The Particle records sorted: a buffer of them or a system's `particleStore` (the owner's: not destroyed here). */
  particles: GPUBuffer | ParticleStore;
  /** Particles sorted; with `live`, its capacity. */
  count: number;
  /** A system with emitters: its live list (`lifecycle.buffers`); its free slots sort last. */
  live?: LiveSource;
  /** Entries a chunk (the benchmark tunes it). Default sortChunkSize(count). */
  chunkSize?: number;
}

/** A GPU depth sort of one particle buffer, back to front (see the module's note). */
export class DepthSort {
  /** Particles sorted (with `live`, its capacity). */
  readonly count: number;
  /** Entries one invocation walks (sortChunkSize(count) unless given). */
  readonly chunkSize: number;
  /** Chunks a radix pass walks: ceil(count / chunkSize). */
  readonly chunks: number;
  /** The keys (pass 4's output): ascending, back to front, after a sort. */
  readonly keys: GPUBuffer;
  /** The slots back to front after a sort: what a sorted draw reads. */
  readonly slots: GPUBuffer;
  private readonly spareKeys: GPUBuffer;
  private readonly spareSlots: GPUBuffer;
  private readonly counts: GPUBuffer;
  /** Bound in the life records' place without `live`: never read. */
  private readonly noLife: GPUBuffer | null;
  /** The live list sorted (bindSorted draws it indirectly), else null. */
  readonly live: LiveSource | null;
  private readonly params: UniformBlock<typeof DEPTH_SORT_PARAMS.fields>;
  private readonly digits: UniformBlock<typeof SORT_DIGIT.fields>[];
  private readonly kernels: { keysHistogram: Kernel; histogram: Kernel; scan: Kernel; scatter: Kernel };
  /** Pass d's bind group: keys in the A buffers for even d, out to them for odd d. */
  private readonly groups: GPUBindGroup[];
  private readonly row = new Float32Array(4);
  private destroyed = false;

  constructor(device: GPUDevice, options: DepthSortOptions) {
    const { label, count } = options;
    const store = storeOf(options.particles);
    if (!Number.isInteger(count) || count < 1)
      throw new SparkworksInputError(`${label}: count ${count} is not a positive integer`, 'count', count);
    if (store.capacity < count) {
      throw new SparkworksInputError(`${label}: the buffer holds fewer than ${count} particle records`, 'count', count);
    }
    if (options.live && options.live.capacity !== count) {
      throw new SparkworksInputError(
        `${label}: count ${count} is not the live list's capacity ${options.live.capacity}`,
        'count',
        count,
      );
    }
    this.count = count;
    this.live = options.live ?? null;
    this.chunkSize = options.chunkSize ?? sortChunkSize(count);
    this.chunks = Math.ceil(count / this.chunkSize);
    const storage = (name: string, words: number) =>
      device.createBuffer({
        label: `${label}.${name}`,
        size: Math.max(words, 1) * 4,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
      });
    this.keys = storage('keys', count);
    this.slots = storage('slots', count);
    this.spareKeys = storage('spareKeys', count);
    this.spareSlots = storage('spareSlots', count);
    this.counts = storage('counts', RADIX * this.chunks);
    this.noLife = this.live ? null : storage('noLife', LIFE.words);
    this.params = new UniformBlock(device, `${label}.params`, DEPTH_SORT_PARAMS);
    this.params.value.set('count', count).set('chunkSize', this.chunkSize).set('chunks', this.chunks);
    this.digits = Array.from({ length: DIGITS }, (_, d) => {
      const block = new UniformBlock(device, `${label}.digit${d}`, SORT_DIGIT);
      block.value.set('shift', 8 * d);
      return block.write();
    });
    const keysHistogram = Kernel.create(device, null, {
      name: 'DepthSort.keysHistogram',
      file: 'render/depthSort.wgsl',
      // Chunks past the first bind after the group's nine bindings.
      code: () => shaders.renderDepthSort(DEPTH_SORT_PARAMS, SORT_DIGIT, { moreChunksAt: 9, chunking: store.chunking }),
      entryPoint: 'keysHistogram',
      constants: { WORKGROUP_SIZE, LIVE: this.live ? 1 : 0 },
      particles: false,
      groups: [
        [
          'uniform',
          'uniform',
          'read-only-storage',
          'read-only-storage',
          'read-only-storage',
          'storage',
          'storage',
          'storage',
          'read-only-storage',
          ...store.buffers.slice(1).map(() => 'read-only-storage' as const),
        ],
      ],
    });
    this.kernels = {
      keysHistogram,
      histogram: keysHistogram.variant({
        name: 'DepthSort.histogram',
        entryPoint: 'histogram',
        constants: { WORKGROUP_SIZE },
      }),
      // One workgroup of 256: no WORKGROUP_SIZE, so a count of 1 dispatches one.
      scan: keysHistogram.variant({ name: 'DepthSort.scan', entryPoint: 'scan' }),
      scatter: keysHistogram.variant({
        name: 'DepthSort.scatter',
        entryPoint: 'scatter',
        constants: { WORKGROUP_SIZE },
      }),
    };
    this.groups = this.digits.map((digit, d) => {
      const [inKeys, inSlots, outKeys, outSlots] =
        d % 2 === 0
          ? [this.keys, this.slots, this.spareKeys, this.spareSlots]
          : [this.spareKeys, this.spareSlots, this.keys, this.slots];
      return keysHistogram.bindGroup(
        0,
        [
          this.params.buffer,
          digit.buffer,
          store.buffers[0] as GPUBuffer,
          inKeys,
          inSlots,
          outKeys,
          outSlots,
          this.counts,
          this.live?.life ?? this.noLife!,
          ...store.buffers.slice(1),
        ],
        `${label}.pass${d}`,
      );
    });
  }

  /**
   * Records the sort of the particles as drawn through `view` at `time` into
   * `encoder` (one compute pass; record it before the render pass that draws
   * through `slots`). The parameters are written through the queue: one sort
   * per submitted command buffer.
   */
  encode(
    encoder: GPUCommandEncoder,
    view: Pick<DrawView, 'viewProjection'>,
    time: Pick<DrawTime, 'extrapolate'>,
  ): void {
    if (this.destroyed) return;
    depthRow(this.row, view.viewProjection);
    this.params.value.set('depthRow', this.row).set('extrapolate', time.extrapolate);
    this.params.write();
    const pass = encoder.beginComputePass({ label: 'DepthSort' });
    const { keysHistogram, histogram, scan, scatter } = this.kernels;
    this.groups.forEach((group, d) => {
      // The first pass makes the keys into the A buffers (keys, slots) it then reads: pass 1's group writes them.
      if (d === 0) keysHistogram.record(pass, [this.groups[1]!], { count: this.chunks });
      else histogram.record(pass, [group], { count: this.chunks });
      scan.record(pass, [group], { count: 1 });
      scatter.record(pass, [group], { count: this.chunks });
    });
    pass.end();
  }

  /** Frees the buffers and uniform blocks. Safe twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const buffer of [this.keys, this.slots, this.spareKeys, this.spareSlots, this.counts]) buffer.destroy();
    this.noLife?.destroy();
    this.params.destroy();
    for (const digit of this.digits) digit.destroy();
  }
}
