/**
 * Particle input, validated once for every backend, and packing into (and out
 * of) the one layout. Nothing here knows about the GPU.
 */
import { SparkworksInputError } from './errors';
import { isFiniteFloat32, validator, type Validator } from './validation';
import {
  ATTRIBUTES,
  ATTRIBUTE_NAMES,
  FLOATS_PER_PARTICLE,
  OFFSET,
  attributeOffset,
  type AttributeName,
} from './layout';

/** A vector as the API takes it: [x, y, z], a typed array, or any array-like of three numbers. */
export type Vec3Like = ArrayLike<number>;
/** The arrays state is read into: Float32Array, or Float64Array from the CPU reference in float64. */
export type FloatArray = Float32Array | Float64Array;

/** One particle as a user describes it: Cyclone's setters in one record. */
export interface ParticleInit {
  /** Position, m; the one field that is required. */
  position: Vec3Like;
  /** Default [0, 0, 0]. */
  velocity?: Vec3Like;
  /** Constant acceleration such as gravity (Cyclone keeps it per particle). Default [0, 0, 0]. */
  acceleration?: Vec3Like;
  /** Mass > 0. Give `mass` or `inverseMass`, not both. Default mass 1. */
  mass?: number;
  /** 1/mass >= 0; 0 makes the particle immovable (Cyclone's `hasFiniteMass` false). */
  inverseMass?: number;
  /** Share of velocity kept (per second or per step, by the damping mode), in [0, 1]. Default 1. */
  damping?: number;
  /** Collision radius >= 0 (colliders and particle-particle contacts). Default 0: a point. */
  radius?: number;
}

/** The state of `count` particles, one typed array per attribute (vec3s packed xyz). */
export type ParticleSnapshot<T extends FloatArray = Float32Array> = {
  /** Number of particles read. */
  readonly count: number;
} & {
  readonly [K in AttributeName]: T;
};

/** Attributes a user may set in bulk, with the stored attribute each one writes. */
export const SETTABLE_FIELDS = {
  /** xyz per particle. */
  position: 'position',
  /** xyz per particle. */
  velocity: 'velocity',
  /** xyz per particle. */
  acceleration: 'acceleration',
  /** One mass > 0 per particle, stored as its inverse. */
  mass: 'inverseMass',
  /** One inverse mass >= 0 per particle (0: immovable). */
  inverseMass: 'inverseMass',
  /** One damping in [0, 1] per particle. */
  damping: 'damping',
  /** One collision radius >= 0 per particle. */
  radius: 'radius',
} as const satisfies Record<string, AttributeName>;
/** A field `setField` writes: `position`, `velocity`, `acceleration`, `mass`, `inverseMass`, `damping` or `radius`. */
export type SettableField = keyof typeof SETTABLE_FIELDS;

const check: Validator = validator();

export function checkTimeStep(dt: number): void {
  // The GPU steps with float32(dt), and an adapter may flush a subnormal float32 to 0 (SwiftShader does):
  // a dt below the smallest normal float32 would be a silent no-op there while the CPU moved.
  const rule =
    'the time step must be finite and > 0, at least the smallest normal float32 1.1754944e-38 (Cyclone asserts duration > 0)';
  check.finite('dt', dt, rule, (x) => Number.isFinite(x) && Math.fround(x) >= FLOAT32_MIN_NORMAL);
}

export function checkStepCount(steps: number): void {
  check.integer('steps', steps, 0, Infinity);
}

/**
 * A capacity: an integer >= 1 and at most `maxParticles`, the most that
 * `limitName` allows; a refusal ends with `advice` (how to raise the limit).
 */
export function checkCapacity(capacity: number, maxParticles: number, limitName: string, advice = ''): void {
  check.integer('capacity', capacity, 1, Infinity);
  if (capacity > maxParticles) {
    check.refuse('capacity', capacity, `exceeds ${maxParticles} particles, the most that ${limitName} allows${advice}`);
  }
}

