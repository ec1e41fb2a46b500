/**
 * `npm run bench:sort [-- --sizes 18,20] [--rounds 7] [--chunk N]`
 *
 * The depth sort (src/render/depthSort.ts) against the plain step, at 2^18
 * and 2^20 particles by default, through src/bench/sortRatio.ts (the same
 * measurement `npm run bench` makes with fewer rounds): the bench state in
 * one system, stepped, and sorted through a perspective camera, the step and
 * the sort timed in alternating rounds (each round: 5 steps in one command
 * buffer, then 2 sorts in another, submit to onSubmittedWorkDone, the queue
 * drained first), so each ratio compares timings taken moments apart. Prints
 * the median ratio sort / step and the ratio of the fastest rounds (the least
 * disturbed on a shared machine).
 */
import { scriptFlags } from '../src/bench/options';
import { measureSortRatio, SORT_RATIO_SIZES, sortRatioLines } from '../src/bench/sortRatio';
import { acquireDevice } from '../src/node/device';
import { sortChunkSize } from '../src/render/depthSort';

const flags = scriptFlags(process.argv, (message) => {
  process.stderr.write(`bench:sort: ${message}\n`);
  process.exit(1);
});
const sizes = flags.exponents('--sizes', SORT_RATIO_SIZES);
const rounds = flags.integer('--rounds', 7, 1);
const chunkSize = flags.optionalInteger('--chunk', 1);

const { device, adapterInfo } = await acquireDevice();
try {
  process.stdout.write(`bench:sort on ${adapterInfo.description}\n`);
  const result = await measureSortRatio(device, { sizes, rounds, chunkSize });
  for (const line of sortRatioLines(result)) process.stdout.write(`${line}\n`);
  process.stdout.write(`default chunk size at 2^20: ${sortChunkSize(2 ** 20)}\n`);
} finally {
  device.destroy();
}
