/**
 * The lifecycle's GPU memory: the life records, the live lists (two halves,
 * the counters' parity says which one is live), the free list, the counters,
 * the death bits and the scan's levels over their words, the deaths, the
 * spawn-rule table, the per-step frame ring and the draw arguments.
 * Owned here, bound by the passes; the groups the live-list passes share
 * (group 2: lists and counters; the step's, with the ageing's buffers too)
 * are built here too.
 *
 * What persists from one step to the next is `life`, `lists`, `freeList`,
 * `counters` and `ruleStats` (the CPU twin's CpuLifecycle fields of those
 * names, word for word) and the particle records; everything else is scratch
 * written and read within a step (`dead`'s death bits are all zero between steps),
 * but for `liveIndexOf`, derived from the live list (liveIndexMap) and kept with it.
 */
import { SCAN_BLOCK } from '../../shaders/params';
import { UniformRing, type SubmitWindow } from '../shared/uniformRing';
import { BYTES_PER_LIFE } from '../../core/layout';
import {
  DEATH,
  FRAME_PARAMS,
  LIFE_COUNTERS,
  MAX_SPAWN_RULES,
  RULE_STATS_WORDS,
  SPAWN_RULE,
} from '../../core/emitters/gpuRecords';
import { initialLifecycle } from '../../core/emitters/lifecycle';
import type { PreparedLifecycle } from '../../core/emitters/options';
import { INDIRECT_ARGS, MAX_SCAN_LEVELS } from '../../shaders/indirectArgs';
import { computeLayout, type Dispatch } from '../shared/kernel';

/**
 * What a pass needs to run over the live list instead of every slot: its
 * WGSL composed with shaders/lifecycle/liveDispatch.wgsl (src/shaders/index.ts), this
 * group bound at index 2, and `dispatch`: the capacity, whose invocations
 * past the live count get NO_PARTICLE. The pass's own count must be
 * `capacity`, so its guard rejects only NO_PARTICLE.
 */
export interface LiveDispatch {
  readonly layout: GPUBindGroupLayout;
  readonly bindGroup: GPUBindGroup;
  readonly dispatch: Dispatch;
  readonly capacity: number;
}

/**
 * The lifecycle's buffers a live draw reads (ParticleSystem.liveBuffers;
 * ParticlePass.bindLive): the life records, the live lists, the counters, and
 * the draw arguments planEmit writes.
 */
export interface LiveSource {
  /** The life records, one a slot (age, lifetime, size, colour, rule, alive, generation). */
  readonly life: GPUBuffer;
  /** The two live lists, ping-ponged: the k-th live slot is `lists[counters.parity * capacity + k]`. */
  readonly lists: GPUBuffer;
  /** The lifecycle's counters (live count, list parity, ...). */
  readonly counters: GPUBuffer;
  /** Draw arguments over the live list (src/shaders/indirectArgs.ts, INDIRECT_ARGS), written on the GPU each step. */
  readonly args: GPUBuffer;
  /** Slots, live or free. */
  readonly capacity: number;
}

/** Bytes a scan item: (deaths, children, records, 0), a vec4u. */
const SCAN_ITEM_BYTES = 16;
export { SCAN_BLOCK };
/** Live indices a word of the death bits covers. */
export const DEATH_WORD = 32;
const FRAME_BYTES = FRAME_PARAMS.words * 4;

/**
 * Scan levels for `items` items: level l+1 holds one item per block of level
 * l, up to a single block, and at least two levels: level 0 is counted and
 * scanned by the countDeaths pass (shaders/lifecycle/countDeaths.wgsl), the top by
 * planEmit's (shaders/lifecycle/lifePlan.wgsl).
 */
export function scanLevels(items: number): number[] {
  const counts = [items, Math.ceil(items / SCAN_BLOCK)];
  while ((counts[counts.length - 1] as number) > SCAN_BLOCK) {
    counts.push(Math.ceil((counts[counts.length - 1] as number) / SCAN_BLOCK));
  }
  return counts;
}

/** `liveIndexOf`'s word for a slot that is not live (written by the host; the GPU leaves a dead slot's stale). */
export const NOT_LIVE = 0xffffffff;

