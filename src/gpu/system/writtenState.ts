/**
 * What has been written into a system's particle records, and so what its
 * step may skip: the slots whose initial records are still to be written
 * (creating and filling a system uploads its state once), whether any force
 * accumulator may hold a force (else the step neither reads nor clears them,
 * StepParams.forceAccumulator of shaders/step/integrate.wgsl), and whether a
 * movable particle's acceleration or radius may hold anything but +0 (else
 * the step does not read that lane, ACCELERATION_LANE). Every write method of
 * the system reports here; a -0 counts as written, since it can change a
 * sum's sign.
 */
import { FLOATS_PER_PARTICLE, OFFSET, type AttributeName } from '../../core/layout';
import type { ParticleArrays } from '../../core/particles';

/** What the acceleration|radius lanes of movable particles may hold other than +0. */
export interface LaneHolds {
  acceleration: boolean;
  radius: boolean;
}

/** Slots [start, end) whose initial record (Cyclone's default particle, or a parked one) is `record`. */
export interface InitialRange {
  start: number;
  end: number;
  record: Float32Array;
}

/** Whether packed records hold a force accumulator other than +0. */
function holdsForces(records: Float32Array): boolean {
  const words = new Uint32Array(records.buffer, records.byteOffset, records.length);
  for (let base = OFFSET.FORCE_ACCUM; base < words.length; base += FLOATS_PER_PARTICLE) {
    if ((words[base] as number) !== 0 || (words[base + 1] as number) !== 0 || (words[base + 2] as number) !== 0)
      return true;
  }
  return false;
}

/**
 * What packed records' movable particles (inverse mass not <= 0: the step
 * returns before reading an immovable one's lane) hold in the
 * acceleration|radius lane other than +0.
 */
export function laneHolds(records: Float32Array): LaneHolds {
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

/** Whether `values` hold anything other than +0. */
function holdsNonZero(values: ArrayLike<number> | undefined): boolean {
  return values !== undefined && Array.prototype.some.call(values, (v: number) => !Object.is(v, 0));
}

export class WrittenState {
  /** See the module comment; set by every call that may write an accumulator, cleared by a step. */
  private accumulators = false;
  private lanes: LaneHolds = { acceleration: false, radius: false };

  constructor(
    private readonly capacity: number,
    /** The slots whose initial records no write has covered yet. */
    private unwritten: InitialRange[],
  ) {}

  /** Whether any force accumulator may hold a force: the step reads and clears them only then. */
  get accumulatorsMayHoldForces(): boolean {
    return this.accumulators;
  }

  /** What the movable particles' acceleration|radius lanes may hold. */
  get laneMayHold(): Readonly<LaneHolds> {
    return this.lanes;
  }

  /** Slots [start, start + count) are about to be written whole: their initial records need not be. */
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
   * Hands `write` the initial records no write has covered, once: called
   * before anything can read the state (every submit, encode and read, and
   * every getter that hands the buffer out).
   */
  settle(write: (range: InitialRange) => void): void {
    if (this.unwritten.length === 0) return;
    const ranges = this.unwritten;
    this.unwritten = [];
    for (const range of ranges) write(range);
  }

  /**
   * Slots [start, start + count) written with records whose lanes hold
   * `holds`: a write of every slot says what they all hold, any other adds to it.
   */
  private noteLanes(start: number, count: number, holds: LaneHolds): void {
    if (start === 0 && count === this.capacity) this.lanes = { ...holds };
    else
      this.lanes = {
        acceleration: this.lanes.acceleration || holds.acceleration,
        radius: this.lanes.radius || holds.radius,
      };
  }

  /** Whole packed records written at `start`. */
  wrotePacked(start: number, records: Float32Array): void {
    const count = records.length / FLOATS_PER_PARTICLE;
    this.cover(start, count);
    if (holdsForces(records)) this.accumulators = true;
    this.noteLanes(start, count, laneHolds(records));
  }

  /** Whole records written from attribute arrays at `start` (missing attributes are the default particle's +0). */
  wroteAttributes(start: number, count: number, attributes: ParticleArrays): void {
    this.cover(start, count);
    if (holdsNonZero(attributes.forceAccum)) this.accumulators = true;
    this.noteLanes(start, count, {
      acceleration: holdsNonZero(attributes.acceleration),
      radius: holdsNonZero(attributes.radius),
    });
  }

  /** One field of some slots set (setField). */
  wroteField(field: AttributeName, values: ArrayLike<number>): void {
    if (field === 'inverseMass') {
      // A mass given to an immovable particle brings back the accumulator its steps skipped, and the
      // acceleration and radius they never read (a killed one's radius).
      this.accumulators = true;
      this.lanes = { acceleration: true, radius: true };
    }
    if (field === 'acceleration' && holdsNonZero(values)) this.lanes = { ...this.lanes, acceleration: true };
    if (field === 'radius' && holdsNonZero(values)) this.lanes = { ...this.lanes, radius: true };
  }

  /** Forces added to accumulators (addForces, a force pass recorded). */
  addedForces(): void {
    this.accumulators = true;
  }

  /** The buffer handed to code that may write anything (or a restore through it). */
  mayHoldAnything(): void {
    this.accumulators = true;
    this.lanes = { acceleration: true, radius: true };
  }

  /** Every slot written with these records (a restore): nothing is left to write, and the lanes are theirs. */
  restored(records: Float32Array): void {
    this.unwritten = [];
    this.accumulators = true;
    this.lanes = laneHolds(records);
  }

  /** A step recorded: every movable particle's accumulator is clear. */
  stepped(): void {
    this.accumulators = false;
  }

  /** Destroyed: nothing left to write. */
  clear(): void {
    this.unwritten = [];
  }
}
