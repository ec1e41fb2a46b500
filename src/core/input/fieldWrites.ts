/**
 * The bulk writes of one attribute (setField) and of forces to add
 * (addForces): which fields a user may set, and their values checked and
 * converted to what is stored, before anything is written.
 */
import { validator, type Validator } from '../validation';
import { ATTRIBUTES, type AttributeName } from '../layout';
import { RULES, isFiniteFloat32 } from './rules';
import { checkNumberList, storedScalar } from './particleRecords';

const check: Validator = validator();

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
