/**
 * The GPU particle system: owns the particle buffer and the passes, decides
 * when to submit, and turns GPU errors and device loss into thrown errors.
 * Each method checks its input, then hands the work to an owner: of passes
 * (GpuForces, GpuCollisions, GpuLifecycle), of the step plan
 * (system/stepPlanner.ts), of what has been written and so what the step may
 * skip (system/writtenState.ts), of snapshots (system/snapshots.ts); what
 * `create` builds is system/assembly.ts, the GPU options system/options.ts.
 */
import type { ParticleSystemApi, ParticleSystemOptions, SystemStats } from '../core/api';
import { prepareColliders, type ColliderInit } from '../core/collisions/colliders';
import { prepareLinks, type LinkInit } from '../core/collisions/links';
import type { EmitterSet } from '../core/emitters/emitterSet';
import type { LifecycleSnapshot } from '../core/emitters/stats';
import { ForceRegistry, SpringNetwork } from '../core/forces/registry';
import {
  checkRange,
  checkStepCount,
  checkTimeStep,
  unpackSnapshot,
  type ParticleArrays,
  type ParticleInit,
  type ParticleSnapshot,
  type SettableField,
} from '../core/particles';
import type { SnapshotBytes } from '../core/snapshot/format';
import { creationOptions, decodeSnapshotSliced } from '../core/snapshot/systemSnapshot';
import type { Variant } from '../core/variants';
import type { GpuCollisions } from './collisions/collisions';
import { GpuForces } from './forces/forces';
import type { GpuLifecycle } from './lifecycle/lifecycle';
import type { LiveSource } from './lifecycle/lifeBuffers';
import type { ParticleBuffer, ParticleStore } from './shared/particleBuffer';
import type { StepPlan } from './step/stepPlan';
import { assembleSystem, ensureCollisions, type SystemParts } from './system/assembly';
import { DEFAULT_WORKGROUP_SIZE, type GpuParticleSystemOptions } from './system/options';
import type { PersistentBuffers } from './system/snapshotTransfer';
import {
  float32Records,
  persistentBuffersOf,
  restoreBuffers,
  restoreHostState,
  takeSnapshot,
} from './system/snapshots';
import { StepPlanner } from './system/stepPlanner';
import { Submissions } from './system/submissions';
import { SystemReads } from './system/reads';
import { WrittenState } from './system/writtenState';
import { ParticleWrites } from './system/writes';

export { DEFAULT_WORKGROUP_SIZE, type GpuParticleSystemOptions };

export class ParticleSystem implements ParticleSystemApi {
  readonly capacity: number;
  /** Resolves with the error when the device is lost; every later call throws it. */
  readonly lost: Promise<Error>;
  readonly variant: Variant;
  /** Force registry and pair springs (src/core/forces); their passes are created on first use. */
  readonly forces: ForceRegistry;
  readonly springs: SpringNetwork;
  /** The force passes (field forces and springs), created on first use. */
  private readonly forcePasses: GpuForces;
  /** What has been written, and so what the step may skip (src/gpu/system/writtenState.ts). */
  private readonly written: WrittenState;
  /** Checks, notes and records every write into the particle records (src/gpu/system/writes.ts). */
  private readonly writes: ParticleWrites;
  /** The passes of one step for the current configuration (src/gpu/system/stepPlanner.ts). */
  private readonly planner: StepPlanner;
  /** When work reaches the GPU, and whether the system may still be used (src/gpu/system/submissions.ts). */
  private readonly queue: Submissions;
  /** Readbacks inside error scopes (src/gpu/system/reads.ts). */
  private readonly reads: SystemReads;
  /** Seconds simulated: the sum of every step's dt (counted when the steps are recorded). */
  time = 0;
  /** Steps taken since creation (a restored system continues its snapshot's count). */
  stepCount = 0;

