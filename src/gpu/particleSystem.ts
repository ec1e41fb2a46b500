/**
 * The GPU particle system: owns the particle buffer and the passes, decides
 * when to submit, and turns GPU errors and device loss into thrown errors.
 * Each method checks its input, then hands the work to an owner: of passes
 * (GpuForces, GpuCollisions, GpuLifecycle), of the step plan
 * (system/stepPlanner.ts), of what has been written and so what the step may
 * skip (system/writtenState.ts); the GPU options are system/options.ts.
 */
import { HealthRecord, checkNonFinitePolicy, statsOf, type NonFiniteStats } from '../core/nonFinite';
import type { ParticleSystemApi, ParticleSystemOptions, SystemStats } from '../core/api';
import { prepareColliders, type ColliderInit } from '../core/collisions/colliders';
import { prepareLinks, type LinkInit } from '../core/collisions/links';
import {
  DEFAULT_CONTACT_SETTINGS,
  RadiusBound,
  largestRadius,
  prepareCollisionInputs,
  type ContactSettings,
} from '../core/collisions/world';
import type { EmitterSet } from '../core/emitters/emitterSet';
import { checkPermanentRange, parkSlot } from '../core/emitters/lifecycle';
import { prepareLifecycle } from '../core/emitters/options';
import { staticStats, type LifecycleSnapshot } from '../core/emitters/stats';
import { ForceRegistry, SpringNetwork } from '../core/forces/registry';
import { BYTES_PER_PARTICLE } from '../core/layout';
import {
  checkPackedRecords,
  checkParticleArrays,
  checkParticleList,
  checkRange,
  checkStepCount,
  checkTimeStep,
  defaultRecord,
  packParticles,
  prepareFieldValues,
  prepareForces,
  prepareParticleArrays,
  prepareRecords,
  unpackSnapshot,
  type ParticleArrays,
  type ParticleInit,
  type ParticleSnapshot,
  type SettableField,
} from '../core/particles';
import { resolveVariant, type Variant } from '../core/variants';
import { GpuCollisions } from './collisions/collisions';
import { DeviceLossWatch, withErrorScopes } from './device/errors';
import { GpuForces } from './forces/forces';
import { IntegratePass } from './step/integratePass';
import { GpuLifecycle } from './lifecycle/lifecycle';
import type { LiveSource } from './lifecycle/lifeBuffers';
import { ParticleBuffer, type ParticleStore } from './shared/particleBuffer';
import { ScatterPass } from './shared/scatterPass';
import { StepPlanner } from './system/stepPlanner';
import { WrittenState } from './system/writtenState';
import {
  DEFAULT_WORKGROUP_SIZE,
  besideParticles,
  checkWorkgroupOptions,
  type GpuParticleSystemOptions,
} from './system/options';

export { DEFAULT_WORKGROUP_SIZE, type GpuParticleSystemOptions };
import { noLinks, type PackedLinks } from '../core/collisions/links';
import type { PackedColliders } from '../core/collisions/colliders';
import type { LifecycleOptions } from '../core/emitters/options';
import { SparkworksInputError } from '../core/errors';
import { plainCopy, type SnapshotBytes } from '../core/snapshot/format';
import { creationOptions, decodeSnapshotSliced, encodeSnapshotSliced } from '../core/snapshot/systemSnapshot';
import { HEALTH } from '../core/nonFinite';
import { LIFE_COUNTERS, RULE_STATS_WORDS } from '../core/emitters/gpuRecords';
import { BYTES_PER_LIFE } from '../core/layout';
import { readPersistent, writePersistent, type PersistentBuffers } from './system/snapshotTransfer';

