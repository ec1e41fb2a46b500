/**
 * Whole particles written as packed records (writePacked), the layout
 * readPacked returns: their shape, then every float checked by writeParticles'
 * rules in one pass, record by record, before anything is written.
 */
import { validator, type Validator } from '../validation';
import { ATTRIBUTES, ATTRIBUTE_NAMES, FLOATS_PER_PARTICLE, OFFSET, attributeOffset } from '../layout';
import { FLOAT32_MIN_NORMAL, MAX_RADIUS, RULES } from './rules';
import { COMPONENT } from './particleArrays';

const check: Validator = validator();

/** Module bindings for the loop in prepareRecords (see STRIDE in particleArrays.ts for why). */
const STRIDE = FLOATS_PER_PARTICLE;
const MIN_NORMAL = FLOAT32_MIN_NORMAL;
const LARGEST_RADIUS = MAX_RADIUS;

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
  // firstNotFinite in ruleScans.ts). Only a record that fails is looked at float by float, to name the value.
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
      !(inverseMass === 0 || inverseMass >= MIN_NORMAL) ||
      !(damping === 0 || (damping >= MIN_NORMAL && damping <= 1)) ||
      !(radius >= 0 && radius <= LARGEST_RADIUS)
    ) {
      for (let at = base; at < base + STRIDE; at++) {
        const value = records[at] as number;
        if (value - value !== 0) refuse(at, RULES.vector);
      }
      if (!(inverseMass === 0 || inverseMass >= MIN_NORMAL)) refuse(base + INVERSE_MASS, RULES.inverseMass);
      if (!(damping === 0 || (damping >= MIN_NORMAL && damping <= 1))) refuse(base + DAMPING, RULES.damping);
      refuse(base + RADIUS, RULES.radius);
    }
    if (radius > largestRadius) largestRadius = radius;
  }
  return { largestRadius };
}
