/**
 * Which particles a force generator applies to (every particle, a range, or
 * a set of indices), validated against the capacity into the span a system
 * walks.
 */
import { validator, type Validator } from '../validation';
import { FORCE_RULES } from './forceRules';

/** The targets' refusals: SparkworksInputError, in the shared wording (src/core/validation.ts). */
const check: Validator = validator();

/** Which particles a generator applies to: all, [start, start + count), or a set of indices. */
export type ForceTarget =
  | 'all'
  | {
      /** First particle of the range. */
      start: number;
      /** Number of particles in the range. */
      count: number;
    }
  | {
      /** The particles, each once (kept as a bitmask over their span). */
      indices: readonly number[];
    };

/**
 * Validates a target against the capacity; returns its stored form: a range
 * [first, end), and for an index list the sorted indices.
 */
export function checkTarget(
  target: ForceTarget | undefined,
  capacity: number,
  what = 'target',
  /** How errors name the list and the range's fields (the scene file calls them otherwise). */
  names: { indices: string; start: string; count: string } = { indices: 'indices', start: 'start', count: 'count' },
): { first: number; end: number; indices: readonly number[] | null } {
  if (target === undefined || target === 'all') return { first: 0, end: capacity, indices: null };
  if (target === null || typeof target !== 'object')
    check.refuse(what, target, "must be 'all', {start, count} or {indices}");
  if ('indices' in target) {
    const list = target.indices;
    if (!Array.isArray(list) || list.length === 0) {
      check.refuse(`${what}.${names.indices}`, list, 'must be a nonempty array of particle indices');
    }
    const sorted: number[] = [];
    list.forEach((index, k) => {
      sorted.push(check.integer(`${what}.${names.indices}[${k}]`, index, 0, capacity - 1, FORCE_RULES.index(capacity)));
    });
    sorted.sort((a, b) => a - b);
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k] === sorted[k - 1]) {
        check.refuse(`${what}.${names.indices}`, sorted[k], 'lists the same particle twice (a target is a set)');
      }
    }
    return { first: sorted[0] as number, end: (sorted[sorted.length - 1] as number) + 1, indices: sorted };
  }
  const { start, count } = target as { start: number; count: number };
  check.integer(`${what}.${names.start}`, start, 0, capacity - 1, FORCE_RULES.index(capacity));
  const countRule = `must be an integer >= 1 with start + count <= ${capacity} (the capacity)`;
  check.integer(`${what}.${names.count}`, count, 1, capacity - start, countRule);
  return { first: start, end: start + count, indices: null };
}