export class ParticleSystem implements ParticleSystemApi {
  readonly capacity: number;
  /** Resolves with the error when the device is lost; every later call throws it. */
  readonly lost: Promise<Error>;
  private destroyed = false;
  /** Force registry and pair springs (src/core/forces); their passes are created on first use. */
  readonly forces: ForceRegistry;
  readonly springs: SpringNetwork;
  /** The force passes (field forces and springs), created on first use. */
  private readonly forcePasses: GpuForces;
  /** Colliders, links and particle contacts (src/gpu/collisions/collisions.ts), created on first use. */
  private collisions: GpuCollisions | null = null;
  private collisionSettings: ContactSettings = DEFAULT_CONTACT_SETTINGS;
  /** The largest radius ever written, which sizes the collision grid's cells. */
  private radii = new RadiusBound();
  /** Emitters, lifetimes and recycling (src/gpu/lifecycle/lifecycle.ts); null without emitters: every slot live. */
  private lifecyclePasses: GpuLifecycle | null = null;
  private fuseForces = true;
  private fuseColliders = true;
  /** What has been written, and so what the step may skip (src/gpu/system/writtenState.ts). */
  private written: WrittenState;
  /** The passes of one step for the current configuration (src/gpu/system/stepPlanner.ts). */
  private readonly planner: StepPlanner;
  /** Set by encodeSteps/encodeForces until `submitted()`: a caller's encoder may still hold uniform slots. */
  private callerEncoderPending = false;
  /** The non-finite policy, and what `throw` has reported (the counts themselves are on the GPU). */
  private health = new HealthRecord('report');
  /** The emitter options it was created with, as plain data (for snapshots); null without emitters. */
  private lifecycleOptions: LifecycleOptions | null = null;
  /** The colliders and links as last set (for snapshots: the GPU holds them only in its buffers). */
  private colliderRecords: PackedColliders = prepareColliders([]);
  private linkRecords: PackedLinks;
  /** Seconds simulated: the sum of every step's dt (counted when the steps are recorded). */
  time = 0;
  /** Steps taken since creation (a restored system continues its snapshot's count). */
  stepCount = 0;

  private constructor(
    /** The device it runs on: the caller's, which `destroy()` leaves alone. */
    readonly device: GPUDevice,
    readonly variant: Variant,
    private readonly state: ParticleBuffer,
    private readonly integratePass: IntegratePass,
    private readonly scatterPass: ScatterPass,
    private readonly loss: DeviceLossWatch,
  ) {
    this.capacity = state.capacity;
    this.lost = loss.lost;
    this.forces = new ForceRegistry(this.capacity);
    this.springs = new SpringNetwork(this.capacity);
    this.forcePasses = new GpuForces(device, state, this.forces, this.springs, integratePass.workgroupSize);
    this.linkRecords = noLinks(this.capacity);
    this.written = new WrittenState(this.capacity, []);
    this.planner = new StepPlanner({
      capacity: this.capacity,
      forces: this.forces,
      springs: this.springs,
      forcePasses: this.forcePasses,
      integratePass,
      written: () => this.written,
      fusion: () => ({ forces: this.fuseForces, colliders: this.fuseColliders }),
      collisions: () => this.collisions,
      lifecycle: () => this.lifecyclePasses,
    });
  }

  /**
   * The particle buffer's owner (its bind groups and submissions), with
   * every slot's initial record written.
   * @internal
   */
  get particles(): ParticleBuffer {
    this.settle();
    // Whoever holds the buffer may write the accumulators, the accelerations and the radii.
    this.written.mayHoldAnything();
    return this.state;
  }

