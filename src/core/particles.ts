/**
 * Particle input, validated once for every backend, and packing into (and out
 * of) the one layout. Nothing here knows about the GPU.
 */
import { SparkworksInputError } from './errors';
import { isFiniteFloat32, validator, type Validator } from './validation';
import { ATTRIBUTES, ATTRIBUTE_NAMES, FLOATS_PER_PARTICLE, attributeOffset, type AttributeName } from './layout';

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

export function checkCapacity(capacity: number, maxParticles: number, limitName: string): void {
  check.integer('capacity', capacity, 1, Infinity);
  if (capacity > maxParticles) {
    check.refuse('capacity', capacity, `exceeds ${maxParticles} particles, the most that ${limitName} allows`);
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

/**
 * A stored inverse mass is 0 (immovable) or a normal float32: a subnormal one
 * would be flushed to 0 by some GPUs and not by the CPU reference, so the two
 * would disagree on whether the particle moves.
 */
export function isValidInverseMass(inverseMass: number): boolean {
  if (typeof inverseMass !== 'number' || !isFiniteFloat32(inverseMass)) return false;
  const stored = Math.fround(inverseMass);
  return stored === 0 || stored >= FLOAT32_MIN_NORMAL;
}
export function isValidMass(mass: number): boolean {
  return (
    typeof mass === 'number' &&
    Number.isFinite(mass) &&
    mass > 0 &&
    Math.fround(1 / mass) >= FLOAT32_MIN_NORMAL &&
    isFiniteFloat32(1 / mass)
  );
}
export function isValidDamping(damping: number): boolean {
  return typeof damping === 'number' && damping >= 0 && damping <= 1;
}
/** A collision radius: finite as a float32 and >= 0 (negative radii mark killed particles, set only by a kill collider). */
export function isValidRadius(radius: number): boolean {
  return typeof radius === 'number' && isFiniteFloat32(radius) && radius >= 0;
}

/** The rules, worded once for every caller (the API, the scene file, the CLI). */
export const RULES = {
  mass: 'mass must be finite and > 0, with 1/mass a normal float32 (mass in (0, 8.5e37]); an immovable particle has inverseMass 0',
  inverseMass: 'inverseMass must be 0 or a normal float32 in [1.18e-38, 3.4e38]',
  damping: 'damping must be in [0, 1] (the share of velocity kept)',
  radius: 'radius must be finite and >= 0 (0: a point)',
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