/**
 * The inverse of the live list (`lists` from its half `parity`, `live`
 * entries): per slot its live index, NOT_LIVE for the others. What the GPU
 * keeps in `liveIndexOf`, computed on the host where the host writes the
 * lists (the starting state, a restore).
 */
export function liveIndexMap(
  lists: Uint32Array,
  live: number,
  parity: number,
  capacity: number,
): Uint32Array<ArrayBuffer> {
  const map = new Uint32Array(capacity).fill(NOT_LIVE);
  for (let k = 0; k < live; k++) map[lists[parity * capacity + k] as number] = k;
  return map;
}

/**
 * One past the highest slot in the live list (`lists` from its half
 * `parity`, `live` entries), 0 when none is live: the high-water mark the
 * host writes where it writes the lists (LifeBuffers.highWater).
 */
export function highWaterOf(lists: Uint32Array, live: number, parity: number, capacity: number): number {
  let highest = -1;
  for (let k = 0; k < live; k++) highest = Math.max(highest, lists[parity * capacity + k] as number);
  return highest + 1;
}

/** The most bytes a slot takes in one lifecycle buffer (each one binding): its life record, or its two live-list entries. */
export const LIFE_SLOT_BYTES = Math.max(BYTES_PER_LIFE, 2 * 4);

export class LifeBuffers {
  readonly life: GPUBuffer;
  readonly lists: GPUBuffer;
  readonly freeList: GPUBuffer;
  readonly counters: GPUBuffer;
  readonly ruleStats: GPUBuffer;
  /**
   * Per slot, its index in the live list: what the step's walk over every
   * slot (shaders/step/denseDispatch.wgsl) ages a slot as. Kept by the fill
   * (shaders/lifecycle/fill.wgsl: moves and births); a slot that died keeps a stale
   * entry, which nothing reads (its `alive` is 0).
   */
  readonly liveIndexOf: GPUBuffer;
  /**
   * One u32: a bound past every live slot, where the step's walk over every
   * slot stops (shaders/step/denseDispatch.wgsl). Raised by the fill past each birth's
   * slot (shaders/lifecycle/fill.wgsl), never lowered on the GPU, so it is one past the
   * highest slot live since the host last wrote it; the host writes it with
   * the lists (the start, a restore: highWaterOf). Not state: any bound
   * past every live slot gives the same bits, only the walk's cost changes.
   */
  readonly highWater: GPUBuffer;
  /** The draw arguments over the live list, written by planEmit (INDIRECT_ARGS). */
  readonly args: GPUBuffer;
  /**
   * The death bits, one a live index, set when it dies this step
   * (shaders/lifecycle/lifeDeath.wgsl; all zero between steps), then from word
   * `eventBitsAt` the collision-event bits (shaders/lifecycle/age.wgsl; all zero
   * between steps too), then from word `deadIndexAt` the live index of each death of the step, in order
   * (shaders/lifecycle/compact.wgsl, read by shaders/lifecycle/fill.wgsl). One buffer: the
   * compaction binds as many storage buffers as a stage may.
   */
  readonly dead: GPUBuffer;
  /** Where the collision-event bits start in `dead`, in words (the death bits' word count): one bit a live index. */
  readonly eventBitsAt: number;
  /** Where the deaths' live indices start in `dead`, in words (twice the death bits' word count). */
  readonly deadIndexAt: number;
  /**
   * Level 0's block-local exclusive sums of each word's (deaths, children,
   * records, 0) (shaders/lifecycle/countDeaths.wgsl counts and scans them), then (from `blockOffsetsAt`, in vec4u)
   * level 1's scanned block sums, each block's offset: the compaction and the fill add the two
   * themselves, so level 0 is never rewritten with its offsets (a pass over
   * the live list saved).
   */
  readonly scanned: GPUBuffer;
  /** Where level 1's output, each level-0 block's scanned offset, starts in `scanned`, in vec4u. */
  readonly blockOffsetsAt: number;
  /** Per scan level l >= 1: its input (the block sums of level l - 1), at index l - 1. The top level's total goes straight to planEmit (shaders/lifecycle/lifePlan.wgsl). */
  readonly levelInputs: GPUBuffer[] = [];
  /** Per scan level l: where its scanned output lives. */
  readonly levelOutputs: GPUBufferBinding[] = [];
  readonly deaths: GPUBuffer;
  readonly rules: GPUBuffer;
  /** Items per scan level at full capacity, the words of the death bits first (its length is the number of levels). */
  readonly levels: number[];
  /** Group 2 of a pass over the live list (shaders/lifecycle/liveDispatch.wgsl): lists and counters, read-only. */
  readonly liveLayout: GPUBindGroupLayout;
  readonly liveBindGroup: GPUBindGroup;
  /**
   * Group 2 of the step over every slot with the ageing fused in
   * (shaders/step/denseDispatch.wgsl, liveAge.wgsl): the inverse map
   * `liveIndexOf`, the counters, the life records, the spawn rules, the
   * death bits and the high-water mark.
   */
  readonly stepLayout: GPUBindGroupLayout;
  readonly stepBindGroup: GPUBindGroup;
  /** Distinct (dt, emitter settings) frames recorded and not yet submitted, one slot each. */
  private readonly frames: UniformRing;
  private readonly owned: GPUBuffer[] = [];
  private destroyed = false;

