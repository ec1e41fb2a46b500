/**
 * The CPU reference system: the same API as the GPU system, over the same
 * packed layout, stepping with src/core/integrate.ts. Used by the tests to
 * check the GPU, and usable as a CPU fallback. Its writes live in
 * src/core/cpu/writes.ts, its snapshot state in src/core/cpu/snapshotState.ts.
 */
import { vec3 } from 'gl-matrix';
import type { ParticleSystemApi, SystemStats } from './api';
import { HealthRecord, checkNonFinitePolicy } from './nonFinite';
import { prepareColliders, type ColliderInit } from './collisions/colliders';
import { prepareLinks, type LinkInit } from './collisions/links';
import { CpuCollisionWorld, RadiusBound, prepareCollisionInputs } from './collisions/world';
import type { EmitterSet } from './emitters/emitterSet';
import { CpuLifecycle } from './emitters/lifecycle';
import { prepareLifecycle } from './emitters/options';
import { staticStats, type LifecycleSnapshot } from './emitters/stats';
import { applyFieldForces } from './forces/fieldForces';
import { ForceRegistry, SpringNetwork } from './forces/registry';
import { applySpringForces } from './forces/springForces';
import { integrate, type Rounding } from './integrate';
import { StructArray } from './schema';
import { FLOATS_PER_PARTICLE, LIFE, attributeOffset, floatIndex } from './layout';
import {
  checkCapacity,
  fillDefaultParticles,
  checkRange,
  checkStepCount,
  checkTimeStep,
  unpackSnapshot,
  type FloatArray,
  type ParticleArrays,
  type ParticleInit,
  type ParticleSnapshot,
  type SettableField,
} from './particles';
import { resolveVariant, type Variant } from './variants';
import type { LifecycleOptions } from './emitters/options';
import { snapshotRefusal } from './errors';
import { plainCopy, type SnapshotBytes } from './snapshot/format';
import { creationOptions, decodeSnapshot, encodeSnapshot } from './snapshot/systemSnapshot';
import { CPU_MAX_PARTICLES, type CpuParticleSystemOptions, type Precision } from './cpu/options';
import { applyCpuSystemState, cpuSystemState } from './cpu/snapshotState';
import {
  addForceValues,
  writeAttributeArrays,
  writeField,
  writePackedRecords,
  writeParticleRecords,
} from './cpu/writes';

export type { CpuParticleSystemOptions, Precision };

export class CpuParticleSystem implements ParticleSystemApi {
  private destroyed = false;
  readonly capacity: number;
  readonly variant: Variant;
  /** The arithmetic it steps in: `float32` (as the GPU) or `float64`. */
  readonly precision: Precision;
  /** Packed records, FLOATS_PER_PARTICLE floats a particle. */
  readonly state: FloatArray;
  private readonly round: Rounding;
  readonly forces: ForceRegistry;
  readonly springs: SpringNetwork;
  /**
   * Colliders, links and particle contacts, run after every step (src/core/collisions/world.ts).
   * @internal
   */
  readonly collisions: CpuCollisionWorld;
  /**
   * Emitters, lifetimes and recycling (src/core/emitters/lifecycle.ts); null without emitters: every slot live.
   * @internal
   */
  readonly lifecycle: CpuLifecycle | null = null;
  /** Particles gone non-finite, and the policy for them. */
  private readonly health: HealthRecord;
  /** The emitter options it was created with, as plain data (for snapshots); null without emitters. */
  private readonly lifecycleOptions: LifecycleOptions | null;
  /** Seconds simulated: the sum of every step's dt. */
  time = 0;
  /** Steps taken since creation (a restored system continues its snapshot's count). */
  stepCount = 0;
  /** The record the step and collisions count into: none under policy `off`. */
  private get checkedHealth(): HealthRecord | null {
    return this.health.checking ? this.health : null;
  }

