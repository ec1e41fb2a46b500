/**
 * What one ParticlePass draw reads: the particle records (a plain buffer or a
 * system's store), how the draw finds them (by index, the live list, a depth
 * sort's order) and ParticleBinding, which ties those buffers to one
 * DrawParams uniform block and the look's bind group. ParticlePass
 * (./particlePass.ts) makes the bindings, writes their block and owns the
 * pipelines that draw them; TrailPass, LinkPass and LookDraws name these
 * types without needing the pass.
 */
import type { ParticleChunking } from '../core/layout';
import type { LiveSource } from '../gpu/lifecycle/lifeBuffers';
import type { ParticleStore } from '../gpu/shared/particleBuffer';
import type { DepthSort } from './depthSort';
import { DrawBinding } from './drawPipeline';
import type { LookBinding } from './lookBinding';
import { DRAW_PARAMS } from './particleLook';

/** Particle records to draw: a plain buffer of them, or a system's store (`system.particleStore`, chunked or not). */
export type ParticleSource = GPUBuffer | ParticleStore;

/**
 * Bind group 0's storage buffers for `store` and the source's others: the
 * first chunk at binding 1, the source's buffers after it, then the rest of
 * the chunks (at the composition's `moreChunksAt`).
 */
export function storageFor(store: ParticleStore, others: readonly GPUBuffer[]): GPUBuffer[] {
  const [first, ...more] = store.buffers;
  return [first as GPUBuffer, ...others, ...more];
}

/** Where a draw finds its particles: every record by index, the live list, or records through a depth sort's order. */
export type DrawSource = 'records' | 'live' | 'sorted' | 'liveSorted';

/** What a draw reads: `count` particles a sample, `drawn` of them drawn (default `count`). */
export interface DrawRange {
  /** Particles a sample: the records of one state (for a plain buffer, the particles bound). */
  count: number;
  /** Particles drawn, e.g. several samples of a history buffer. Default `count`. */
  drawn?: number;
  /** Draw every n-th sample of a history buffer. Default 1. */
  sampleStride?: number;
  /** Particles per GroupTimeline entry (life colours). Default 1. */
  groupSize?: number;
}

/** A DrawParams block over a source's buffers (their owners'). */
export class ParticleBinding extends DrawBinding<typeof DRAW_PARAMS.fields> {
  /** `buffers`: bindings 1, 2, ... of the source's layout. `live`: drawn from this live list (else by index). */
  constructor(
    device: GPUDevice,
    layout: GPUBindGroupLayout,
    label: string,
    buffers: readonly GPUBuffer[],
    /** The live list drawn from (bindLive), else null: drawn by index. */
    readonly live: LiveSource | null = null,
    /**
     * Bind group 1, the look's curves and sprite (this binding's: destroyed with it).
     * @internal
     */
    readonly look: LookBinding | null = null,
    /** The depth sort whose order is drawn (bindSorted), else null. */
    readonly sort: DepthSort | null = null,
    /** How the records drawn are split across buffers (null: one). */
    readonly chunking: ParticleChunking | null = null,
  ) {
    super(device, layout, label, DRAW_PARAMS, buffers);
  }

  protected override release(): void {
    this.look?.destroy();
  }

  /**
   * Which of the pass's shaders draws it: `live` or `records`.
   * @internal
   */
  get source(): DrawSource {
    if (this.live) return this.sort ? 'liveSorted' : 'live';
    return this.sort ? 'sorted' : 'records';
  }
}
