/**
 * The GPU particle system: owns the particle buffer and the passes, decides
 * when to submit, and turns GPU errors and device loss into thrown errors.
 * Its length (a little over 450 lines) is the public API's surface: each
 * method checks its input, then hands the work to an owner of passes
 * (GpuForces, GpuCollisions, GpuLifecycle) or to the step plan.
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
import { staticStats, type LifecycleSnapshot, type LifecycleStats } from '../core/emitters/stats';
import { ForceRegistry, SpringNetwork } from '../core/forces/registry';
import { BYTES_PER_PARTICLE, FLOATS_PER_PARTICLE, OFFSET } from '../core/layout';
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
import { GpuCollisions } from './collisions';
import { chooseDispatchMode, type DispatchMode } from './device';
import { DeviceLossWatch, withErrorScopes } from './errors';
import { GpuForces, type RecordForces } from './forces';
import type { FusedStep } from './fusedPipelines';
import { IntegratePass } from './integratePass';
import { GpuLifecycle } from './lifecycle';
import type { LiveSource } from './lifeBuffers';
import { ParticleBuffer, STORAGE_BESIDE_PARTICLES, type ChunkingOptions, type ParticleStore } from './particleBuffer';
import { contactOrderFor, contactOrdersFor, contactSlotBytes, type ContactOrder } from './contactPass';
import { LIFE_SLOT_BYTES } from './lifeBuffers';
import { ScatterPass } from './scatterPass';
import { StepPlan, type Stage } from './stepPlan';
import { noLinks, type PackedLinks } from '../core/collisions/links';
import type { PackedColliders } from '../core/collisions/colliders';
import type { LifecycleOptions } from '../core/emitters/options';
import { SnapshotError, plainCopy, type SnapshotBytes } from '../core/snapshot/format';
import { creationOptions, decodeSnapshotSliced, encodeSnapshotSliced } from '../core/snapshot/systemSnapshot';
import { HEALTH } from '../core/nonFinite';
import { LIFE_COUNTERS, RULE_STATS_WORDS } from '../core/emitters/gpuRecords';
import { BYTES_PER_LIFE } from '../core/layout';
import { readPersistent, writePersistent, type PersistentBuffers } from './snapshotTransfer';

export interface GpuParticleSystemOptions extends ParticleSystemOptions {
  /** Invocations per workgroup for every per-particle pass. Default 256, the fastest measured by `npm run bench` (about 1.1x 64 on SwiftShader). */
  workgroupSize?: number;
  /**
   * Run the field forces inside the step's pass (shaders/integrateForces.wgsl)
   * rather than as a pass of their own before it. Default true; the results
   * agree within float32 rounding (fma contraction may differ). Over every
   * slot, and over the live list of a system with emitters; not with pair
   * springs, whose forces add after the field forces'.
   */
  fuseForces?: boolean;
  /**
   * Run the colliders inside the step's pass (shaders/fusedColliders.wgsl,
   * compiled for the collider set's kinds) rather than as a pass of their
   * own after it, when they are all the collisions a step has (no links, no
   * particle-particle contacts, no collider that sticks). Default true; the
   * results are the colliders pass's, bit for bit where the adapter rounds
   * each operation. With emitters the step over the live particles then also
   * turns the touches into collision events.
   */
  fuseColliders?: boolean;
  /**
   * Particles per storage buffer, a power of two: the records are split
   * into chunks of this many (each pass binds them all and reaches a slot
   * through src/core/layout.ts's particle store). By default a system is one
   * buffer up to what one storage binding holds (maxStorageBufferBindingSize
   * / 64 particles) and chunks of the largest power of two of that beyond
   * it. Results are bit-identical either way; set it to test chunking at
   * small sizes.
   */
  chunkParticles?: number;
  /**
   * How a system with emitters dispatches the passes whose size the GPU
   * decides (the step and forces over the live list, the deaths' counts,
   * scan and compaction, the fill, the emission; src/gpu/lifeBuffers.ts):
   * - `'indirect'`: `dispatchWorkgroupsIndirect` with the counts planStep and
   *   planEmit write, so the invocations follow the live count. What a
   *   software adapter needs, where every invocation costs.
   * - `'direct'`: fixed dispatches sized by the capacity, whose invocations
   *   past the GPU's counts return at once. What a hardware adapter needs:
   *   Dawn (Chrome's WebGPU and the `webgpu` package) validates each
   *   indirect dispatch with a compute pass of its own, which cost about
   *   0.18 ms a dispatch on an H200, ten times the frame's own work.
   * - `'auto'` (the default): `'indirect'` on a software adapter (by
   *   `device.adapterInfo`), else `'direct'`.
   *
   * The same particles, lists and counters either way, bit for bit: the
   * kernels are the same. With `'direct'` the step always takes the dense
   * walk over every slot, whatever the live count.
   */
  dispatch?: DispatchMode | 'auto';
  /**
   * How the particle-particle contact resolver lays out and walks its tables
   * (src/gpu/contactPass.ts ContactOrder): `'particles'` (every pass over
   * every slot), `'entries'` (the counts and resolves over the grid's entries,
   * the live particles alone), or `'auto'` (the default): with emitters under
   * indirect dispatch, each step takes 'entries' while fewer than
   * `ENTRIES_BELOW` of the slots were live at the last count read back
   * (ParticleSystem reads it back without waiting), 'particles' above;
   * otherwise 'particles'. The same bits in every order.
   */
  contactOrder?: ContactOrder | 'auto';
}