  /** Creates a system on `device` (which stays the caller's to destroy). */
  static async create(device: GPUDevice, options: GpuParticleSystemOptions): Promise<ParticleSystem> {
    const variant = resolveVariant(options);
    const workgroupSize = checkWorkgroupOptions(device, options);
    const nonFinite = checkNonFinitePolicy(options.nonFinite);
    const loss = new DeviceLossWatch(device);
    loss.check();
    let particles: ParticleBuffer | undefined;
    let integrate: IntegratePass | undefined;
    let scatter: ScatterPass | undefined;
    let collisions: GpuCollisions | undefined;
    let collisionSettings = DEFAULT_CONTACT_SETTINGS;
    let collisionInputs: ReturnType<typeof prepareCollisionInputs> | undefined;
    const radii = new RadiusBound();
    // Checked before any GPU object exists: a refused emitter builds nothing.
    const lifecycleInputs = prepareLifecycle(options, options.capacity);
    let lifecycle: GpuLifecycle | undefined;
    try {
      await withErrorScopes(
        device,
        `creating the particle system (capacity ${options.capacity}, ${options.capacity * BYTES_PER_PARTICLE} bytes of state)`,
        () => {
          particles = new ParticleBuffer(device, options.capacity, {
            chunkParticles: options.chunkParticles,
            ...besideParticles(options, Boolean(lifecycleInputs)),
          });
          particles.health.write(nonFinite);
          collisionInputs = prepareCollisionInputs(options.collisions, options.capacity);
          collisionSettings = collisionInputs.settings;
          // Both build their pipelines before they return, so inside these scopes.
          const passes = Promise.all([
            IntegratePass.create(device, particles, variant, workgroupSize),
            ScatterPass.create(device, particles, workgroupSize),
          ]);
          if (options.collisions !== undefined) {
            collisions = GpuCollisions.create(device, particles, collisionSettings, radii, workgroupSize);
            if (collisionInputs.colliders) collisions.setColliders(collisionInputs.colliders);
            if (collisionInputs.links) collisions.setLinks(collisionInputs.links);
          }
          if (lifecycleInputs) {
            lifecycle = GpuLifecycle.create(device, particles, lifecycleInputs, variant, workgroupSize);
            radii.note(lifecycleInputs.rules.largestRadius);
          }
          return { passes };
        },
        async ({ passes }) => {
          [integrate, scatter] = await passes;
        },
      );
    } catch (error) {
      lifecycle?.destroy();
      integrate?.destroy();
      scatter?.destroy();
      collisions?.destroy();
      particles?.destroy();
      throw error;
    }
    const system = new ParticleSystem(
      device,
      variant,
      particles as ParticleBuffer,
      integrate as IntegratePass,
      scatter as ScatterPass,
      loss,
    );
    system.collisionSettings = collisionSettings;
    system.collisions = collisions ?? null;
    system.radii = radii;
    system.lifecyclePasses = lifecycle ?? null;
    system.fuseForces = options.fuseForces ?? true;
    system.fuseColliders = options.fuseColliders ?? true;
    system.health = new HealthRecord(nonFinite);
    if (lifecycleInputs) {
      system.lifecycleOptions = plainCopy({
        emitters: options.emitters,
        fireworks: options.fireworks,
        permanent: options.permanent,
      });
    }
    if (collisionInputs?.colliders) system.colliderRecords = collisionInputs.colliders;
    if (collisionInputs?.links) system.linkRecords = collisionInputs.links;
    // Every slot starts as Cyclone's default particle: at rest, mass 1, no damping. With emitters, the
    // slots past the permanent ones start free: parked (immovable, no collision radius). Written by
    // settle() when first needed, for the slots no write has covered by then.
    const permanent = lifecycleInputs ? lifecycleInputs.permanent : system.capacity;
    const parked = defaultRecord();
    parkSlot(parked, 0);
    system.written = new WrittenState(
      system.capacity,
      [
        { start: 0, end: permanent, record: defaultRecord() },
        { start: permanent, end: system.capacity, record: parked },
      ].filter((range) => range.end > range.start),
    );
    return system;
  }

  /**
   * Writes the initial records of the slots no write has covered. Called
   * before anything can read the state: every submit, encode and read of
   * this system, and every getter that hands the buffer (or passes bound to
   * it) out. writeBuffer is ordered before any later submit, so this needs
   * no submit of its own.
   */
  private settle(): void {
    if (this.destroyed) return;
    this.written.settle(({ start, end, record }) => this.state.writeRepeated(start, end - start, record));
  }

