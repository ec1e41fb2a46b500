/**
 * The layout, acceleration and workgroup-size comparisons: each choice's
 * particle-steps a second over the current default's, at every count both
 * were measured at, and the choice with the best geometric mean.
 */
import { DEFAULT_WORKGROUP_SIZE } from '../gpu/particleSystem';
import { DEFAULT_STEP, DEFAULT_TAIL, findCase } from './caseLookup';
import { WORKGROUP_SIZES } from './options';
import type { CaseResult } from './results';

export interface Contender {
  label: string;
  /** The case measured for this choice (at every count). */
  caseName: string;
  /** Particle-steps a second over the baseline's, at each count measured for both. */
  ratios: { particles: number; ratio: number }[];
  /** Geometric mean of `ratios`. */
  meanRatio: number;
}

export interface Comparison {
  question: string;
  /** The label of the current default. */
  baseline: string;
  contenders: Contender[];
  /** The label with the highest mean ratio. */
  best: string;
}

function geometricMean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
}

function compare(
  cases: readonly CaseResult[],
  question: string,
  options: { label: string; caseName: string }[],
  baselineLabel: string,
): Comparison | null {
  const baseline = options.find((o) => o.label === baselineLabel);
  if (!baseline) return null;
  const sizes = [...new Set(cases.filter((c) => c.name === baseline.caseName).map((c) => c.particles))];
  const contenders = options
    .map(({ label, caseName }) => {
      const ratios = sizes.flatMap((particles) => {
        const mine = findCase(cases, caseName, particles);
        const base = findCase(cases, baseline.caseName, particles);
        return mine && base ? [{ particles, ratio: mine.particleStepsPerSecond / base.particleStepsPerSecond }] : [];
      });
      return { label, caseName, ratios, meanRatio: geometricMean(ratios.map((r) => r.ratio)) };
    })
    .filter((c) => c.ratios.length > 0);
  if (contenders.length < 2) return null;
  const best = contenders.reduce((a, b) => (b.meanRatio > a.meanRatio ? b : a));
  return { question, baseline: baselineLabel, contenders, best: best.label };
}

export function comparisons(cases: readonly CaseResult[]): Comparison[] {
  const workgroupCase = (size: number) =>
    size === DEFAULT_WORKGROUP_SIZE ? DEFAULT_STEP : `step-wg${size}/${DEFAULT_TAIL}`;
  return [
    compare(
      cases,
      'layout: packed vec4 records (AoS) or structure of arrays',
      [
        { label: 'packed vec4 records', caseName: DEFAULT_STEP },
        { label: 'structure of arrays', caseName: `step-soa/${DEFAULT_TAIL}` },
      ],
      'packed vec4 records',
    ),
    compare(
      cases,
      'acceleration: per particle or one uniform',
      [
        { label: 'per particle', caseName: DEFAULT_STEP },
        { label: 'uniform', caseName: `step-uniform-acceleration/${DEFAULT_TAIL}` },
      ],
      'per particle',
    ),
    compare(
      cases,
      'workgroup size',
      WORKGROUP_SIZES.map((size) => ({ label: String(size), caseName: workgroupCase(size) })),
      String(DEFAULT_WORKGROUP_SIZE),
    ),
  ].filter((c): c is Comparison => c !== null);
}