  constructor(options: CpuParticleSystemOptions) {
    this.variant = resolveVariant(options);
    this.health = new HealthRecord(checkNonFinitePolicy(options.nonFinite));
    checkCapacity(options.capacity, CPU_MAX_PARTICLES, 'the CPU reference');
    const collisions = prepareCollisionInputs(options.collisions, options.capacity);
    const lifecycle = prepareLifecycle(options, options.capacity);
    this.capacity = options.capacity;
    this.lifecycleOptions = lifecycle
      ? plainCopy({ emitters: options.emitters, fireworks: options.fireworks, permanent: options.permanent })
      : null;
    this.precision = options.precision ?? 'float32';
    this.state =
      this.precision === 'float32'
        ? new Float32Array(this.capacity * FLOATS_PER_PARTICLE)
        : new Float64Array(this.capacity * FLOATS_PER_PARTICLE);
    this.round = this.precision === 'float32' ? Math.fround : (x) => x;
    // Every slot starts as Cyclone's default particle: at rest, mass 1, no damping.
    fillDefaultParticles(this.state, 0, this.capacity);
    this.forces = new ForceRegistry(this.capacity);
    this.springs = new SpringNetwork(this.capacity);
    this.collisions = new CpuCollisionWorld(
      this.capacity,
      collisions.settings,
      new RadiusBound(),
      this.precision === 'float64',
    );
    if (collisions.colliders) this.collisions.colliders = collisions.colliders;
    if (collisions.links) this.collisions.links = collisions.links;
    if (lifecycle) {
      this.lifecycle = new CpuLifecycle(
        this.capacity,
        lifecycle.permanent,
        lifecycle.rules,
        lifecycle.emitters,
        this.round,
      );
      // The slots past the permanent ones start free: parked (immovable, no collision radius).
      this.lifecycle.initialize(this.state);
      this.collisions.radius.note(lifecycle.rules.largestRadius);
    }
  }

  // The writes check everything before they write anything (src/core/cpu/writes.ts).
  writeParticles(start: number, particles: readonly ParticleInit[]): void {
    this.checkUsable();
    writeParticleRecords(this, start, particles);
  }

  writeAttributes(start: number, attributes: ParticleArrays): void {
    this.checkUsable();
    writeAttributeArrays(this, start, attributes);
  }

  writePacked(start: number, records: Float32Array): void {
    this.checkUsable();
    writePackedRecords(this, start, records);
  }

  setField(field: SettableField, start: number, values: ArrayLike<number>): void {
    this.checkUsable();
    writeField(this, this.round, field, start, values);
  }

  addForces(start: number, forces: ArrayLike<number>): void {
    this.checkUsable();
    addForceValues(this, this.round, start, forces);
  }

  accumulateForces(dt: number): void {
    this.checkUsable();
    checkTimeStep(dt);
    this.applyForces(Math.fround(dt));
  }

  /** The twins of shaders/forces/forces.wgsl then shaders/forces/springs.wgsl, as the GPU orders them. */
  private applyForces(dt: number): void {
    const single = this.precision === 'float32';
    if (this.forces.size > 0) {
      const packed = this.forces.pack(dt);
      const params = single ? packed.params32 : packed.params;
      applyFieldForces(this.state, this.capacity, packed, params, this.forces.maskWords, this.round);
    }
    if (this.springs.size > 0) {
      const rows = this.springs.rows;
      applySpringForces(this.state, rows, single ? rows.params32 : rows.params, this.round);
    }
  }

  step(dt: number): void {
    this.checkUsable();
    checkTimeStep(dt);
    this.stepOnce(dt);
  }

  private stepOnce(dt: number): void {
    this.lifecycle?.beforeStep();
    this.applyForces(Math.fround(dt));
    integrate(this.state, this.capacity, Math.fround(dt), this.variant, this.round, this.checkedHealth);
    this.collisions.afterIntegrate(this.state, this.capacity, dt, this.round, this.checkedHealth);
    // Free slots have inverse mass 0, so the step and the forces above skipped them as the GPU's live list does.
    this.lifecycle?.afterStep(this.state, Math.fround(dt), this.checkedHealth);
    this.time += dt;
    this.stepCount++;
  }

  stepMany(dt: number, steps: number): void {
    this.checkUsable();
    checkTimeStep(dt);
    checkStepCount(steps);
    for (let s = 0; s < steps; s++) this.stepOnce(dt);
  }

  /**
   * Everything needed to continue this system bit for bit, as a versioned,
   * checksummed binary (docs/snapshots.md): `CpuParticleSystem.restore` or
   * `ParticleSystem.restore` rebuilds it.
   */
  snapshot(): Uint8Array {
    this.checkUsable();
    return encodeSnapshot(cpuSystemState(this, this.health, this.lifecycleOptions));
  }

  /**
   * A system rebuilt from a snapshot of either backend, continuing where it
   * was taken. Its precision is the snapshot's (a float32 snapshot restores
   * in float32 only). Throws SparkworksInputError for a corrupt, truncated or
   * unknown-version snapshot, before building anything.
   */
  static restore(snapshot: SnapshotBytes, options: { precision?: Precision } = {}): CpuParticleSystem {
    const decoded = decodeSnapshot(snapshot);
    const { config } = decoded;
    const precision = options.precision ?? config.precision;
    if (precision !== config.precision) {
      throw snapshotRefusal(
        `a ${config.precision} snapshot cannot restore in ${precision} precision (it would not continue bit for bit)`,
        'precision',
        precision,
      );
    }
    const system = new CpuParticleSystem({ ...creationOptions(config), precision });
    applyCpuSystemState(system, system.health, decoded);
    return system;
  }

