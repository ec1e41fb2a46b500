/**
 * The CPU reference system: the same API as the GPU system, over the same
 * packed layout, stepping with src/core/integrate.ts. Used by the tests to
 * check the GPU, and usable as a CPU fallback.
 */
import { vec3 } from 'gl-matrix';
import type { ParticleSystemApi, ParticleSystemOptions } from './api';
import { integrate, type Rounding } from './integrate';
import { ATTRIBUTES, FLOATS_PER_PARTICLE, attributeOffset, floatIndex, type AttributeName } from './layout';
import {
  checkCapacity,
  fillDefaultParticles,
  checkRange,
  checkStepCount,
  checkTimeStep,
  packParticles,
  prepareFieldValues,
  prepareForces,
  unpackSnapshot,
  type FloatArray,
  type ParticleInit,
  type ParticleSnapshot,
  type SettableField,
} from './particles';
import { resolveVariant, type Variant } from './variants';

/**
 * `float32`: every operation rounds to float32, as the GPU does (the default).
 * `float64`: no rounding, to measure float32's own error.
 */
export type Precision = 'float32' | 'float64';

export interface CpuParticleSystemOptions extends ParticleSystemOptions {
  precision?: Precision;
}

/** Far more than any test needs; keeps a typo from allocating the whole heap. */
const CPU_MAX_PARTICLES = 1 << 26;

export class CpuParticleSystem implements ParticleSystemApi {
  readonly capacity: number;
  readonly variant: Variant;
  readonly precision: Precision;
  /** Packed records, FLOATS_PER_PARTICLE floats a particle. */
  readonly state: FloatArray;
  private readonly round: Rounding;

  constructor(options: CpuParticleSystemOptions) {
    this.variant = resolveVariant(options);
    checkCapacity(options.capacity, CPU_MAX_PARTICLES, 'the CPU reference');
    this.capacity = options.capacity;
    this.precision = options.precision ?? 'float32';
    this.state =
      this.precision === 'float32'
        ? new Float32Array(this.capacity * FLOATS_PER_PARTICLE)
        : new Float64Array(this.capacity * FLOATS_PER_PARTICLE);
    this.round = this.precision === 'float32' ? Math.fround : (x) => x;
    // Every slot starts as Cyclone's default particle: at rest, mass 1, no damping.
    fillDefaultParticles(this.state, 0, this.capacity);
  }

  writeParticles(start: number, particles: readonly ParticleInit[]): void {
    checkRange(start, particles.length, this.capacity);
    this.state.set(packParticles(particles), start * FLOATS_PER_PARTICLE);
  }

  setField(field: SettableField, start: number, values: ArrayLike<number>): void {
    const prepared = prepareFieldValues(field, values);
    checkRange(start, prepared.count, this.capacity);
    this.scatter(prepared.attribute, start, prepared.count, prepared.values, false);
  }

  addForces(start: number, forces: ArrayLike<number>): void {
    const prepared = prepareForces(forces);
    checkRange(start, prepared.length / 3, this.capacity);
    this.scatter('forceAccum', start, prepared.length / 3, prepared, true);
  }

  /** The CPU twin of shaders/scatter.wgsl. */
  private scatter(attribute: AttributeName, start: number, count: number, values: Float32Array, add: boolean): void {
    const { size } = ATTRIBUTES[attribute];
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < size; c++) {
        const at = floatIndex(start + i, attribute, c);
        const value = values[i * size + c] as number;
        this.state[at] = add ? this.round((this.state[at] as number) + value) : value;
      }
    }
  }

  step(dt: number): void {
    checkTimeStep(dt);
    integrate(this.state, this.capacity, Math.fround(dt), this.variant, this.round);
  }

  stepMany(dt: number, steps: number): void {
    checkTimeStep(dt);
    checkStepCount(steps);
    for (let s = 0; s < steps; s++) integrate(this.state, this.capacity, Math.fround(dt), this.variant, this.round);
  }

  async read(start = 0, count = this.capacity - start): Promise<ParticleSnapshot> {
    const packed = await this.readPacked(start, count);
    return unpackSnapshot(packed, count, (n) => new Float32Array(n));
  }

  /** Like `read`, in the system's own precision (Float64Array for `float64`). */
  readExact(start = 0, count = this.capacity - start): ParticleSnapshot<FloatArray> {
    checkRange(start, count, this.capacity);
    const packed = this.state.slice(start * FLOATS_PER_PARTICLE, (start + count) * FLOATS_PER_PARTICLE);
    return unpackSnapshot<FloatArray>(packed, count, (n) =>
      this.precision === 'float32' ? new Float32Array(n) : new Float64Array(n),
    );
  }

  async readPacked(start = 0, count = this.capacity - start): Promise<Float32Array> {
    checkRange(start, count, this.capacity);
    return Float32Array.from(this.state.subarray(start * FLOATS_PER_PARTICLE, (start + count) * FLOATS_PER_PARTICLE));
  }

  /** Cyclone's per-particle getters, gl-matrix style: fills and returns `out`. */
  getPosition(index: number, out: vec3 = vec3.create()): vec3 {
    return this.getVector(index, 'position', out);
  }
  getVelocity(index: number, out: vec3 = vec3.create()): vec3 {
    return this.getVector(index, 'velocity', out);
  }
  getAcceleration(index: number, out: vec3 = vec3.create()): vec3 {
    return this.getVector(index, 'acceleration', out);
  }
  /** Infinity for an immovable particle (inverse mass 0), as Cyclone's getMass. */
  getMass(index: number): number {
    checkRange(index, 1, this.capacity);
    const inverseMass = this.state[floatIndex(index, 'inverseMass')] as number;
    return inverseMass === 0 ? Number.POSITIVE_INFINITY : 1 / inverseMass;
  }
  hasFiniteMass(index: number): boolean {
    checkRange(index, 1, this.capacity);
    return (this.state[floatIndex(index, 'inverseMass')] as number) > 0;
  }

  private getVector(index: number, name: 'position' | 'velocity' | 'acceleration', out: vec3): vec3 {
    checkRange(index, 1, this.capacity);
    const at = index * FLOATS_PER_PARTICLE + attributeOffset(name);
    return vec3.set(out, this.state[at] as number, this.state[at + 1] as number, this.state[at + 2] as number);
  }

  destroy(): void {
    // Nothing to free: the state is ordinary memory. Kept for the shared API.
  }
}
