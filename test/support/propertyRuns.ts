/**
 * fast-check's run parameters for the property tests: a fixed seed per
 * property (the same runs every CI run; fast-check prints the seed and the
 * path of a failure, to replay it with { seed, path }), and how many runs,
 * sized for CI on a 2-core machine with a software GPU.
 *
 * To search further locally: FC_SEED=<n> picks other seeds (each property
 * adds its own offset) and FC_RUNS=<factor> multiplies every run count.
 */
import type fc from 'fast-check';

const BASE_SEED = process.env.FC_SEED === undefined ? 20_170_004 : Number(process.env.FC_SEED);
const RUNS_FACTOR = process.env.FC_RUNS === undefined ? 1 : Number(process.env.FC_RUNS);

export function runs<T>(offset: number, numRuns: number, extra: Partial<fc.Parameters<T>> = {}): fc.Parameters<T> {
  return {
    seed: BASE_SEED + offset,
    numRuns: Math.max(1, Math.round(numRuns * RUNS_FACTOR)),
    ...extra,
  };
}
