/**
 * Finding a run's cases by what the report asks of them: a case by name and
 * count, the default step most figures are measured against, and an emitter
 * pool by its live fraction. The comparisons, the targets and the summary
 * lines all look cases up the same way.
 */
import { DEFAULT_VARIANT, variantName } from '../core/variants';
import type { CaseResult } from './results';

/** The default variant's name: the tail of the case names that run it. */
export const DEFAULT_TAIL = variantName(DEFAULT_VARIANT);
/** The default step's case name. */
export const DEFAULT_STEP = `step/${DEFAULT_TAIL}`;

export function findCase(cases: readonly CaseResult[], name: string, particles: number): CaseResult | undefined {
  return cases.find((c) => c.name === name && c.particles === particles);
}

/** The emitter pool without a fountain's forces and plane at `particles` slots and `fraction` live, spread over the pool or not. */
export function poolAt(
  cases: readonly CaseResult[],
  particles: number,
  fraction: number,
  spread = false,
): CaseResult | undefined {
  return cases.find(
    (c) =>
      c.lifecycle?.targetFraction === fraction &&
      c.lifecycle.fountain === undefined &&
      c.particles === particles &&
      (c.lifecycle.liveSpreadOverPool ?? false) === spread,
  );
}