  private checkUsable(): void {
    if (this.destroyed) throw new Error('this ParticleSystem has been destroyed');
    this.loss.check();
  }

  /**
   * Runs `record` (which may encode into a fresh encoder) and submits it, inside error scopes.
   */
  private async submit(operation: string, record: (encoder: GPUCommandEncoder) => void): Promise<void> {
    this.checkUsable();
    await withErrorScopes(this.device, operation, () => {
      this.settle();
      const encoder = this.device.createCommandEncoder({ label: `ParticleSystem: ${operation}` });
      record(encoder);
      this.device.queue.submit([encoder.finish()]);
      // The slots this call used are submitted; those of a caller's own encoder may not be yet.
      if (!this.callerEncoderPending) this.state.submissions.submitted();
    });
    // A device lost (or destroyed) just before or during this call reports no error in its scopes, and its
    // work never runs: the loss has been delivered by now, and the call fails with it rather than resolve.
    this.loss.check();
  }

  async writeParticles(start: number, particles: readonly ParticleInit[]): Promise<void> {
    this.checkUsable();
    checkParticleList(particles);
    checkRange(start, particles.length, this.capacity);
    checkPermanentRange(this.lifecyclePasses?.prepared ?? null, start, particles.length);
    const packed = packParticles(particles);
    this.radii.note(largestRadius(packed));
    this.written.wrotePacked(start, packed);
    await this.submit('writeParticles', () => this.state.write(start, packed));
  }

  async writeAttributes(start: number, attributes: ParticleArrays): Promise<void> {
    this.checkUsable();
    const shape = checkParticleArrays(attributes);
    checkRange(start, shape.count, this.capacity);
    checkPermanentRange(this.lifecyclePasses?.prepared ?? null, start, shape.count);
    const prepared = prepareParticleArrays(shape, start);
    this.radii.note(prepared.largestRadius);
    this.written.wroteAttributes(start, prepared.count, attributes);
    await this.submit('writeAttributes', () =>
      this.state.writeChunked(start, prepared.count, (chunk, first, n) => prepared.pack(chunk, 0, first, n)),
    );
  }

  async writePacked(start: number, records: Float32Array): Promise<void> {
    this.checkUsable();
    const count = checkPackedRecords(records);
    checkRange(start, count, this.capacity);
    checkPermanentRange(this.lifecyclePasses?.prepared ?? null, start, count);
    const { largestRadius } = prepareRecords(records, start);
    this.radii.note(largestRadius);
    this.written.wrotePacked(start, records);
    await this.submit('writePacked', () => this.state.write(start, records));
  }

  async setField(field: SettableField, start: number, values: ArrayLike<number>): Promise<void> {
    this.checkUsable();
    const prepared = prepareFieldValues(field, values);
    checkRange(start, prepared.count, this.capacity);
    checkPermanentRange(this.lifecyclePasses?.prepared ?? null, start, prepared.count);
    if (prepared.attribute === 'radius') this.radii.noteAll(prepared.values);
    this.written.wroteField(prepared.attribute, prepared.values);
    await this.submit(`setField(${field})`, (encoder) =>
      this.scatterPass.encode(encoder, prepared.attribute, start, prepared.count, prepared.values, false),
    );
  }

  async addForces(start: number, forces: ArrayLike<number>): Promise<void> {
    this.checkUsable();
    const prepared = prepareForces(forces);
    const count = prepared.length / 3;
    checkRange(start, count, this.capacity);
    checkPermanentRange(this.lifecyclePasses?.prepared ?? null, start, count);
    this.written.addedForces();
    await this.submit('addForces', (encoder) =>
      this.scatterPass.encode(encoder, 'forceAccum', start, count, prepared, true),
    );
  }

  async step(dt: number): Promise<void> {
    await this.stepMany(dt, 1);
  }