/** Invocations per workgroup of every per-particle pass unless `workgroupSize` says otherwise. */
export const DEFAULT_WORKGROUP_SIZE = 256;

/**
 * What this system's passes need beside the particle records, which bounds
 * its chunks and capacity (src/gpu/particleBuffer.ts): the storage buffers a
 * pass binds beside them (the lifecycle's and the contact resolver's, or the
 * step's and its forces' and colliders'), and the largest per-slot record kept
 * in one binding (the life records; the contact resolver's corrections,
 * candidates and grid cells).
 */
function besideParticles(options: GpuParticleSystemOptions, lifecycle: boolean): ChunkingOptions {
  const collisions = options.collisions;
  const grid = collisions?.particleCollisions === true;
  const contacts = collisions !== undefined && (grid || (collisions.links?.length ?? 0) > 0);
  const slots = [
    ...(lifecycle ? [{ bytes: LIFE_SLOT_BYTES, what: "its emitters' life records" }] : []),
    ...(contacts ? [{ bytes: contactSlotBytes(grid), what: "its contact resolver's records" }] : []),
  ].sort((a, b) => b.bytes - a.bytes);
  return {
    besideParticles: contacts ? STORAGE_BESIDE_PARTICLES.contacts : STORAGE_BESIDE_PARTICLES.step,
    ...(slots[0] ? { slotBytes: slots[0].bytes, slotRecords: slots[0].what } : {}),
  };
}

/** Whether packed records hold a force accumulator other than +0 (a -0 is kept too: it can change a sum's sign). */
function holdsForces(records: Float32Array): boolean {
  const words = new Uint32Array(records.buffer, records.byteOffset, records.length);
  for (let base = OFFSET.FORCE_ACCUM; base < words.length; base += FLOATS_PER_PARTICLE) {
    if ((words[base] as number) !== 0 || (words[base + 1] as number) !== 0 || (words[base + 2] as number) !== 0)
      return true;
  }
  return false;
}

/**
 * Whether packed records' movable particles (inverse mass not <= 0: the
 * step returns before reading an immovable one's lane) hold an acceleration
 * or a radius other than +0 (a -0 is kept too: it can change a sum's sign).
 */
function laneHolds(records: Float32Array): LaneHolds {
  const words = new Uint32Array(records.buffer, records.byteOffset, records.length);
  const holds = { acceleration: false, radius: false };
  for (let base = 0; base < records.length; base += FLOATS_PER_PARTICLE) {
    if ((records[base + OFFSET.INVERSE_MASS] as number) <= 0) continue;
    const a = base + OFFSET.ACCELERATION;
    if ((words[a] as number) !== 0 || (words[a + 1] as number) !== 0 || (words[a + 2] as number) !== 0)
      holds.acceleration = true;
    if ((words[base + OFFSET.RADIUS] as number) !== 0) holds.radius = true;
  }
  return holds;
}

/** What the acceleration|radius lanes of movable particles may hold other than +0. */
interface LaneHolds {
  acceleration: boolean;
  radius: boolean;
}

