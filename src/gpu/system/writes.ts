/**
 * The system's writes into its particle records: each checks its input (the
 * range, the emitters' slots), notes what it wrote (the largest radius for
 * the grid, what the step may skip) and returns what to record, so a
 * refused write changes nothing and the system submits the rest.
 */
import type { RadiusBound } from '../../core/collisions/world';
import { largestRadius } from '../../core/collisions/world';
import { checkPermanentRange } from '../../core/emitters/lifecycle';
import {
  checkPackedRecords,
  checkParticleArrays,
  checkParticleList,
  checkRange,
  packParticles,
  prepareFieldValues,
  prepareForces,
  prepareParticleArrays,
  prepareRecords,
  type ParticleArrays,
  type ParticleInit,
  type SettableField,
} from '../../core/particles';
import type { SystemParts } from './assembly';
import type { WrittenState } from './writtenState';

/** What a write records into the submit's encoder. */
export type WriteRecord = (encoder: GPUCommandEncoder) => void;

export class ParticleWrites {
  constructor(
    private readonly parts: SystemParts,
    private readonly written: WrittenState,
  ) {}

  private get radii(): RadiusBound {
    return this.parts.radii;
  }

  /** Checks a write of `count` slots from `start`: in range, and clear of the emitters' slots. */
  private checkRange(start: number, count: number): void {
    checkRange(start, count, this.parts.state.capacity);
    checkPermanentRange(this.parts.lifecycle?.prepared ?? null, start, count);
  }

  particles(start: number, particles: readonly ParticleInit[]): WriteRecord {
    checkParticleList(particles);
    this.checkRange(start, particles.length);
    const packed = packParticles(particles);
    this.radii.note(largestRadius(packed));
    this.written.wrotePacked(start, packed);
    return () => this.parts.state.write(start, packed);
  }

  attributes(start: number, attributes: ParticleArrays): WriteRecord {
    const shape = checkParticleArrays(attributes);
    this.checkRange(start, shape.count);
    const prepared = prepareParticleArrays(shape, start);
    this.radii.note(prepared.largestRadius);
    this.written.wroteAttributes(start, prepared.count, attributes);
    return () =>
      this.parts.state.writeChunked(start, prepared.count, (chunk, first, n) => prepared.pack(chunk, 0, first, n));
  }

  packed(start: number, records: Float32Array): WriteRecord {
    const count = checkPackedRecords(records);
    this.checkRange(start, count);
    this.radii.note(prepareRecords(records, start).largestRadius);
    this.written.wrotePacked(start, records);
    return () => this.parts.state.write(start, records);
  }

  field(field: SettableField, start: number, values: ArrayLike<number>): WriteRecord {
    const prepared = prepareFieldValues(field, values);
    this.checkRange(start, prepared.count);
    if (prepared.attribute === 'radius') this.radii.noteAll(prepared.values);
    this.written.wroteField(prepared.attribute, prepared.values);
    return (encoder) =>
      this.parts.scatterPass.encode(encoder, prepared.attribute, start, prepared.count, prepared.values, false);
  }

  forces(start: number, forces: ArrayLike<number>): WriteRecord {
    const prepared = prepareForces(forces);
    const count = prepared.length / 3;
    this.checkRange(start, count);
    this.written.addedForces();
    return (encoder) => this.parts.scatterPass.encode(encoder, 'forceAccum', start, count, prepared, true);
  }
}
