/**
 * The checks of a system call's own arguments (a time step, a step count, a
 * capacity, a range of slots), the same on every backend so that a call one
 * backend refuses is refused by the other.
 */
import { SparkworksInputError } from '../errors';
import { validator, type Validator } from '../validation';
import { FLOAT32_MIN_NORMAL } from './rules';

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
