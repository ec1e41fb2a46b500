/**
 * The lifecycle on the GPU: particles born by emitters and fireworks, aged,
 * killed and recycled without the host touching them. Owns the lifecycle's
 * buffers and passes and records one step's worth into the caller's compute
 * pass, never submitting:
 *
 *   [forces over the live list, the step: over every slot in order, the
 *    slots not live and those past the high-water mark returning at once;
 *    the step ages each particle too: age += dt, and a death (past its lifetime, below its
 *    floor, or killed) sets its bit in the death bits; with the colliders
 *    fused in, it resolves them first and sets the collision events' bits]
 *   [collisions, then age (judgeAgain): the deaths judged again after them]
 *   countDeaths (deaths, children) a word of 32 death bits, and their prefix
 *               sums in blocks of 1,024 words (the scan's level 0)
 *   scan       the levels above (the top in planEmit's pass)
 *   compact    deaths to the free list, parked; survivors are not visited
 *   planEmit   deaths, requests, what fits, the draw arguments (one invocation)
 *   fill       survivors past the new live count into the holes the deaths left
 *   emit       one particle per granted request, slots from the free list
 *
 * Every pass is dispatched directly over a bound the host knows (the
 * capacity, the words of the death bits, a full pool's scan blocks), and
 * the invocations past the counts the GPU wrote return at once: no indirect
 * dispatch, which Dawn validates with a pass of its own each. Past the step
 * only the deaths, the births and one word a 32 live particles do any work.
 * Slots and list positions are assigned by prefix sums and bit order, never
 * racing atomics: the same seed and steps give the same particles in the
 * same slots, and the CPU reference (src/core/emitters/lifecycle.ts) puts
 * them in the same slots and list positions too.
 */
import type { EmitterSet } from '../../core/emitters/emitterSet';
import { COUNTER_HEADER_WORDS, LIFE_COUNTERS, RULE_STATS_WORDS } from '../../core/emitters/gpuRecords';
import { LIFE, WORDS_PER_LIFE } from '../../core/layout';
import { StructArray } from '../../core/schema';
import type { PreparedLifecycle } from '../../core/emitters/options';
import { lifecycleStats, type LifecycleSnapshot, type LifecycleStats } from '../../core/emitters/stats';
import type { Variant } from '../../core/variants';
import { createLifecycleKernels, type LifecycleKernels } from './lifecycleKernels';
import type { FusedStep } from '../step/fusedPipelines';
import { LifeBuffers } from './lifeBuffers';
import { LifePlanPass } from './lifePlanPass';
import { LifeScanPass } from './lifeScanPass';
import { LiveIntegratePass } from '../step/liveIntegratePass';
import type { ParticleBuffer } from '../shared/particleBuffer';
import { contentsKey } from '../shared/uniformRing';

const STATS_BYTES = (COUNTER_HEADER_WORDS + RULE_STATS_WORDS) * 4;

export class GpuLifecycle {
  readonly emitters: EmitterSet;
  /** Staging buffers for stats readbacks, reused once unmapped. */
  private readonly idleStaging: GPUBuffer[] = [];
  private destroyed = false;
  /**
   * The compute pass the step over the live list (which ages) was last
   * recorded into, until the lifecycle's passes after it: recorded into
   * another pass, passes ran between them (the collisions), and the deaths
   * are judged again.
   */
  private agingPass: GPUComputePassEncoder | null = null;
  /**
   * Whether a particle's collision-event lane (shaders/collisions/contactLane.wgsl) may say it touched a collider
   * (4 + 2): after a step with collisions, and at the start (a restored state
   * may hold such lanes). The ageing of a step without them has no event code,
   * so the first such step judges again, and its lanes go back to 4 as the
   * CPU reference's ageing has them every step.
   */
  private contactLanesMayHoldTouches = true;
  /** The last frame record made (frameOffset): for the emitters at `version` and a step of `dt`. */
  private lastFrame: { version: number; dt: number; words: Uint32Array<ArrayBuffer>; key: string } | null = null;

  private constructor(
    readonly device: GPUDevice,
    readonly buffers: LifeBuffers,
    private readonly plan: LifePlanPass,
    private readonly kernels: LifecycleKernels,
    private readonly scanPass: LifeScanPass,
    private readonly integratePass: LiveIntegratePass,
    readonly prepared: PreparedLifecycle,
  ) {
    this.emitters = prepared.emitters;
  }