  private constructor(
    /** The device it runs on: the caller's, which `destroy()` leaves alone. */
    readonly device: GPUDevice,
    /** The buffer, the passes and what the system keeps of its options (src/gpu/system/assembly.ts). */
    private readonly parts: SystemParts,
  ) {
    const { state, integratePass } = parts;
    this.capacity = state.capacity;
    this.lost = parts.loss.lost;
    this.variant = parts.variant;
    this.forces = new ForceRegistry(this.capacity);
    this.springs = new SpringNetwork(this.capacity);
    this.forcePasses = new GpuForces(device, state, this.forces, this.springs, integratePass.workgroupSize);
    // Written by settle() when first needed, for the slots no write has covered by then.
    this.written = new WrittenState(this.capacity, parts.initialRanges);
    this.writes = new ParticleWrites(parts, this.written);
    this.queue = new Submissions(device, parts, this.written);
    this.reads = new SystemReads(device, parts);
    this.planner = new StepPlanner({
      capacity: this.capacity,
      forces: this.forces,
      springs: this.springs,
      forcePasses: this.forcePasses,
      integratePass,
      written: () => this.written,
      fusion: () => ({ forces: parts.fuseForces, colliders: parts.fuseColliders }),
      collisions: () => parts.collisions,
      lifecycle: () => parts.lifecycle,
    });
  }

  private get state(): ParticleBuffer {
    return this.parts.state;
  }

  /**
   * The particle buffer's owner (its bind groups and submissions), with
   * every slot's initial record written.
   * @internal
   */
  get particles(): ParticleBuffer {
    this.queue.settle();
    // Whoever holds the buffer may write the accumulators, the accelerations and the radii.
    this.written.mayHoldAnything();
    return this.state;
  }

  /** Creates a system on `device` (which stays the caller's to destroy). */
  static async create(device: GPUDevice, options: GpuParticleSystemOptions): Promise<ParticleSystem> {
    return new ParticleSystem(device, await assembleSystem(device, options));
  }

  async writeParticles(start: number, particles: readonly ParticleInit[]): Promise<void> {
    this.queue.checkUsable();
    await this.queue.submit('writeParticles', this.writes.particles(start, particles));
  }

  async writeAttributes(start: number, attributes: ParticleArrays): Promise<void> {
    this.queue.checkUsable();
    await this.queue.submit('writeAttributes', this.writes.attributes(start, attributes));
  }

  async writePacked(start: number, records: Float32Array): Promise<void> {
    this.queue.checkUsable();
    await this.queue.submit('writePacked', this.writes.packed(start, records));
  }

  async setField(field: SettableField, start: number, values: ArrayLike<number>): Promise<void> {
    this.queue.checkUsable();
    await this.queue.submit(`setField(${field})`, this.writes.field(field, start, values));
  }

  async addForces(start: number, forces: ArrayLike<number>): Promise<void> {
    this.queue.checkUsable();
    await this.queue.submit('addForces', this.writes.forces(start, forces));
  }

  async step(dt: number): Promise<void> {
    await this.stepMany(dt, 1);
  }

  async stepMany(dt: number, steps: number): Promise<void> {
    this.queue.checkUsable();
    checkTimeStep(dt);
    checkStepCount(steps);
    await this.queue.submit(`step(dt = ${dt}) x ${steps}`, (encoder) => this.planner.encodeSteps(encoder, dt, steps));
    this.countSteps(dt, steps);
  }

  /** Adds steps to `time` and `stepCount` one at a time, as the CPU reference does (the same float64 sums). */
  private countSteps(dt: number, steps: number): void {
    for (let s = 0; s < steps; s++) this.time += dt;
    this.stepCount += steps;
  }