export function checkRange(start: number, count: number, capacity: number): void {
  check.integer('start', start, 0, Infinity);
  check.integer('count', count, 0, Infinity);
  if (start + count > capacity) {
    throw new SparkworksInputError(
      `particle range [${start}, ${start + count}) exceeds the capacity of ${capacity}`,
      'range',
      [start, start + count],
    );
  }
}

/** The smallest normal float32. GPUs may flush anything smaller to zero. */
export const FLOAT32_MIN_NORMAL = 2 ** -126;

export { isFiniteFloat32 };
/** isFiniteFloat32 as a binding of this module, for the predicates in loops (see STRIDE below for why). */
const finiteFloat32 = isFiniteFloat32;

/**
 * A stored inverse mass is 0 (immovable) or a normal float32: a subnormal one
 * would be flushed to 0 by some GPUs and not by the CPU reference, so the two
 * would disagree on whether the particle moves.
 */
export function isValidInverseMass(inverseMass: number): boolean {
  if (typeof inverseMass !== 'number' || !finiteFloat32(inverseMass)) return false;
  const stored = Math.fround(inverseMass);
  return stored === 0 || stored >= FLOAT32_MIN_NORMAL;
}
export function isValidMass(mass: number): boolean {
  return (
    typeof mass === 'number' &&
    Number.isFinite(mass) &&
    mass > 0 &&
    Math.fround(1 / mass) >= FLOAT32_MIN_NORMAL &&
    finiteFloat32(1 / mass)
  );
}
/**
 * A damping in [0, 1] whose float32 is 0 or normal: a subnormal one is
 * flushed to 0 by some GPUs (SwiftShader) and not by the CPU reference, and
 * per-second damping keeps d^dt, about a fifth of the velocity a step at 1/60 s
 * for d = 1e-40 against none: the backends would disagree (as for dt).
 */
export function isValidDamping(damping: number): boolean {
  if (typeof damping !== 'number' || !(damping >= 0 && damping <= 1)) return false;
  const stored = Math.fround(damping);
  return stored === 0 || stored >= FLOAT32_MIN_NORMAL;
}
/**
 * The largest collision radius, 2^62 (about 4.6e18 m): the contact tests
 * square the reach of two particles, (2 r + skin)², which must stay finite in
 * float32 (a radius of 3e38 with particle collisions made NaN; issue 17).
 */
export const MAX_RADIUS = 2 ** 62;

/** A collision radius: finite, >= 0 and at most MAX_RADIUS (negative radii mark killed particles, set only by a kill collider). */
export function isValidRadius(radius: number): boolean {
  return typeof radius === 'number' && radius >= 0 && radius <= MAX_RADIUS;
}

/** The rules, worded once for every caller (the API, the scene file, the CLI). */
export const RULES = {
  mass: 'mass must be finite and > 0, with 1/mass a normal float32 (mass in (0, 8.5e37]); an immovable particle has inverseMass 0',
  inverseMass: 'inverseMass must be 0 or a normal float32 in [1.18e-38, 3.4e38]',
  damping:
    'damping must be in [0, 1] (the share of velocity kept), 0 or at least 1.18e-38 (a normal float32: a GPU may flush a subnormal one to 0)',
  radius: 'radius must be finite and >= 0 (0: a point), at most 4.6e18 (2^62: squared contact distances stay finite)',
  vector: 'must be finite as a float32 (|x| < 3.4e38)',
} as const;
const MASS_RULE = RULES.mass;
const INVERSE_MASS_RULE = RULES.inverseMass;
const DAMPING_RULE = RULES.damping;

function checkVector(what: string, v: Vec3Like | undefined): void {
  check.vector(what, v, 'must be 3 finite numbers', { componentRule: RULES.vector });
}