  constructor(
    readonly device: GPUDevice,
    readonly capacity: number,
    readonly lifecycle: PreparedLifecycle,
    submissions: SubmitWindow,
  ) {
    const buffer = (label: string, size: number, usage: number) => {
      const created = device.createBuffer({
        label: `LifeBuffers.${label}`,
        size: Math.max(16, Math.ceil(size / 4) * 4),
        usage,
      });
      this.owned.push(created);
      return created;
    };
    const { STORAGE, COPY_DST, COPY_SRC, INDIRECT, UNIFORM } = GPUBufferUsage;
    this.life = buffer('life', capacity * BYTES_PER_LIFE, STORAGE | COPY_DST | COPY_SRC);
    this.lists = buffer('lists', 2 * capacity * 4, STORAGE | COPY_DST | COPY_SRC);
    this.freeList = buffer('freeList', capacity * 4, STORAGE | COPY_DST | COPY_SRC);
    this.counters = buffer('counters', LIFE_COUNTERS.words * 4, STORAGE | COPY_DST | COPY_SRC);
    this.ruleStats = buffer('ruleStats', RULE_STATS_WORDS * 4, STORAGE | COPY_DST | COPY_SRC);
    this.liveIndexOf = buffer('liveIndexOf', capacity * 4, STORAGE | COPY_DST | COPY_SRC);
    this.highWater = buffer('highWater', 4, STORAGE | COPY_DST | COPY_SRC);
    const words = Math.ceil(capacity / DEATH_WORD);
    this.levels = scanLevels(words);
    if (this.levels.length > MAX_SCAN_LEVELS) {
      throw new RangeError(`${capacity} slots need ${this.levels.length} scan levels, more than ${MAX_SCAN_LEVELS}`);
    }
    this.args = buffer('args', INDIRECT_ARGS.size, STORAGE | INDIRECT | COPY_DST | COPY_SRC);
    this.eventBitsAt = words;
    this.deadIndexAt = 2 * words;
    // COPY_DST: scripts/profile-lifecycle.ts clears it (all zero between steps) as it restores the state.
    this.dead = buffer('dead', (2 * words + capacity) * 4, STORAGE | COPY_DST);
    // Level 1's output at a 256-byte boundary (minStorageBufferOffsetAlignment's largest value).
    const level0Bytes = Math.ceil((words * SCAN_ITEM_BYTES) / 256) * 256;
    const level1Items = this.levels[1] as number;
    this.blockOffsetsAt = level0Bytes / SCAN_ITEM_BYTES;
    this.scanned = buffer('scanned', level0Bytes + level1Items * SCAN_ITEM_BYTES, STORAGE);
    this.levelOutputs.push({ buffer: this.scanned, offset: 0, size: words * SCAN_ITEM_BYTES });
    this.levelOutputs.push({ buffer: this.scanned, offset: level0Bytes, size: level1Items * SCAN_ITEM_BYTES });
    for (let l = 1; l < this.levels.length; l++) {
      const items = this.levels[l] as number;
      this.levelInputs.push(buffer(`scanLevel${l}.input`, items * SCAN_ITEM_BYTES, STORAGE));
      if (l >= 2) {
        this.levelOutputs.push({ buffer: buffer(`scanLevel${l}.output`, items * SCAN_ITEM_BYTES, STORAGE) });
      }
    }
    const deaths = lifecycle.rules.hasPayloads ? capacity : 1;
    this.deaths = buffer('deaths', deaths * DEATH.words * 4, STORAGE);
    this.rules = buffer('rules', MAX_SPAWN_RULES * SPAWN_RULE.words * 4, UNIFORM | COPY_DST);
    this.frames = new UniformRing(device, 'LifeBuffers.frames', FRAME_BYTES, submissions);

    this.liveLayout = computeLayout(device, 'LifeBuffers.liveLayout', ['read-only-storage', 'read-only-storage']);
    this.liveBindGroup = device.createBindGroup({
      label: 'LifeBuffers.liveBindGroup',
      layout: this.liveLayout,
      entries: [
        { binding: 0, resource: { buffer: this.lists } },
        { binding: 1, resource: { buffer: this.counters } },
      ],
    });
    // liveIndexOf, counters, life, rules, dead, highWater (the bind group below).
    this.stepLayout = computeLayout(device, 'LifeBuffers.stepLayout', [
      'read-only-storage',
      'read-only-storage',
      'storage',
      'uniform',
      'storage',
      'read-only-storage',
    ]);
    this.stepBindGroup = device.createBindGroup({
      label: 'LifeBuffers.stepBindGroup',
      layout: this.stepLayout,
      entries: [this.liveIndexOf, this.counters, this.life, this.rules, this.dead, this.highWater].map(
        (buffer, binding) => ({ binding, resource: { buffer } }),
      ),
    });

    // The starting state: slots [0, permanent) live, the rest on the free list.
    const start = initialLifecycle(capacity, lifecycle.permanent);
    const queue = device.queue;
    queue.writeBuffer(this.lists, 0, start.lists);
    queue.writeBuffer(this.liveIndexOf, 0, liveIndexMap(start.lists, lifecycle.permanent, 0, capacity));
    const highWater = highWaterOf(start.lists, lifecycle.permanent, 0, capacity);
    queue.writeBuffer(this.highWater, 0, new Uint32Array([highWater, 0, 0, 0]));
    queue.writeBuffer(this.freeList, 0, start.freeList);
    queue.writeBuffer(this.life, 0, start.life.words);
    queue.writeBuffer(this.counters, 0, start.counters.words);
    queue.writeBuffer(this.ruleStats, 0, new Uint32Array(RULE_STATS_WORDS));
    queue.writeBuffer(this.rules, 0, lifecycle.rules.table.words);
  }

  /** The live-list dispatch of the passes over particles (LiveDispatch). */
  get live(): LiveDispatch {
    return {
      layout: this.liveLayout,
      bindGroup: this.liveBindGroup,
      dispatch: { count: this.capacity },
      capacity: this.capacity,
    };
  }

  /**
   * Scan level `level`'s dispatch, a workgroup a block: as many as a full
   * pool has, those past the live count's blocks returning at once.
   */
  scanDispatch(level: number): Dispatch {
    return { workgroups: Math.ceil((this.levels[level] as number) / SCAN_BLOCK) };
  }

  /** A frame uniform binding of one slot, for a bind group entry with a dynamic offset. */
  get frameBinding(): GPUBufferBinding {
    return this.frames.binding;
  }

  /**
   * The dynamic offset of a slot holding `frame` (whose contentsKey is `key`),
   * written now if no slot holds it yet.
   */
  frameOffset(key: string, frame: Uint32Array<ArrayBuffer>): number {
    return this.frames.offsetForKey(key, () => frame);
  }

  /** Frees every buffer this object created. Safe twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of this.owned) b.destroy();
    this.frames.destroy();
  }
}