  /**
   * Records `steps` steps into the caller's encoder, to compose with other
   * work in one command buffer; the caller submits, then calls `submitted()`.
   * Distinct `dt` values (and force tables, emitter frames) recorded between
   * submits share a ring of 256 uniform slots; past that it throws
   * UniformRingFullError before anything is recorded into a wrong slot.
   */
  encodeSteps(encoder: GPUCommandEncoder, dt: number, steps = 1): void {
    this.queue.checkUsable();
    checkTimeStep(dt);
    checkStepCount(steps);
    this.queue.intoCallerEncoder();
    this.planner.encodeSteps(encoder, dt, steps);
    this.countSteps(dt, steps);
  }

  /**
   * Tells the system that the command buffers its encode* methods recorded
   * into have been submitted, so their uniform slots may be reused. The
   * system's own async methods do this themselves.
   */
  submitted(): void {
    this.queue.submitted();
  }

  /** Whether the step reads the acceleration|radius lane now (the bench counts its bytes from this). @internal */
  get stepReadsAccelerationLane(): boolean {
    this.planner.current();
    return this.planner.readsAccelerationLane;
  }

  /** The passes of one step, in order (a new plan is built when the configuration changes). */
  get stepPasses(): string[] {
    return this.planner.current().passes;
  }

  async accumulateForces(dt: number): Promise<void> {
    this.queue.checkUsable();
    checkTimeStep(dt);
    await this.queue.submit(`accumulateForces(dt = ${dt})`, (encoder) => this.planner.encodeForces(encoder, dt));
  }

  /**
   * Records the registry's and the springs' forces for a step of `dt` into the
   * caller's encoder (Cyclone's updateForces, without integrating).
   */
  encodeForces(encoder: GPUCommandEncoder, dt: number): void {
    this.queue.checkUsable();
    checkTimeStep(dt);
    this.queue.intoCallerEncoder();
    this.planner.encodeForces(encoder, dt);
  }

  async setColliders(colliders: readonly ColliderInit[]): Promise<void> {
    this.queue.checkUsable();
    const packed = prepareColliders(colliders);
    await this.queue.submit('setColliders', () => ensureCollisions(this.device, this.parts).setColliders(packed));
    this.parts.colliderRecords = packed;
  }

  async setLinks(links: readonly LinkInit[]): Promise<void> {
    this.queue.checkUsable();
    const packed = prepareLinks(links, this.capacity);
    await this.queue.submit('setLinks', () => ensureCollisions(this.device, this.parts).setLinks(packed));
    this.parts.linkRecords = packed;
  }

  /**
   * The particle records on the GPU, BYTES_PER_PARTICLE bytes each in the
   * layout ATTRIBUTES describes: bind it to draw (ParticlePass.bind) or to
   * read in passes of your own. Owned by the system: do not destroy it.
   * Throws for a chunked system, which has several (`particleStore`).
   */
  get buffer(): GPUBuffer {
    return this.particles.buffer;
  }

  /**
   * The particle records wherever they are: one buffer, or chunks of them
   * when one storage binding cannot hold the capacity (`chunkParticles`).
   * What ParticlePass, LinkPass and DepthSort take to draw any system, and
   * what passes of your own bind through the particle store's accessors
   * (src/core/layout.ts, wgslParticleStore). Owned by the system.
   */
  get particleStore(): ParticleStore {
    return this.particles;
  }

  /** The live list and its draw arguments, to draw only live particles (ParticlePass.bindLive); null without emitters. */
  get liveBuffers(): LiveSource | null {
    this.queue.settle();
    return this.parts.lifecycle?.buffers ?? null;
  }

  /** The collision passes, for tests and benchmarks that probe them (null before any collision input). @internal */
  get collisionPasses(): GpuCollisions | null {
    this.queue.settle();
    return this.parts.collisions;
  }

  /** The emitters' rates, bursts and motion; null without emitters. */
  get emitters(): EmitterSet | null {
    return this.parts.lifecycle?.emitters ?? null;
  }

  /** The lifecycle's buffers and passes (src/gpu/lifecycle/lifecycle.ts); null without emitters. @internal */
  get lifecycle(): GpuLifecycle | null {
    this.queue.settle();
    return this.parts.lifecycle;
  }