/** Converts and validates one user field value into the stored attribute's value. */
function storedScalar(field: 'mass' | 'inverseMass' | 'damping' | 'radius', what: string, value: number): number {
  switch (field) {
    case 'mass':
      if (!isValidMass(value)) check.refuse(what, value, MASS_RULE);
      return 1 / value;
    case 'inverseMass':
      if (!isValidInverseMass(value)) check.refuse(what, value, INVERSE_MASS_RULE);
      return value;
    case 'damping':
      if (!isValidDamping(value)) check.refuse(what, value, DAMPING_RULE);
      return value;
    case 'radius':
      if (!isValidRadius(value)) check.refuse(what, value, RULES.radius);
      return value;
  }
}

/**
 * Validates whole particle records and packs them into the layout, force
 * accumulator cleared. Throws before returning anything, so a bad record
 * leaves the caller's state untouched.
 */
/** A list of particles, or a clear refusal (not a TypeError) for anything else. */
export function checkParticleList(particles: unknown, what = 'particles'): readonly ParticleInit[] {
  if (!Array.isArray(particles)) check.refuse(what, particles, 'must be an array of particles');
  return particles as readonly ParticleInit[];
}

/** Numbers in an array or typed array, or a clear refusal for anything else. */
function checkNumberList(what: string, values: unknown): ArrayLike<number> {
  if (!Array.isArray(values) && !(ArrayBuffer.isView(values) && !(values instanceof DataView))) {
    check.refuse(what, values, 'must be an array (or typed array) of numbers');
  }
  return values as ArrayLike<number>;
}

export function packParticles(particles: readonly ParticleInit[], what = 'particles'): Float32Array {
  checkParticleList(particles, what);
  const packed = new Float32Array(particles.length * FLOATS_PER_PARTICLE);
  particles.forEach((particle, i) => {
    const at = `${what}[${i}]`;
    check.object(at, particle);
    const base = i * FLOATS_PER_PARTICLE;
    const zero = [0, 0, 0];
    const vectors = [
      ['position', particle.position],
      ['velocity', particle.velocity ?? zero],
      ['acceleration', particle.acceleration ?? zero],
    ] as const;
    for (const [name, value] of vectors) {
      checkVector(`${at}.${name}`, value);
      packed.set(Array.from(value), base + attributeOffset(name));
    }
    if (particle.mass !== undefined && particle.inverseMass !== undefined) {
      check.refuse(`${at}.mass`, particle.mass, 'give mass or inverseMass, not both');
    }
    packed[base + attributeOffset('inverseMass')] =
      particle.inverseMass !== undefined
        ? storedScalar('inverseMass', `${at}.inverseMass`, particle.inverseMass)
        : storedScalar('mass', `${at}.mass`, particle.mass ?? 1);
    packed[base + attributeOffset('damping')] = storedScalar('damping', `${at}.damping`, particle.damping ?? 1);
    packed[base + attributeOffset('radius')] = storedScalar('radius', `${at}.radius`, particle.radius ?? 0);
  });
  return packed;
}

/**
 * Validates a bulk field write and returns the stored values, one per particle
 * component (`count * size` floats), and the attribute they go to.
 */
export function prepareFieldValues(
  field: SettableField,
  values: ArrayLike<number>,
): { attribute: AttributeName; count: number; values: Float32Array } {
  check.oneOf('field', field, Object.keys(SETTABLE_FIELDS));
  checkNumberList('values', values);
  const attribute = SETTABLE_FIELDS[field];
  const size = ATTRIBUTES[attribute].size;
  if (values.length % size !== 0) {
    check.refuse(`${field}.length`, values.length, `must be a multiple of ${size}`);
  }
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const what = `${field}[${i}]`;
    const value = values[i] as number;
    if (field === 'mass' || field === 'inverseMass' || field === 'damping' || field === 'radius') {
      out[i] = storedScalar(field, what, value);
    } else if (!isFiniteFloat32(value)) {
      check.refuse(what, value, RULES.vector);
    } else {
      out[i] = value;
    }
  }
  return { attribute, count: values.length / size, values: out };
}