  async stepMany(dt: number, steps: number): Promise<void> {
    this.checkUsable();
    checkTimeStep(dt);
    checkStepCount(steps);
    await this.submit(`step(dt = ${dt}) x ${steps}`, (encoder) => this.encodePlan(encoder, dt, steps));
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
    this.checkUsable();
    checkTimeStep(dt);
    checkStepCount(steps);
    this.settle();
    this.callerEncoderPending = true;
    this.encodePlan(encoder, dt, steps);
    this.countSteps(dt, steps);
  }

  /**
   * Tells the system that the command buffers its encode* methods recorded
   * into have been submitted, so their uniform slots may be reused. The
   * system's own async methods do this themselves.
   */
  submitted(): void {
    this.callerEncoderPending = false;
    this.state.submissions.submitted();
  }

  /**
   * Whether the step reads the acceleration|radius lane as the system stands
   * now (the bench counts its bytes from this): with emitters always, else
   * unless every movable particle's acceleration is +0, and its radius too
   * when the colliders are fused in.
   * @internal
   */
  get stepReadsAccelerationLane(): boolean {
    this.planner.current();
    return this.planner.readsAccelerationLane;
  }

  /** The passes of one step, in order (a new plan is built when the configuration changes). */
  get stepPasses(): string[] {
    return this.planner.current().passes;
  }

  /** Records `steps` steps of the plan; once one is recorded, every movable particle's accumulator is clear. */
  private encodePlan(encoder: GPUCommandEncoder, dt: number, steps: number): void {
    this.planner.current().encode(encoder, dt, steps);
    if (steps > 0) this.written.stepped();
  }

  async accumulateForces(dt: number): Promise<void> {
    this.checkUsable();
    checkTimeStep(dt);
    await this.submit(`accumulateForces(dt = ${dt})`, (encoder) => this.recordForces(encoder, dt));
  }

  /**
   * Records the registry's and the springs' forces for a step of `dt` into the
   * caller's encoder (Cyclone's updateForces, without integrating).
   */
  encodeForces(encoder: GPUCommandEncoder, dt: number): void {
    this.checkUsable();
    checkTimeStep(dt);
    this.settle();
    this.callerEncoderPending = true;
    this.recordForces(encoder, dt);
  }

  private recordForces(encoder: GPUCommandEncoder, dt: number): void {
    const forces = this.forcePasses.prepare(dt);
    if (!forces) return;
    this.written.addedForces();
    const pass = encoder.beginComputePass({ label: 'ParticleSystem.forces' });
    forces(pass);
    pass.end();
  }

  /** The colliders pass and contact resolver, created on first use inside the caller's error scopes. */
  private ensureCollisions(): GpuCollisions {
    this.collisions ??= GpuCollisions.create(
      this.device,
      this.state,
      this.collisionSettings,
      this.radii,
      this.integratePass.workgroupSize,
    );
    return this.collisions;
  }

  async setColliders(colliders: readonly ColliderInit[]): Promise<void> {
    this.checkUsable();
    const packed = prepareColliders(colliders);
    await this.submit('setColliders', () => this.ensureCollisions().setColliders(packed));
    this.colliderRecords = packed;
  }

  async setLinks(links: readonly LinkInit[]): Promise<void> {
    this.checkUsable();
    const packed = prepareLinks(links, this.capacity);
    await this.submit('setLinks', () => this.ensureCollisions().setLinks(packed));
    this.linkRecords = packed;
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
    this.settle();
    return this.lifecyclePasses?.buffers ?? null;
  }

  /**
   * The collision passes, for tests and benchmarks that probe or time them (null before any collision input).
   * @internal
   */
  get collisionPasses(): GpuCollisions | null {
    this.settle();
    return this.collisions;
  }

  /** The emitters' rates, bursts and motion; null without emitters. */
  get emitters(): EmitterSet | null {
    return this.lifecyclePasses?.emitters ?? null;
  }

  /**
   * The lifecycle's buffers and passes (live lists, draw arguments: src/gpu/lifecycle/lifeBuffers.ts); null without emitters.
   * @internal
   */
  get lifecycle(): GpuLifecycle | null {
    this.settle();
    return this.lifecyclePasses;
  }