  setColliders(colliders: readonly ColliderInit[]): void {
    this.checkUsable();
    this.collisions.colliders = prepareColliders(colliders);
  }

  setLinks(links: readonly LinkInit[]): void {
    this.checkUsable();
    this.collisions.links = prepareLinks(links, this.capacity);
  }

  /**
   * Cyclone's Particle::integrate for every particle and nothing else: no
   * forces first, no collisions after (`step` is `accumulateForces`, this,
   * then the collisions). The force tests use the halves to carry their
   * error bound between them.
   */
  integrateOnly(dt: number): void {
    this.checkUsable();
    checkTimeStep(dt);
    integrate(this.state, this.capacity, Math.fround(dt), this.variant, this.round, this.checkedHealth);
  }

  /** The emitters' rates, bursts and motion; null without emitters. */
  get emitters(): EmitterSet | null {
    return this.lifecycle?.emitters ?? null;
  }

  async readStats(): Promise<SystemStats> {
    this.checkUsable();
    this.health.checkRead();
    return { ...(this.lifecycle ? this.lifecycle.stats() : staticStats(this.capacity)), ...this.health.stats() };
  }

  async readLifecycle(): Promise<LifecycleSnapshot | null> {
    this.checkUsable();
    const lifecycle = this.lifecycle;
    if (!lifecycle) return null;
    return {
      live: lifecycle.liveSlots(),
      free: lifecycle.freeSlots(),
      life: StructArray.from(LIFE, lifecycle.life.words),
      stats: lifecycle.stats(),
    };
  }

  async read(start = 0, count = this.capacity - start): Promise<ParticleSnapshot> {
    const packed = await this.readPacked(start, count);
    return unpackSnapshot(packed, count, (n) => new Float32Array(n));
  }

  /** Like `read`, in the system's own precision (Float64Array for `float64`). */
  readExact(start = 0, count = this.capacity - start): ParticleSnapshot<FloatArray> {
    this.checkUsable();
    checkRange(start, count, this.capacity);
    this.health.checkRead();
    const packed = this.state.slice(start * FLOATS_PER_PARTICLE, (start + count) * FLOATS_PER_PARTICLE);
    return unpackSnapshot<FloatArray>(packed, count, (n) =>
      this.precision === 'float32' ? new Float32Array(n) : new Float64Array(n),
    );
  }

  async readPacked(start = 0, count = this.capacity - start): Promise<Float32Array> {
    this.checkUsable();
    checkRange(start, count, this.capacity);
    this.health.checkRead();
    return Float32Array.from(this.state.subarray(start * FLOATS_PER_PARTICLE, (start + count) * FLOATS_PER_PARTICLE));
  }

  /** Cyclone's per-particle getters, gl-matrix style: fills and returns `out`. */
  getPosition(index: number, out: vec3 = vec3.create()): vec3 {
    return this.getVector(index, 'position', out);
  }
  /** Cyclone's getVelocity: fills and returns `out`. */
  getVelocity(index: number, out: vec3 = vec3.create()): vec3 {
    return this.getVector(index, 'velocity', out);
  }
  /** Cyclone's getAcceleration: fills and returns `out`. */
  getAcceleration(index: number, out: vec3 = vec3.create()): vec3 {
    return this.getVector(index, 'acceleration', out);
  }
  /** Infinity for an immovable particle (inverse mass 0), as Cyclone's getMass. */
  getMass(index: number): number {
    checkRange(index, 1, this.capacity);
    const inverseMass = this.state[floatIndex(index, 'inverseMass')] as number;
    return inverseMass === 0 ? Number.POSITIVE_INFINITY : 1 / inverseMass;
  }
  /** Cyclone's hasFiniteMass: false for an immovable particle (inverse mass 0). */
  hasFiniteMass(index: number): boolean {
    checkRange(index, 1, this.capacity);
    return (this.state[floatIndex(index, 'inverseMass')] as number) > 0;
  }

  private getVector(index: number, name: 'position' | 'velocity' | 'acceleration', out: vec3): vec3 {
    checkRange(index, 1, this.capacity);
    const at = index * FLOATS_PER_PARTICLE + attributeOffset(name);
    return vec3.set(out, this.state[at] as number, this.state[at + 1] as number, this.state[at + 2] as number);
  }

  /** Like the GPU system's: every later call throws, and its forces and springs refuse changes. Safe twice. */
  destroy(): void {
    // No memory to free (the state is ordinary memory), but a destroyed system must not go on stepping.
    this.destroyed = true;
    this.forces.close('CpuParticleSystem');
    this.springs.close('CpuParticleSystem');
  }

  private checkUsable(): void {
    if (this.destroyed) throw new Error('this CpuParticleSystem has been destroyed');
  }
}