/** Validates forces to add (xyz per particle); returns them as float32. */
export function prepareForces(forces: ArrayLike<number>): Float32Array {
  checkNumberList('forces', forces);
  if (forces.length % 3 !== 0) check.refuse('forces.length', forces.length, 'must be a multiple of 3');
  const out = new Float32Array(forces.length);
  for (let i = 0; i < forces.length; i++) {
    const value = forces[i] as number;
    if (!isFiniteFloat32(value)) check.refuse(`forces[${i}]`, value, RULES.vector);
    out[i] = value;
  }
  return out;
}

/** Cyclone's default particle (at rest at the origin, mass 1, damping 1) in slots [start, start + count). */
export function fillDefaultParticles(packed: FloatArray, start: number, count: number): void {
  packed.fill(0, start * FLOATS_PER_PARTICLE, (start + count) * FLOATS_PER_PARTICLE);
  const inverseMass = attributeOffset('inverseMass');
  const damping = attributeOffset('damping');
  for (let i = start; i < start + count; i++) {
    packed[i * FLOATS_PER_PARTICLE + inverseMass] = 1;
    packed[i * FLOATS_PER_PARTICLE + damping] = 1;
  }
}

/** Splits packed records into one array per attribute. */
export function unpackSnapshot<T extends FloatArray>(
  packed: T,
  count: number,
  make: (length: number) => T,
): ParticleSnapshot<T> {
  const snapshot: Record<string, unknown> = { count };
  for (const name of ATTRIBUTE_NAMES) {
    const { size } = ATTRIBUTES[name];
    const offset = attributeOffset(name);
    const out = make(count * size);
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < size; c++) out[i * size + c] = packed[i * FLOATS_PER_PARTICLE + offset + c] as number;
    }
    snapshot[name] = out;
  }
  return snapshot as ParticleSnapshot<T>;
}

// ---------------------------------------------------------------------------
// Bulk writes from typed arrays (writeAttributes, writePacked)
//
// The same rules as writeParticles, checked in one pass per attribute: a
// tight loop over each array that calls the same predicates (isFiniteFloat32,
// isValidMass, ...) and builds no object or string unless it refuses. Every
// check runs before anything is written, so a refusal changes nothing.

/**
 * Whole particles as one array per attribute, vectors xyz per particle
 * (particle i's position is position[3i], position[3i + 1], position[3i + 2];
 * its damping is damping[i]): the shape `read()` returns, so a snapshot can be
 * written back. As with ParticleInit, attributes left out take Cyclone's
 * defaults (at rest, mass 1, damping 1, radius 0) and the force accumulator
 * is cleared unless `forceAccum` is given.
 */
export interface ParticleArrays {
  /** xyz per particle, m: required, and it gives the count (length / 3). */
  readonly position: ArrayLike<number>;
  /** Default 0. */
  readonly velocity?: ArrayLike<number>;
  /** Default 0. */
  readonly acceleration?: ArrayLike<number>;
  /** Forces already accumulated for the next step (what `read()` returns). Default 0. */
  readonly forceAccum?: ArrayLike<number>;
  /** Each > 0, stored as its inverse. Give `mass` or `inverseMass`, not both. Default mass 1. */
  readonly mass?: ArrayLike<number>;
  /** Each 0 (immovable) or a normal float32. */
  readonly inverseMass?: ArrayLike<number>;
  /** Each in [0, 1]. Default 1. */
  readonly damping?: ArrayLike<number>;
  /** Each >= 0. Default 0: a point. */
  readonly radius?: ArrayLike<number>;
  /** The number of particles, if given (a snapshot has it): must agree with the arrays. */
  readonly count?: number;
}

type ArrayField = Exclude<keyof ParticleArrays, 'count'>;

/** The fields of ParticleArrays in the order they are checked, with the attribute each writes. */
const ARRAY_FIELDS = {
  position: 'position',
  velocity: 'velocity',
  acceleration: 'acceleration',
  forceAccum: 'forceAccum',
  mass: 'inverseMass',
  inverseMass: 'inverseMass',
  damping: 'damping',
  radius: 'radius',
} as const satisfies Record<ArrayField, AttributeName>;
const ARRAY_FIELD_NAMES = Object.keys(ARRAY_FIELDS) as ArrayField[];