  /**
   * A frame of this system with emitters as its passes, named, each recordable
   * on its own (scripts/profile-lifecycle.ts times them): the step
   * as this system records it (its forces and colliders fused in, or a force
   * pass before it), then the lifecycle's passes one by one. Only where every
   * stage is a compute pass (colliders fused, no contacts).
   * @internal
   */
  profileFrame(dt: number): { name: string; record: (pass: GPUComputePassEncoder) => void }[] {
    this.checkUsable();
    checkTimeStep(dt);
    this.settle();
    const lifecycle = this.lifecyclePasses;
    if (!lifecycle) throw new Error('profileFrame: only a system with emitters has a lifecycle to profile');
    const plan = this.planner.current();
    for (const stage of plan.stages) stage.prepare?.(dt);
    const [, ...afterStep] = lifecycle.profilePasses(dt);
    return plan.stages.flatMap((stage) => {
      if (stage.kind !== 'compute') throw new Error(`profileFrame: the ${stage.name} stage opens passes of its own`);
      if (stage.name === 'lifecycle') return afterStep;
      const name =
        stage.name === 'integrate'
          ? 'step+age'
          : stage.name.startsWith('integrate')
            ? `step+age (${stage.name})`
            : stage.name;
      return [{ name, record: (pass: GPUComputePassEncoder) => stage.record(pass, dt, 1) }];
    });
  }

  /** Live, free, emitted, killed, shortfall: a copy submitted now, resolved when the GPU reaches it. */
  async readStats(): Promise<SystemStats> {
    this.checkUsable();
    this.settle();
    const [lifecycle, health] = await Promise.all([
      this.lifecyclePasses ? this.lifecyclePasses.readStats() : staticStats(this.capacity),
      this.readHealth(),
    ]);
    return { ...lifecycle, ...health };
  }

  /** The non-finite counts, read back; with policy `throw`, throws when they grew since the last throw. */
  private async readHealth(): Promise<NonFiniteStats> {
    const { nonFinite, firstIndex } = await withErrorScopes(
      this.device,
      'reading the non-finite count',
      () => ({ reading: this.state.health.read() }),
      ({ reading }) => reading,
    );
    this.health.checkRead(nonFinite, firstIndex);
    return statsOf(nonFinite, firstIndex);
  }

  async readLifecycle(): Promise<LifecycleSnapshot | null> {
    this.checkUsable();
    const lifecycle = this.lifecyclePasses;
    if (!lifecycle) return null;
    this.settle();
    // readState copies and submits before its first await: only its mapAsync is left for the tail.
    return withErrorScopes(
      this.device,
      'readLifecycle',
      () => ({ reading: lifecycle.readState() }),
      ({ reading }) => reading,
    );
  }

  async read(start = 0, count = this.capacity - start): Promise<ParticleSnapshot> {
    const packed = await this.readPacked(start, count);
    return unpackSnapshot(packed, count, (n) => new Float32Array(n));
  }

  async readPacked(start = 0, count = this.capacity - start): Promise<Float32Array> {
    this.checkUsable();
    checkRange(start, count, this.capacity);
    this.settle();
    // read copies and submits before its first await: only its mapAsync is left for the tail.
    const packed = await withErrorScopes(
      this.device,
      'read',
      () => ({ reading: this.state.read(start, count) }),
      ({ reading }) => reading,
    );
    // Policy `throw`: a read after particles went non-finite throws (once per new count).
    if (this.health.policy === 'throw') await this.readHealth();
    return packed;
  }

  /** The buffers that hold the state a snapshot keeps. */
  private persistentBuffers(): PersistentBuffers {
    // A restore writes the accumulators through these.
    this.written.addedForces();
    return {
      particles: this.state,
      health: this.state.health.buffer,
      lifecycle: this.lifecyclePasses?.buffers ?? null,
    };
  }

