/**
 * The CPU reference's writes into its packed state: each checks its input,
 * the range and the permanent slots before it writes anything, and notes the
 * largest radius written for the collision grid.
 */
import { largestRadius, type CpuCollisionWorld } from '../collisions/world';
import { checkPermanentRange, type CpuLifecycle } from '../emitters/lifecycle';
import type { Rounding } from '../integrate';
import { ATTRIBUTES, FLOATS_PER_PARTICLE, floatIndex, type AttributeName } from '../layout';
import { checkRange } from '../input/callArguments';
import { prepareFieldValues, prepareForces, type SettableField } from '../input/fieldWrites';
import { checkPackedRecords, prepareRecords } from '../input/packedRecords';
import { checkParticleArrays, prepareParticleArrays, type ParticleArrays } from '../input/particleArrays';
import { checkParticleList, packParticles, type FloatArray, type ParticleInit } from '../input/particleRecords';

/** The parts of a CPU system a write touches. */
export interface CpuWriteTarget {
  /** Packed records, FLOATS_PER_PARTICLE floats a particle. */
  readonly state: FloatArray;
  readonly capacity: number;
  readonly lifecycle: CpuLifecycle | null;
  readonly collisions: CpuCollisionWorld;
}

/** Checks the range a write covers: inside the capacity, and clear of the emitters' slots. */
function checkWriteRange(target: CpuWriteTarget, start: number, count: number): void {
  checkRange(start, count, target.capacity);
  checkPermanentRange(target.lifecycle, start, count);
}

export function writeParticleRecords(target: CpuWriteTarget, start: number, particles: readonly ParticleInit[]): void {
  checkParticleList(particles);
  checkWriteRange(target, start, particles.length);
  const packed = packParticles(particles);
  target.state.set(packed, start * FLOATS_PER_PARTICLE);
  target.collisions.radius.note(largestRadius(packed));
}

export function writeAttributeArrays(target: CpuWriteTarget, start: number, attributes: ParticleArrays): void {
  const shape = checkParticleArrays(attributes);
  checkWriteRange(target, start, shape.count);
  const prepared = prepareParticleArrays(shape, start);
  const at = start * FLOATS_PER_PARTICLE;
  if (target.state instanceof Float32Array) {
    prepared.pack(target.state, at, 0, prepared.count);
  } else {
    // float64 precision stores what writeParticles stores: float32 values.
    const packed = new Float32Array(prepared.count * FLOATS_PER_PARTICLE);
    prepared.pack(packed, 0, 0, prepared.count);
    target.state.set(packed, at);
  }
  target.collisions.radius.note(prepared.largestRadius);
}

export function writePackedRecords(target: CpuWriteTarget, start: number, records: Float32Array): void {
  const count = checkPackedRecords(records);
  checkWriteRange(target, start, count);
  const { largestRadius } = prepareRecords(records, start);
  target.state.set(records, start * FLOATS_PER_PARTICLE);
  target.collisions.radius.note(largestRadius);
}

export function writeField(
  target: CpuWriteTarget,
  round: Rounding,
  field: SettableField,
  start: number,
  values: ArrayLike<number>,
): void {
  const prepared = prepareFieldValues(field, values);
  checkWriteRange(target, start, prepared.count);
  scatter(target.state, round, start, prepared, false);
  if (prepared.attribute === 'radius') target.collisions.radius.noteAll(prepared.values);
}

export function addForceValues(
  target: CpuWriteTarget,
  round: Rounding,
  start: number,
  forces: ArrayLike<number>,
): void {
  const prepared = prepareForces(forces);
  checkWriteRange(target, start, prepared.length / 3);
  scatter(target.state, round, start, { attribute: 'forceAccum', count: prepared.length / 3, values: prepared }, true);
}

/** Values for one attribute of `count` particles, `size` floats each (the attribute's size). */
interface AttributeValues {
  readonly attribute: AttributeName;
  readonly count: number;
  readonly values: Float32Array;
}

/** The CPU twin of shaders/shared/scatter.wgsl: writes (or adds, with `add`) `values` from slot `start`. */
function scatter(state: FloatArray, round: Rounding, start: number, write: AttributeValues, add: boolean): void {
  const { attribute, count, values } = write;
  const { size } = ATTRIBUTES[attribute];
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < size; c++) {
      const at = floatIndex(start + i, attribute, c);
      const value = values[i * size + c] as number;
      state[at] = add ? round((state[at] as number) + value) : value;
    }
  }
}