/** Cyclone's default particle as one record: at rest at the origin, mass 1, damping 1, radius 0. */
export function defaultRecord(): Float32Array {
  const record = new Float32Array(FLOATS_PER_PARTICLE);
  fillDefaultParticles(record, 0, 1);
  return record;
}

/** Particle arrays whose shape is checked: the arrays given, and how many particles they hold. */
export interface ParticleArraysShape {
  readonly count: number;
  readonly fields: ReadonlyMap<ArrayField, ArrayLike<number>>;
}

/**
 * Checks the shape of particle arrays (known fields, arrays of numbers, xyz
 * lengths, one count for all) without reading their values, so a range can
 * be checked before the values are.
 */
export function checkParticleArrays(arrays: unknown, what = 'attributes'): ParticleArraysShape {
  const object = check.object(what, arrays, [...ARRAY_FIELD_NAMES, 'count']);
  const fields = new Map<ArrayField, ArrayLike<number>>();
  for (const name of ARRAY_FIELD_NAMES) {
    if (object[name] !== undefined) fields.set(name, checkNumberList(name, object[name]));
  }
  const position = fields.get('position');
  if (position === undefined) {
    check.refuse('position', object.position, 'must be given: xyz per particle, in one array (a Float32Array, say)');
  }
  if (fields.has('mass') && fields.has('inverseMass')) {
    check.refuse('mass', object.mass, 'give mass or inverseMass, not both');
  }
  if (position.length % 3 !== 0) {
    check.refuse('position.length', position.length, 'must be a multiple of 3 (xyz per particle)');
  }
  const count = position.length / 3;
  for (const [name, values] of fields) {
    const size = ATTRIBUTES[ARRAY_FIELDS[name]].size;
    if (size === 3 && values.length % 3 !== 0) {
      check.refuse(`${name}.length`, values.length, 'must be a multiple of 3 (xyz per particle)');
    }
    if (values.length !== count * size) {
      check.refuse(
        `${name}.length`,
        values.length,
        `gives ${values.length / size} particles, but position.length = ${position.length} gives ${count} ` +
          `(every attribute holds one entry per particle${size === 3 ? ', xyz' : ''})`,
      );
    }
  }
  if (object.count !== undefined && object.count !== count) {
    check.refuse('count', object.count, `must match the arrays: position.length = ${position.length} gives ${count}`);
  }
  return { count, fields };
}

/** Particle arrays whose values are checked, ready to pack. */
export interface PreparedArrays {
  readonly count: number;
  /** The largest radius written (0 without radii), for the collision grid's cells. */
  readonly largestRadius: number;
  /**
   * Writes the whole records (every float, defaults for the attributes not
   * given) of particles [first, first + n) of the write into `out` from
   * float `at`.
   */
  pack(out: Float32Array, at: number, first: number, n: number): void;
}

const COMPONENT = 'xyz';

/** Refuses `values[index]` of an array field, naming the particle (and its slot) and the component. */
function refuseArrayValue(
  name: ArrayField,
  values: ArrayLike<number>,
  index: number,
  start: number,
  rule: string,
): never {
  const size = ATTRIBUTES[ARRAY_FIELDS[name]].size;
  const particle = Math.floor(index / size);
  const component = size === 3 ? `, component ${COMPONENT[index % 3]}` : '';
  check.refuse(
    `${name}[${index}]`,
    values[index],
    `${rule} (particle ${particle} of this write, slot ${start + particle}${component})`,
  );
}

/**
 * FLOATS_PER_PARTICLE as a binding of this module, for the hot loops below:
 * under Vite's SSR transform (vitest, vite-node) an imported name is read
 * through a getter of the exporting module's namespace at every use, which
 * made a loop over a million records several times slower.
 */