  /**
   * Everything needed to continue this system bit for bit, as a versioned,
   * checksummed binary (docs/snapshots.md). The copy is submitted now, after
   * every step submitted before this call, and the promise resolves when the
   * GPU reaches it: a frame loop that does not await it never stalls.
   * `ParticleSystem.restore` or `CpuParticleSystem.restore` rebuilds it.
   */
  async snapshot(): Promise<Uint8Array> {
    this.checkUsable();
    this.settle();
    // Everything host-side is taken now, with the copy, so steps recorded while it is in flight change neither.
    const config = {
      format: 'sparkworks-snapshot' as const,
      backend: 'gpu' as const,
      capacity: this.capacity,
      variant: this.variant,
      precision: 'float32' as const,
      nonFinite: this.health.policy,
      lifecycle: this.lifecycleOptions,
      contactSettings: this.collisionSettings,
      forces: this.forces.entries(),
      springs: [...this.springs.links],
      emitterRuntime: this.lifecyclePasses ? this.lifecyclePasses.emitters.runtime() : null,
      radiusBound: this.radii.value,
      time: this.time,
      stepCount: this.stepCount,
      nonFiniteReported: this.health.reportedCount,
    };
    const colliders = this.colliderRecords;
    const links = this.linkRecords;
    const capacity = this.capacity;
    const words = await withErrorScopes(
      this.device,
      'snapshot',
      () => ({
        reading: readPersistent(this.device, this.persistentBuffers(), {
          particles: capacity * BYTES_PER_PARTICLE,
          health: HEALTH.words * 4,
          lifecycle: this.lifecyclePasses
            ? {
                life: capacity * BYTES_PER_LIFE,
                lists: 2 * capacity * 4,
                freeList: capacity * 4,
                counters: LIFE_COUNTERS.words * 4,
                ruleStats: RULE_STATS_WORDS * 4,
              }
            : null,
        }),
      }),
      ({ reading }) => reading,
    );
    this.loss.check();
    return encodeSnapshotSliced({ config, colliders, links, ...words });
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
    const { config } = decoded;
    if (!(decoded.particles instanceof Float32Array)) {
      throw new SparkworksInputError(
        'a float64 snapshot (from a CPU reference in float64 precision) cannot restore on the GPU, which steps in float32',
        'precision',
        config.precision,
      );
    }
    const particles = decoded.particles;
    const system = await ParticleSystem.create(device, { ...options, ...creationOptions(config) });
    try {
      for (const { generator, target } of config.forces) system.forces.add(generator, target);
      system.springs.setLinks(config.springs);
      if (config.emitterRuntime && system.lifecyclePasses)
        system.lifecyclePasses.emitters.restore(config.emitterRuntime);
      system.radii.value = config.radiusBound;
      system.health.restore(0, 0, config.nonFiniteReported);
      system.time = config.time;
      system.stepCount = config.stepCount;
      // Every slot is written below with the snapshot's records: the initial records need not be.
      system.written.restored(particles);
      await system.submit('restore', () => {
        if (decoded.colliders.count > 0) system.ensureCollisions().setColliders(decoded.colliders);
        if (decoded.links.records.count > 0) system.ensureCollisions().setLinks(decoded.links);
        writePersistent(device, system.persistentBuffers(), {
          particles,
          health: decoded.health,
          lifecycle: decoded.lifecycle,
        });
      });
      system.colliderRecords = decoded.colliders;
      system.linkRecords = decoded.links;
    } catch (error) {
      system.destroy();
      throw error;
    }
    return system;
  }

  /** Frees this system's GPU objects (not the device). Safe to call twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.forces.close('ParticleSystem');
    this.springs.close('ParticleSystem');
    this.integratePass.destroy();
    this.scatterPass.destroy();
    this.forcePasses.destroy();
    this.collisions?.destroy();
    this.lifecyclePasses?.destroy();
    this.written.clear();
    this.state.destroy();
  }
}