/** Whether `values` hold anything other than +0. */
function holdsNonZero(values: ArrayLike<number> | undefined): boolean {
  return values !== undefined && Array.prototype.some.call(values, (v: number) => !Object.is(v, 0));
}

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
  /** Colliders, links and particle contacts (src/gpu/collisions.ts), created on first use. */
  private collisions: GpuCollisions | null = null;
  private collisionSettings: ContactSettings = DEFAULT_CONTACT_SETTINGS;
  /** The largest radius ever written, which sizes the collision grid's cells. */
  private radii = new RadiusBound();
  /** Emitters, lifetimes and recycling (src/gpu/lifecycle.ts); null without emitters: every slot live. */
  private lifecyclePasses: GpuLifecycle | null = null;
  /** The orders the contact resolver's steps may take (ContactOrder), the first before any live count is known. */
  private contactOrders: readonly ContactOrder[] = ['particles'];
  private fuseForces = true;
  private fuseColliders = true;
  /**
   * False only when nothing can have written a force accumulator since a
   * step last cleared them all: then the step neither reads nor clears them
   * (StepParams.forceAccumulator of shaders/integrate.wgsl). Set by every call that may
   * write one (writes of non-zero forces, addForces, force passes, a restore,
   * the internal buffer getter), cleared by a step. Every slot starts with
   * none (Cyclone's default particle, or a parked one).
   */
  private accumulatorsMayHoldForces = false;
  /**
   * Whether a movable particle's acceleration, or radius, may hold anything
   * but +0: when neither can that the step uses (the radius only with the
   * colliders fused in), the step does not read the acceleration|radius lane
   * (ACCELERATION_LANE of shaders/integrate.wgsl). Set by every write that
   * may put one there (and by those that may make a particle movable again:
   * a mass, a restore, the internal buffer getter); recomputed by a write of
   * every slot. No pass of the step writes either to a movable particle (a
   * kill or a park makes it immovable); with emitters the step always reads
   * the lane (a spawn writes the rule's). Every slot starts with +0.
   */
  private laneMayHold: LaneHolds = { acceleration: false, radius: false };
  /** The passes of one step for the current configuration (src/gpu/stepPlan.ts). */
  private plan: StepPlan | null = null;
  /** Set by encodeSteps/encodeForces until `submitted()`: a caller's encoder may still hold uniform slots. */
  private callerEncoderPending = false;
  /**
   * Slots whose initial (default or parked) records create() has not
   * written yet: a write that covers a slot first makes writing its default
   * unnecessary, so creating and filling a system uploads its state once.
   * `settle()` writes the rest before anything can read the buffer.
   */
  private unwritten: { start: number; end: number; record: Float32Array }[] = [];
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
  }

  /**
   * The particle buffer's owner (its bind groups and submissions), with
   * every slot's initial record written.
   * @internal
   */
  get particles(): ParticleBuffer {
    this.settle();
    // Whoever holds the buffer may write the accumulators, the accelerations and the radii.
    this.accumulatorsMayHoldForces = true;
    this.laneMayHold = { acceleration: true, radius: true };
    return this.state;
  }

  /** Creates a system on `device` (which stays the caller's to destroy). */
  static async create(device: GPUDevice, options: GpuParticleSystemOptions): Promise<ParticleSystem> {
    const variant = resolveVariant(options);
    const workgroupSize = options.workgroupSize ?? DEFAULT_WORKGROUP_SIZE;
    const maxInvocations = device.limits.maxComputeInvocationsPerWorkgroup;
    if (!Number.isInteger(workgroupSize) || workgroupSize < 1 || workgroupSize > maxInvocations) {
      throw new RangeError(`workgroupSize = ${workgroupSize} must be an integer in [1, ${maxInvocations}]`);
    }
    if (options.fuseForces !== undefined && typeof options.fuseForces !== 'boolean') {
      throw new TypeError(`fuseForces = ${String(options.fuseForces)} must be true or false`);
    }
    if (options.fuseColliders !== undefined && typeof options.fuseColliders !== 'boolean') {
      throw new TypeError(`fuseColliders = ${String(options.fuseColliders)} must be true or false`);
    }
    const nonFinite = checkNonFinitePolicy(options.nonFinite);
    const dispatch = chooseDispatchMode(device, options.dispatch);
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
    const contactOrders = contactOrdersFor(options.contactOrder, Boolean(lifecycleInputs), dispatch);
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
            collisions = GpuCollisions.create(
              device,
              particles,
              collisionSettings,
              radii,
              workgroupSize,
              contactOrders,
            );
            if (collisionInputs.colliders) collisions.setColliders(collisionInputs.colliders);
            if (collisionInputs.links) collisions.setLinks(collisionInputs.links);
          }
          if (lifecycleInputs) {
            lifecycle = GpuLifecycle.create(device, particles, lifecycleInputs, variant, workgroupSize, dispatch);
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
    system.contactOrders = contactOrders;
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
    system.unwritten = [
      { start: 0, end: permanent, record: defaultRecord() },
      { start: permanent, end: system.capacity, record: parked },
    ].filter((range) => range.end > range.start);
    return system;
  }

  /**
   * Notes that slots [start, start + count) are about to be written whole,
   * so their initial records need not be.
   */
  private cover(start: number, count: number): void {
    if (this.unwritten.length === 0 || count === 0) return;
    const end = start + count;
    this.unwritten = this.unwritten.flatMap((range) => {
      if (end <= range.start || start >= range.end) return [range];
      const left = { ...range, end: start };
      const right = { ...range, start: end };
      return [left, right].filter((piece) => piece.end > piece.start);
    });
  }

  /**
   * Writes the initial records of the slots no write has covered. Called
   * before anything can read the state: every submit, encode and read of
   * this system, and every getter that hands the buffer (or passes bound to
   * it) out. writeBuffer is ordered before any later submit, so this needs
   * no submit of its own.
   */
  private settle(): void {
    if (this.unwritten.length === 0 || this.destroyed) return;
    const ranges = this.unwritten;
    this.unwritten = [];
    for (const { start, end, record } of ranges) this.state.writeRepeated(start, end - start, record);
  }

  private checkUsable(): void {
    if (this.destroyed) throw new Error('this ParticleSystem has been destroyed');
    this.loss.check();
  }

  /**
   * Runs `record` (which may encode into a fresh encoder) and submits it, inside error scopes; then `after`, in
   * them too.
   */
  private async submit(
    operation: string,
    record: (encoder: GPUCommandEncoder) => void,
    after?: () => void,
  ): Promise<void> {
    this.checkUsable();
    await withErrorScopes(this.device, operation, () => {
      this.settle();
      const encoder = this.device.createCommandEncoder({ label: `ParticleSystem: ${operation}` });
      record(encoder);
      this.device.queue.submit([encoder.finish()]);
      // The slots this call used are submitted; those of a caller's own encoder may not be yet.
      if (!this.callerEncoderPending) this.state.submissions.submitted();
      after?.();
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
    this.cover(start, particles.length);
    if (holdsForces(packed)) this.accumulatorsMayHoldForces = true;
    this.noteLanes(start, particles.length, laneHolds(packed));
    await this.submit('writeParticles', () => this.state.write(start, packed));
  }

  async writeAttributes(start: number, attributes: ParticleArrays): Promise<void> {
    this.checkUsable();
    const shape = checkParticleArrays(attributes);
    checkRange(start, shape.count, this.capacity);
    checkPermanentRange(this.lifecyclePasses?.prepared ?? null, start, shape.count);
    const prepared = prepareParticleArrays(shape, start);
    this.radii.note(prepared.largestRadius);
    this.cover(start, prepared.count);
    if (attributes.forceAccum && Array.prototype.some.call(attributes.forceAccum, (f: number) => !Object.is(f, 0)))
      this.accumulatorsMayHoldForces = true;
    // Missing attributes are written as the default particle's: +0.
    this.noteLanes(start, prepared.count, {
      acceleration: holdsNonZero(attributes.acceleration),
      radius: holdsNonZero(attributes.radius),
    });
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
    this.cover(start, count);
    if (holdsForces(records)) this.accumulatorsMayHoldForces = true;
    this.noteLanes(start, count, laneHolds(records));
    await this.submit('writePacked', () => this.state.write(start, records));
  }

  async setField(field: SettableField, start: number, values: ArrayLike<number>): Promise<void> {
    this.checkUsable();
    const prepared = prepareFieldValues(field, values);
    checkRange(start, prepared.count, this.capacity);
    checkPermanentRange(this.lifecyclePasses?.prepared ?? null, start, prepared.count);
    if (prepared.attribute === 'radius') this.radii.noteAll(prepared.values);
    // A mass given to an immovable particle brings back the accumulator its steps skipped.
    if (prepared.attribute === 'inverseMass') this.accumulatorsMayHoldForces = true;
    // And the acceleration and radius an immovable particle's steps never read (a killed one's radius).
    if (prepared.attribute === 'inverseMass') this.laneMayHold = { acceleration: true, radius: true };
    if (prepared.attribute === 'acceleration' && holdsNonZero(prepared.values)) this.laneMayHold.acceleration = true;
    if (prepared.attribute === 'radius' && holdsNonZero(prepared.values)) this.laneMayHold.radius = true;
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
    this.accumulatorsMayHoldForces = true;
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
    await this.submit(
      `step(dt = ${dt}) x ${steps}`,
      (encoder) => this.encodePlan(encoder, dt, steps),
      () => this.watchLive(),
    );
    this.countSteps(dt, steps);
  }

  /**
   * The contact resolver's order for the step being recorded, where its steps
   * may take more than one (ContactOrder 'auto'): by the live count last
   * read back, which the same bits in either order let lag.
   */
  private stepContactOrder(): ContactOrder | undefined {
    const lifecycle = this.lifecyclePasses;
    if (this.contactOrders.length < 2 || !lifecycle) return undefined;
    return contactOrderFor(lifecycle.liveEstimate, this.capacity);
  }

  /** After steps are submitted: reads the live count back for the next steps' contact order, where it chooses. */
  private watchLive(): void {
    if (this.contactOrders.length > 1 && this.collisions?.hasContacts) this.lifecyclePasses?.watchLive();
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
    this.watchLive();
  }

  /**
   * Slots [start, start + count) are written with records whose lanes hold
   * `holds`: a write of every slot says what they all hold, any other adds to it.
   */
  private noteLanes(start: number, count: number, holds: LaneHolds): void {
    if (start === 0 && count === this.capacity) this.laneMayHold = { ...holds };
    else
      this.laneMayHold = {
        acceleration: this.laneMayHold.acceleration || holds.acceleration,
        radius: this.laneMayHold.radius || holds.radius,
      };
  }

  /**
   * Whether the step reads the acceleration|radius lane as the system stands
   * now (the bench counts its bytes from this): with emitters always, else
   * unless every movable particle's acceleration is +0, and its radius too
   * when the colliders are fused in.
   * @internal
   */
  get stepReadsAccelerationLane(): boolean {
    this.stepPlan();
    return this.readsAccelerationLane;
  }

  /** Set by the plan (stepPlan) for its configuration: whether the colliders are fused into the step. */
  private collidersFused = false;

  private get readsAccelerationLane(): boolean {
    if (this.lifecyclePasses) return true;
    return this.laneMayHold.acceleration || (this.collidersFused && this.laneMayHold.radius);
  }

  /** The passes of one step, in order (a new plan is built when the configuration changes). */
  get stepPasses(): string[] {
    return this.stepPlan().passes;
  }

  /** Records `steps` steps of the plan; once one is recorded, every movable particle's accumulator is clear. */
  private encodePlan(encoder: GPUCommandEncoder, dt: number, steps: number): void {
    this.stepPlan().encode(encoder, dt, steps);
    if (steps > 0) this.accumulatorsMayHoldForces = false;
  }

  /** The plan for the current configuration, rebuilt only when that changes. */
  private stepPlan(): StepPlan {
    const collisions = this.collisions?.active ? this.collisions : null;
    const fields = this.forces.size > 0;
    const pairs = this.springs.size > 0;
    const fused = this.fuseForces && fields && !pairs;
    // The colliders fused into the step, when they are all the collisions there are.
    const fusedColliders = collisions !== null && this.fuseColliders && collisions.fused !== null;
    const key = [
      this.lifecyclePasses ? 'live list' : 'every slot',
      fused ? 'fused forces' : fields ? 'force pass' : 'no field forces',
      pairs ? 'springs' : 'no springs',
      fusedColliders ? 'fused colliders' : collisions ? 'collisions' : 'no collisions',
    ].join(', ');
    if (this.plan?.key !== key) this.plan = this.buildStepPlan(key, fused, collisions, fusedColliders);
    this.collidersFused = fusedColliders;
    return this.plan;
  }

  /**
   * The step's stages for one configuration: over the live list with
   * emitters (planStep first, the lifecycle after), the field forces fused
   * into the step or as passes before it, then the collisions: fused into
   * the step (`fusedColliders`) or as passes after it.
   *
   * Over every slot the step's pipeline is chosen when a call is recorded
   * (src/gpu/fusedPipelines.ts): the registry's composition, the collider
   * set's (setColliders may change it without changing the plan), and
   * whether any accumulator may hold forces.
   */
  private buildStepPlan(
    key: string,
    fused: boolean,
    collisions: GpuCollisions | null,
    fusedColliders: boolean,
  ): StepPlan {
    const stages: Stage[] = [];
    const lifecycle = this.lifecyclePasses;
    let frame = 0;
    if (lifecycle) {
      stages.push({
        name: 'planStep',
        kind: 'compute',
        record: (pass, dt) => {
          frame = lifecycle.frameOffset(dt);
          lifecycle.recordBeforeStep(pass, frame);
        },
      });
    }
    const forcePass = !fused && (this.forces.size > 0 || this.springs.size > 0);
    if (forcePass) {
      let forces: RecordForces | null = null;
      stages.push({
        name: 'forces',
        kind: 'compute',
        // With emitters, the field forces run over the live list (only inside a step, after planStep has sized it).
        prepare: (dt) => (forces = this.forcePasses.prepare(dt, lifecycle?.buffers.live ?? null)),
        record: (pass) => forces?.(pass),
      });
    }
    let step: FusedStep = { forces: null, colliders: null, accumulator: true };
    stages.push({
      name: ['integrate', ...(fused ? ['forces'] : []), ...(fusedColliders ? ['colliders'] : [])].join('+'),
      kind: 'compute',
      prepare: (dt) => {
        step = {
          forces: fused ? this.forcePasses.prepareFused(dt) : null,
          colliders: fusedColliders ? (collisions?.fused ?? null) : null,
          // A force pass before the step fills the accumulators every step.
          accumulator: forcePass || this.accumulatorsMayHoldForces,
          accelerationLane: this.readsAccelerationLane,
        };
      },
      record: (pass, dt, repeat) => {
        if (lifecycle && (step.forces || step.colliders)) lifecycle.recordIntegrateFused(pass, dt, step);
        else if (lifecycle) lifecycle.recordIntegrate(pass, dt, step.accumulator);
        else this.integratePass.recordFused(pass, dt, this.capacity, step, repeat);
      },
    });
    if (collisions && !fusedColliders) {
      // With emitters the colliders pass walks the live list or every slot, as the step did (the free slots are
      // parked with radius -1, "no particle", so either walk gives the same); the contacts run over every slot.
      const live = lifecycle?.buffers.live;
      stages.push({
        name: 'collisions',
        kind: 'encoder',
        record: (encoder, dt) => collisions.encode(encoder, dt, this.capacity, live, this.stepContactOrder()),
      });
    }
    if (lifecycle) {
      const collided = collisions !== null;
      stages.push({
        name: 'lifecycle',
        kind: 'compute',
        record: (pass) => lifecycle.recordAfterStep(pass, frame, collided),
      });
    }
    return new StepPlan(key, stages);
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
    this.accumulatorsMayHoldForces = true;
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
      this.contactOrders,
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
   * The lifecycle's buffers and passes (live lists, draw arguments: src/gpu/lifeBuffers.ts); null without emitters.
   * @internal
   */
  get lifecycle(): GpuLifecycle | null {
    this.settle();
    return this.lifecyclePasses;
  }

  /**
   * A frame of this system with emitters as its passes, named, each recordable
   * on its own (scripts/profile-lifecycle.ts times them): planStep, the step
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
    const plan = this.stepPlan();
    for (const stage of plan.stages) stage.prepare?.(dt);
    const [planStep, , ...afterStep] = lifecycle.profilePasses(dt);
    return plan.stages.flatMap((stage) => {
      if (stage.kind !== 'compute') throw new Error(`profileFrame: the ${stage.name} stage opens passes of its own`);
      if (stage.name === 'planStep') return [planStep as (typeof afterStep)[number]];
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
    this.accumulatorsMayHoldForces = true;
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
      throw new SnapshotError(
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
      // Every slot is written below: the initial records need not be.
      system.unwritten = [];
      await system.submit(
        'restore',
        () => {
          if (decoded.colliders.count > 0) system.ensureCollisions().setColliders(decoded.colliders);
          if (decoded.links.records.count > 0) system.ensureCollisions().setLinks(decoded.links);
          writePersistent(device, system.persistentBuffers(), {
            particles,
            health: decoded.health,
            lifecycle: decoded.lifecycle,
          });
        },
        // The restored live count, for the first steps' contact order.
        () => system.watchLive(),
      );
      // Every slot was written with the snapshot's records.
      system.laneMayHold = laneHolds(particles);
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
    this.unwritten = [];
    this.state.destroy();
  }
}