const STRIDE = FLOATS_PER_PARTICLE;

/** The largest finite float32, 3.4028235e38. */
const FLOAT32_MAX = (2 - 2 ** -23) * 2 ** 127;

/*
 * The first value that breaks a rule, or -1: one tight loop each, no
 * allocation. A Float32Array (what callers pass, and what is stored) takes
 * a loop of plain comparisons; anything else (a Float64Array, an array that
 * may hold non-numbers) calls the predicates writeParticles uses. For a
 * float32 x the two agree: x is finite exactly when x - x is 0 (NaN and the
 * infinities give NaN), and finite exactly when |x| <= FLOAT32_MAX; a test
 * (test/bulkWrite.test.ts) checks them on the edge values.
 */
function firstNotFinite(values: ArrayLike<number>): number {
  if (values instanceof Float32Array) {
    // x * 0 is +-0 for a finite x and NaN otherwise: four running sums per block of 4096 (twice as fast
    // here as a test per value), and the first block whose sums are not 0 is searched value by value.
    const length = values.length;
    for (let block = 0; block < length; block += 4096) {
      const end = Math.min(block + 4096, length);
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = block;
      for (; i + 3 < end; i += 4) {
        s0 += (values[i] as number) * 0;
        s1 += (values[i + 1] as number) * 0;
        s2 += (values[i + 2] as number) * 0;
        s3 += (values[i + 3] as number) * 0;
      }
      for (; i < end; i++) s0 += (values[i] as number) * 0;
      if (s0 + s1 + s2 + s3 !== 0) {
        for (i = block; i < end; i++) {
          const x = values[i] as number;
          if (x - x !== 0) return i;
        }
      }
    }
    return -1;
  }
  for (let i = 0; i < values.length; i++) if (!finiteFloat32(values[i] as number)) return i;
  return -1;
}
function firstBadMass(values: ArrayLike<number>): number {
  for (let i = 0; i < values.length; i++) if (!isValidMass(values[i] as number)) return i;
  return -1;
}
function firstBadInverseMass(values: ArrayLike<number>): number {
  if (values instanceof Float32Array) {
    for (let i = 0; i < values.length; i++) {
      const x = values[i] as number;
      if (!(x === 0 || (x >= FLOAT32_MIN_NORMAL && x <= FLOAT32_MAX))) return i;
    }
    return -1;
  }
  for (let i = 0; i < values.length; i++) if (!isValidInverseMass(values[i] as number)) return i;
  return -1;
}
function firstBadDamping(values: ArrayLike<number>): number {
  // Already plain comparisons (NaN fails both); the same loop for every array.
  for (let i = 0; i < values.length; i++) if (!isValidDamping(values[i] as number)) return i;
  return -1;
}
function firstBadRadius(values: ArrayLike<number>): number {
  if (values instanceof Float32Array) {
    for (let i = 0; i < values.length; i++) {
      const x = values[i] as number;
      if (!(x >= 0 && x <= MAX_RADIUS)) return i;
    }
    return -1;
  }
  for (let i = 0; i < values.length; i++) if (!isValidRadius(values[i] as number)) return i;
  return -1;
}
function largest(values: ArrayLike<number>): number {
  let out = 0;
  for (let i = 0; i < values.length; i++) if ((values[i] as number) > out) out = values[i] as number;
  return out;
}

/** The rule a field's values obey and the loop that checks it. */
const FIELD_CHECKS: Record<ArrayField, { rule: string; firstBad: (values: ArrayLike<number>) => number }> = {
  position: { rule: RULES.vector, firstBad: firstNotFinite },
  velocity: { rule: RULES.vector, firstBad: firstNotFinite },
  acceleration: { rule: RULES.vector, firstBad: firstNotFinite },
  forceAccum: { rule: RULES.vector, firstBad: firstNotFinite },
  mass: { rule: RULES.mass, firstBad: firstBadMass },
  inverseMass: { rule: RULES.inverseMass, firstBad: firstBadInverseMass },
  damping: { rule: RULES.damping, firstBad: firstBadDamping },
  radius: { rule: RULES.radius, firstBad: firstBadRadius },
};

