/**
 * The rules a force parameter must pass, worded once for the API and the
 * scene file, and the predicates that check a scalar against them.
 */
import { RULES } from '../particles';
import { isFiniteFloat32 } from '../validation';

/** A parameter's rule: the name of its wording in FORCE_RULES. */
export type ParameterRule = 'vector' | 'nonNegative' | 'positive' | 'finite' | 'softening' | 'axis' | 'seed';

/** Smallest softening whose square is a normal float32, and largest whose square is finite. */
const MIN_SOFTENING = 2 ** -63;
const MAX_SOFTENING = 2 ** 63;

/** The rules, worded once for the API and the scene file. */
export const FORCE_RULES = {
  vector: RULES.vector,
  nonNegative: 'must be finite and >= 0',
  positive: 'must be finite and > 0',
  finite: 'must be finite (|x| < 3.4e38)',
  softening: `must be in [${MIN_SOFTENING.toPrecision(3)}, ${MAX_SOFTENING.toPrecision(3)}] (softening² a normal, finite float32)`,
  axis: 'must be a nonzero vector of 3 finite numbers',
  seed: 'must be an integer in [0, 4294967295]',
  index: (capacity: number) => `must be an integer in [0, ${capacity - 1}] (the capacity is ${capacity})`,
} as const;

/** Checks one scalar against its rule; the scene file uses the same predicates. */
export function passesRule(rule: Exclude<ParameterRule, 'vector' | 'axis'>, x: unknown): boolean {
  if (typeof x !== 'number' || !isFiniteFloat32(x)) return false;
  switch (rule) {
    case 'nonNegative':
      return x >= 0;
    case 'positive':
      return Math.fround(x) > 0;
    case 'finite':
      return true;
    case 'softening':
      return x >= MIN_SOFTENING && x <= MAX_SOFTENING;
    case 'seed':
      return Number.isInteger(x) && x >= 0 && x <= 0xffffffff;
  }
}