  /**
   * Created synchronously inside the caller's error scopes. The particle
   * slots [permanent, capacity) must be parked by the caller (parkSlot in
   * src/core/emitters/lifecycle.ts) before the first step.
   */
  static create(
    device: GPUDevice,
    particles: ParticleBuffer,
    prepared: PreparedLifecycle,
    variant: Variant,
    workgroupSize: number,
  ): GpuLifecycle {
    const buffers = new LifeBuffers(device, particles.capacity, prepared, particles.submissions);
    try {
      return new GpuLifecycle(
        device,
        buffers,
        LifePlanPass.create(device, buffers),
        createLifecycleKernels(device, particles, buffers, workgroupSize),
        LifeScanPass.create(device, buffers),
        LiveIntegratePass.create(device, particles, buffers, variant, workgroupSize),
        prepared,
      );
    } catch (error) {
      buffers.destroy();
      throw error;
    }
  }

  get capacity(): number {
    return this.buffers.capacity;
  }

  /** The frame uniform's offset for a step of `dt` with the emitters as they are now. */
  frameOffset(dt: number): number {
    const dt32 = Math.fround(dt);
    let frame = this.lastFrame;
    // The record and its key made again only when the emitters (every change bumps their version) or dt
    // changed: a frame loop's steps share one. Made every step, its 388 words and their key were about 40% of
    // the host's time to record a frame (44 against 27 us, a churning pool, Node on this project's CI machine).
    if (frame?.version !== this.emitters.version || frame.dt !== dt32) {
      const words = this.emitters.frame(dt32).words;
      frame = { version: this.emitters.version, dt: dt32, words, key: contentsKey(words) };
      this.lastFrame = frame;
    }
    return this.buffers.frameOffset(frame.key, frame.words);
  }

  /**
   * The step over the live particles, which ages them (after the forces);
   * `accumulator` false when no force accumulator can hold a force (see
   * LiveIntegratePass.record).
   */
  recordIntegrate(pass: GPUComputePassEncoder, dt: number, accumulator = true): void {
    this.integratePass.record(pass, dt, accumulator);
    this.agingPass = pass;
  }

  /**
   * The step over the live particles with the field forces fused in (instead
   * of a force pass and the step), the colliders (instead of the step, the
   * colliders pass and the deaths judged again after it) or both:
   * LiveIntegratePass.recordFused.
   */
  recordIntegrateFused(pass: GPUComputePassEncoder, dt: number, fusion: FusedStep): void {
    this.integratePass.recordFused(pass, dt, fusion);
    this.agingPass = pass;
  }

  /**
   * The deaths counted and scanned, the births planned, the deaths compacted, then fill and emit:
   * after the step and the collisions (`collided`: the step had any, fused
   * or as passes). A step recorded into another pass (passes ran between),
   * or the first without collisions after steps with them
   * (contactLanesMayHoldTouches), has its deaths and events judged again; none
   * recorded, the particles are aged here.
   */
  recordAfterStep(pass: GPUComputePassEncoder, frameOffset: number, collided = false): void {
    const clearStaleTouches = !collided && this.contactLanesMayHoldTouches;
    if (this.agingPass !== pass || clearStaleTouches) {
      (this.agingPass ? this.kernels.judgeAgain : this.kernels.age).record(pass, frameOffset);
    }
    this.contactLanesMayHoldTouches = collided;
    this.agingPass = null;
    this.kernels.countDeaths.record(pass);
    this.scanPass.recordUp(pass);
    this.plan.recordTopAndEmit(pass, frameOffset);
    this.scanPass.recordDown(pass);
    this.kernels.compact.record(pass);
    this.kernels.fill.record(pass);
    this.kernels.emit.record(pass, frameOffset);
  }

  /**
   * A step's passes in order, named, for scripts/profile-lifecycle.ts, which
   * times each prefix of them from the same saved state (a prefix of a step
   * leaves the scratch buffers as the next prefix expects them).
   * @internal
   */
  profilePasses(dt: number, accumulator = true): { name: string; record: (pass: GPUComputePassEncoder) => void }[] {
    const frame = this.frameOffset(dt);
    return [
      { name: 'step+age', record: (pass) => this.integratePass.record(pass, dt, accumulator) },
      // 'deathWords+scan0': the countDeaths pass under the name scripts/profile-lifecycle.ts has always printed.
      { name: 'deathWords+scan0', record: (pass) => this.kernels.countDeaths.record(pass) },
      { name: 'scan', record: (pass) => this.scanPass.recordUp(pass) },
      {
        name: 'scan top+planEmit',
        record: (pass) => {
          this.plan.recordTopAndEmit(pass, frame);
          this.scanPass.recordDown(pass);
        },
      },
      { name: 'compact', record: (pass) => this.kernels.compact.record(pass) },
      { name: 'fill', record: (pass) => this.kernels.fill.record(pass) },
      { name: 'emit', record: (pass) => this.kernels.emit.record(pass, frame) },
    ];
  }

