/**
 * Whole particles written from one typed array per attribute
 * (writeAttributes): the same rules as writeParticles, checked in one pass
 * per attribute, a tight loop over each array that builds no object or
 * string unless it refuses. Every check runs before anything is written, so a
 * refusal changes nothing.
 */
import { validator, type Validator } from '../validation';
import { ATTRIBUTES, FLOATS_PER_PARTICLE, OFFSET, type AttributeName } from '../layout';
import { RULES } from './rules';
import { checkNumberList } from './particleRecords';
import { firstBadDamping, firstBadInverseMass, firstBadMass, firstBadRadius, firstNotFinite } from './ruleScans';

const check: Validator = validator();

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

/** A vector's components by index, for refusals that name one. */
export const COMPONENT = 'xyz';

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