/** Where the packer reads an attribute: the caller's array (`stride` floats a particle), or its default (stride 0). */
interface Source {
  readonly values: ArrayLike<number>;
  readonly stride: number;
}
function source(values: ArrayLike<number> | undefined, size: number, fallback: number): Source {
  return values ? { values, stride: size } : { values: new Float32Array(size).fill(fallback), stride: 0 };
}

/**
 * Checks every value of particle arrays whose shape `checkParticleArrays`
 * passed (the particle index and its slot, `start` + index, are named in a
 * refusal) and returns how to pack them. Values are stored as float32, a
 * mass as float32(1 / mass), exactly as writeParticles stores them.
 */
export function prepareParticleArrays(shape: ParticleArraysShape, start: number): PreparedArrays {
  for (const [name, values] of shape.fields) {
    const { rule, firstBad } = FIELD_CHECKS[name];
    const bad = firstBad(values);
    if (bad >= 0) refuseArrayValue(name, values, bad, start, rule);
  }
  const { fields } = shape;
  const radii = fields.get('radius');
  const mass = fields.get('mass');
  const position = source(fields.get('position'), 3, 0);
  const velocity = source(fields.get('velocity'), 3, 0);
  const acceleration = source(fields.get('acceleration'), 3, 0);
  const forceAccum = source(fields.get('forceAccum'), 3, 0);
  const inverseMass = source(mass ?? fields.get('inverseMass'), 1, 1);
  const damping = source(fields.get('damping'), 1, 1);
  const radius = source(radii, 1, 0);
  return {
    count: shape.count,
    largestRadius: radii ? largest(radii) : 0,
    pack(out, at, first, n) {
      // One loop writing each record whole (about 1.5 times faster here than a loop per attribute).
      const { POSITION, INVERSE_MASS, VELOCITY, DAMPING, ACCELERATION, RADIUS, FORCE_ACCUM } = OFFSET;
      const { values: P, stride: pS } = position;
      const { values: V, stride: vS } = velocity;
      const { values: A, stride: aS } = acceleration;
      const { values: F, stride: fS } = forceAccum;
      const { values: M, stride: mS } = inverseMass;
      const { values: D, stride: dS } = damping;
      const { values: R, stride: rS } = radius;
      const inverse = mass !== undefined;
      for (let i = 0, o = at, k = first; i < n; i++, o += STRIDE, k++) {
        const p = k * pS;
        const v = k * vS;
        const a = k * aS;
        const f = k * fS;
        out[o + POSITION] = P[p] as number;
        out[o + POSITION + 1] = P[p + 1] as number;
        out[o + POSITION + 2] = P[p + 2] as number;
        out[o + INVERSE_MASS] = inverse ? 1 / (M[k * mS] as number) : (M[k * mS] as number);
        out[o + VELOCITY] = V[v] as number;
        out[o + VELOCITY + 1] = V[v + 1] as number;
        out[o + VELOCITY + 2] = V[v + 2] as number;
        out[o + DAMPING] = D[k * dS] as number;
        out[o + ACCELERATION] = A[a] as number;
        out[o + ACCELERATION + 1] = A[a + 1] as number;
        out[o + ACCELERATION + 2] = A[a + 2] as number;
        out[o + RADIUS] = R[k * rS] as number;
        out[o + FORCE_ACCUM] = F[f] as number;
        out[o + FORCE_ACCUM + 1] = F[f + 1] as number;
        out[o + FORCE_ACCUM + 2] = F[f + 2] as number;
        out[o + SPARE] = 0;
      }
    },
  };
}

/** The float after forceAccum's xyz: unused, written 0 by writeParticles and writeAttributes. */
const SPARE = OFFSET.FORCE_ACCUM + 3;