  /**
   * One whole step without forces or collisions, into the caller's encoder:
   * the step, then the lifecycle. (The particle system interleaves its force and
   * collision passes itself.)
   */
  encodeStep(encoder: GPUCommandEncoder, dt: number): void {
    const frame = this.frameOffset(dt);
    const pass = encoder.beginComputePass({ label: 'GpuLifecycle.step' });
    this.recordIntegrate(pass, dt);
    this.recordAfterStep(pass, frame);
    pass.end();
  }

  /**
   * The counters, read back asynchronously: a copy is submitted now and the
   * promise resolves when the GPU has reached it, so a frame loop that does
   * not await it never stalls. The numbers are those after every step
   * submitted before this call.
   */
  readStats(): Promise<LifecycleStats> {
    if (this.destroyed) return Promise.reject(new Error('this GpuLifecycle has been destroyed'));
    const staging =
      this.idleStaging.pop() ??
      this.device.createBuffer({
        label: 'GpuLifecycle.statsReadback',
        size: STATS_BYTES,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
    const encoder = this.device.createCommandEncoder({ label: 'GpuLifecycle.readStats' });
    encoder.copyBufferToBuffer(this.buffers.counters, 0, staging, 0, COUNTER_HEADER_WORDS * 4);
    encoder.copyBufferToBuffer(this.buffers.ruleStats, 0, staging, COUNTER_HEADER_WORDS * 4, RULE_STATS_WORDS * 4);
    this.device.queue.submit([encoder.finish()]);
    return staging.mapAsync(GPUMapMode.READ).then(() => {
      const words = new Uint32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      if (this.destroyed) staging.destroy();
      else this.idleStaging.push(staging);
      return lifecycleStats(
        words.subarray(0, COUNTER_HEADER_WORDS),
        words.subarray(COUNTER_HEADER_WORDS),
        this.prepared.rules,
      );
    });
  }

  /** The live and free lists and the life records, read back (waits for the GPU: for tests and the CLI). */
  async readState(): Promise<LifecycleSnapshot> {
    const b = this.buffers;
    const countersBytes = LIFE_COUNTERS.words * 4;
    const sizes = [countersBytes, b.lists.size, b.freeList.size, b.life.size, RULE_STATS_WORDS * 4];
    const staging = this.device.createBuffer({
      label: 'GpuLifecycle.stateReadback',
      size: sizes.reduce((a, s) => a + s, 0),
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    try {
      const encoder = this.device.createCommandEncoder({ label: 'GpuLifecycle.readState' });
      let at = 0;
      [b.counters, b.lists, b.freeList, b.life, b.ruleStats].forEach((source, i) => {
        encoder.copyBufferToBuffer(source, 0, staging, at, sizes[i] as number);
        at += sizes[i] as number;
      });
      this.device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const words = new Uint32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      const part = (i: number) => {
        const start = sizes.slice(0, i).reduce((a, s) => a + s, 0) / 4;
        return words.subarray(start, start + (sizes[i] as number) / 4);
      };
      const counters = part(0);
      const F = LIFE_COUNTERS.wordOffsets;
      const live = counters[F.live] as number;
      const free = counters[F.free] as number;
      const parity = counters[F.parity] as number;
      const lists = part(1);
      return {
        live: lists.slice(parity * this.capacity, parity * this.capacity + live),
        free: part(2).slice(0, free),
        life: StructArray.from(LIFE, part(3).subarray(0, this.capacity * WORDS_PER_LIFE)),
        stats: lifecycleStats(counters.subarray(0, COUNTER_HEADER_WORDS), part(4), this.prepared.rules),
      };
    } finally {
      staging.destroy();
    }
  }

  /** Frees what this object created (the particle buffer is the caller's). Safe twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const pass of [
      this.plan,
      this.kernels.age,
      this.kernels.judgeAgain,
      this.kernels.countDeaths,
      this.scanPass,
      this.kernels.compact,
      this.kernels.fill,
      this.kernels.emit,
      this.integratePass,
    ]) {
      pass.destroy();
    }
    for (const staging of this.idleStaging) staging.destroy();
    this.idleStaging.length = 0;
    this.buffers.destroy();
  }
}