  /** The step plan as the system stands now, for scripts that time its stages (src/bench/profileFrame.ts). @internal */
  get stepPlan(): StepPlan {
    this.queue.settle();
    return this.planner.current();
  }

  /** Live, free, emitted, killed, shortfall: a copy submitted now, resolved when the GPU reaches it. */
  async readStats(): Promise<SystemStats> {
    this.queue.checkUsable();
    this.queue.settle();
    return this.reads.stats();
  }

  async readLifecycle(): Promise<LifecycleSnapshot | null> {
    this.queue.checkUsable();
    this.queue.settle();
    return this.reads.lifecycle();
  }

  async read(start = 0, count = this.capacity - start): Promise<ParticleSnapshot> {
    const packed = await this.readPacked(start, count);
    return unpackSnapshot(packed, count, (n) => new Float32Array(n));
  }

  async readPacked(start = 0, count = this.capacity - start): Promise<Float32Array> {
    this.queue.checkUsable();
    checkRange(start, count, this.capacity);
    this.queue.settle();
    return this.reads.records(start, count);
  }

  /** The buffers that hold the state a snapshot keeps; a restore writes the accumulators through them. */
  private persistentBuffers(): PersistentBuffers {
    this.written.addedForces();
    return persistentBuffersOf(this.parts);
  }

  /**
   * Everything needed to continue this system bit for bit, as a versioned,
   * checksummed binary (docs/snapshots.md). The copy is submitted now, after
   * every step submitted before this call, and the promise resolves when the
   * GPU reaches it: a frame loop that does not await it never stalls.
   * `ParticleSystem.restore` or `CpuParticleSystem.restore` rebuilds it.
   */
  async snapshot(): Promise<Uint8Array> {
    this.queue.checkUsable();
    this.queue.settle();
    return takeSnapshot({
      device: this.device,
      capacity: this.capacity,
      parts: this.parts,
      forces: this.forces,
      springs: this.springs,
      time: this.time,
      stepCount: this.stepCount,
      persistent: this.persistentBuffers(),
    });
  }

  /**
   * A system on `device` rebuilt from a snapshot of either backend (a
   * float32 one: not of a CPU reference in float64), continuing where it was
   * taken. `options` sets what a snapshot does not hold (the workgroup size,
   * fused forces). Throws SnapshotError for a corrupt, truncated or
   * unknown-version snapshot before creating anything.
   */
  static async restore(
    device: GPUDevice,
    snapshot: SnapshotBytes,
    options: Omit<GpuParticleSystemOptions, keyof ParticleSystemOptions> = {},
  ): Promise<ParticleSystem> {
    const decoded = await decodeSnapshotSliced(snapshot);
    const records = float32Records(decoded);
    const system = await ParticleSystem.create(device, { ...options, ...creationOptions(decoded.config) });
    try {
      restoreHostState(system.parts, system, decoded);
      system.time = decoded.config.time;
      system.stepCount = decoded.config.stepCount;
      // Every slot is written with the snapshot's records: the initial records need not be.
      system.written.restored(records);
      await system.queue.submit('restore', () =>
        restoreBuffers(
          device,
          system.parts,
          () => ensureCollisions(device, system.parts),
          system.persistentBuffers(),
          decoded,
        ),
      );
    } catch (error) {
      system.destroy();
      throw error;
    }
    return system;
  }

  /** Frees this system's GPU objects (not the device). Safe to call twice. */
  destroy(): void {
    if (!this.queue.destroy()) return;
    this.forces.close('ParticleSystem');
    this.springs.close('ParticleSystem');
    const { parts } = this;
    parts.integratePass.destroy();
    parts.scatterPass.destroy();
    this.forcePasses.destroy();
    parts.collisions?.destroy();
    parts.lifecycle?.destroy();
    this.written.clear();
    this.state.destroy();
  }
}