/** What each float of a record holds, e.g. `velocity.y` or `spare`, for refusals. */
const RECORD_FLOATS: readonly string[] = Array.from({ length: FLOATS_PER_PARTICLE }, (_, at) => {
  for (const name of ATTRIBUTE_NAMES) {
    const { size } = ATTRIBUTES[name];
    const inside = at - attributeOffset(name);
    if (inside >= 0 && inside < size) return size === 1 ? name : `${name}.${COMPONENT[inside]}`;
  }
  return 'spare';
});

/**
 * Checks packed records (FLOATS_PER_PARTICLE floats a particle, the layout
 * of readPacked) for their shape and returns how many particles they hold.
 */
export function checkPackedRecords(records: unknown): number {
  if (!(records instanceof Float32Array)) {
    check.refuse(
      'records',
      records,
      `must be a Float32Array of packed records (${FLOATS_PER_PARTICLE} floats a particle, as readPacked returns)`,
    );
  }
  if (records.length % FLOATS_PER_PARTICLE !== 0) {
    check.refuse(
      'records.length',
      records.length,
      `must be a multiple of ${FLOATS_PER_PARTICLE} (FLOATS_PER_PARTICLE: one record a particle)`,
    );
  }
  return records.length / FLOATS_PER_PARTICLE;
}

/**
 * Checks the values of packed records: every float finite (force accumulator
 * and spare included), and inverse mass, damping and radius by their rules,
 * as writeParticles checks them. Returns the largest radius. A refusal names
 * `records[k]`, the particle, its slot (`start` + index) and the attribute.
 */
export function prepareRecords(records: Float32Array, start: number): { largestRadius: number } {
  const refuse = (at: number, rule: string): never => {
    const particle = Math.floor(at / FLOATS_PER_PARTICLE);
    const holds = RECORD_FLOATS[at % FLOATS_PER_PARTICLE] as string;
    return check.refuse(
      `records[${at}]`,
      records[at],
      `${rule} (particle ${particle} of this write, slot ${start + particle}, ${holds})`,
    );
  };
  // One pass, record by record (each float read once). x * 0 is +-0 for a finite float32 and NaN
  // otherwise, summed over the record's vec4 lanes in four running sums (twice as fast here as a test
  // per float); the scalar rules are writeParticles' predicates as comparisons on a float32 (see
  // firstNotFinite). Only a record that fails is looked at float by float, to name the value.
  const { INVERSE_MASS, DAMPING, RADIUS } = OFFSET;
  let largestRadius = 0;
  for (let base = 0; base < records.length; base += STRIDE) {
    let x = 0;
    let y = 0;
    let z = 0;
    let w = 0;
    for (let lane = base; lane < base + STRIDE; lane += 4) {
      x += (records[lane] as number) * 0;
      y += (records[lane + 1] as number) * 0;
      z += (records[lane + 2] as number) * 0;
      w += (records[lane + 3] as number) * 0;
    }
    const inverseMass = records[base + INVERSE_MASS] as number;
    const damping = records[base + DAMPING] as number;
    const radius = records[base + RADIUS] as number;
    if (
      x + y + z + w !== 0 ||
      !(inverseMass === 0 || inverseMass >= FLOAT32_MIN_NORMAL) ||
      !(damping === 0 || (damping >= FLOAT32_MIN_NORMAL && damping <= 1)) ||
      !(radius >= 0 && radius <= MAX_RADIUS)
    ) {
      for (let at = base; at < base + STRIDE; at++) {
        const value = records[at] as number;
        if (value - value !== 0) refuse(at, RULES.vector);
      }
      if (!(inverseMass === 0 || inverseMass >= FLOAT32_MIN_NORMAL)) refuse(base + INVERSE_MASS, RULES.inverseMass);
      if (!(damping === 0 || (damping >= FLOAT32_MIN_NORMAL && damping <= 1))) refuse(base + DAMPING, RULES.damping);
      refuse(base + RADIUS, RULES.radius);
    }
    if (radius > largestRadius) largestRadius = radius;
  }
  return { largestRadius };
}
