/**
 * Particles as records: the shapes a user describes them in (ParticleInit)
 * and reads them back in (ParticleSnapshot), each value checked and converted
 * to what is stored, packed into the one layout, and split out of it again.
 */
import { validator, type Validator } from '../validation';
import { ATTRIBUTES, ATTRIBUTE_NAMES, FLOATS_PER_PARTICLE, attributeOffset, type AttributeName } from '../layout';
import { RULES, isValidDamping, isValidInverseMass, isValidMass, isValidRadius } from './rules';

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

const check: Validator = validator();

function checkVector(what: string, v: Vec3Like | undefined): void {
  check.vector(what, v, 'must be 3 finite numbers', { componentRule: RULES.vector });
}

/** A list of particles, or a clear refusal (not a TypeError) for anything else. */
export function checkParticleList(particles: unknown, what = 'particles'): readonly ParticleInit[] {
  if (!Array.isArray(particles)) check.refuse(what, particles, 'must be an array of particles');
  return particles as readonly ParticleInit[];
}

/** Numbers in an array or typed array, or a clear refusal for anything else. */
export function checkNumberList(what: string, values: unknown): ArrayLike<number> {
  if (!Array.isArray(values) && !(ArrayBuffer.isView(values) && !(values instanceof DataView))) {
    check.refuse(what, values, 'must be an array (or typed array) of numbers');
  }
  return values as ArrayLike<number>;
}

/** Converts and validates one user field value into the stored attribute's value. */
export function storedScalar(
  field: 'mass' | 'inverseMass' | 'damping' | 'radius',
  what: string,
  value: number,
): number {
  switch (field) {
    case 'mass':
      if (!isValidMass(value)) check.refuse(what, value, RULES.mass);
      return 1 / value;
    case 'inverseMass':
      if (!isValidInverseMass(value)) check.refuse(what, value, RULES.inverseMass);
      return value;
    case 'damping':
      if (!isValidDamping(value)) check.refuse(what, value, RULES.damping);
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

/** Cyclone's default particle as one record: at rest at the origin, mass 1, damping 1, radius 0. */
export function defaultRecord(): Float32Array {
  const record = new Float32Array(FLOATS_PER_PARTICLE);
  fillDefaultParticles(record, 0, 1);
  return record;
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
