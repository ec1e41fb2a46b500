/**
 * `npx vite-node scripts/bench-sort.ts [-- --sizes 18,20] [--rounds 7] [--chunk N]`
 *
 * The depth sort (src/render/depthSort.ts) against the plain step, at 2^18
 * and 2^20 particles by default: the bench state (src/bench/state.ts) in one
 * system, stepped, and sorted through a perspective camera, the step and
 * the sort timed in alternating rounds (each round: `steps` steps in one
 * command buffer, then `sorts` sorts in another, submit to
 * onSubmittedWorkDone, the queue drained first), so each ratio compares
 * timings taken moments apart. Prints the median ratio sort / step and the
 * ratio of the fastest rounds (the least disturbed on a shared machine).
 */
import { benchState } from '../src/bench/state';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { withHeldErrorScopes } from '../src/gpu/errors';
import { acquireDevice } from '../src/node/device';
import { OrbitCamera } from '../src/render/camera';
import { DepthSort, sortChunkSize } from '../src/render/depthSort';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? '') : fallback;
}
function fail(message: string): never {
  process.stderr.write(`bench:sort: ${message}\n`);
  process.exit(1);
}
const sizes = flag('--sizes', '18,20')
  .split(',')
  .map((text) => Number(text));
if (sizes.some((e) => !Number.isInteger(e) || e < 1 || e > 24))
  fail('--sizes takes exponents of two in [1, 24], e.g. 18,20');
const rounds = Number(flag('--rounds', '7'));
if (!Number.isInteger(rounds) || rounds < 1) fail('--rounds must be an integer >= 1');
const chunk = flag('--chunk', '');
const chunkSize = chunk === '' ? undefined : Number(chunk);
if (chunkSize !== undefined && (!Number.isInteger(chunkSize) || chunkSize < 1))
  fail('--chunk must be a positive integer');

const DT = 1 / 60;
const STEPS = 5;
const SORTS = 2;

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const { device, adapterInfo } = await acquireDevice();
process.stdout.write(`bench:sort on ${adapterInfo.description}\n`);

/** Wall time of `record`'s commands, submitted alone after the queue drained, divided by `per`. */
async function time(record: (encoder: GPUCommandEncoder) => void, per: number, after?: () => void): Promise<number> {
  return withHeldErrorScopes(device, 'bench:sort', async () => {
    const encoder = device.createCommandEncoder({ label: 'bench:sort' });
    record(encoder);
    const commands = encoder.finish();
    await device.queue.onSubmittedWorkDone();
    const started = performance.now();
    device.queue.submit([commands]);
    after?.();
    await device.queue.onSubmittedWorkDone();
    return (performance.now() - started) / per;
  });
}

const camera = new OrbitCamera({ target: [0, 0, 0], distance: 6, yaw: 0.6, pitch: 0.3 });
camera.update(1);

for (const exponent of sizes) {
  const count = 2 ** exponent;
  const system = await ParticleSystem.create(device, { capacity: count });
  system.particles.write(0, benchState(count));
  const sort = new DepthSort(device, { label: 'bench.sort', particles: system.particles.buffer, count, chunkSize });
  try {
    const stepMs: number[] = [];
    const sortMs: number[] = [];
    const ratios: number[] = [];
    // One untimed round of each first (pipelines, first-use costs).
    for (let round = -1; round < rounds; round++) {
      const step = await time(
        (encoder) => system.encodeSteps(encoder, DT, STEPS),
        STEPS,
        () => system.submitted(),
      );
      const sorted = await time((encoder) => {
        for (let s = 0; s < SORTS; s++) sort.encode(encoder, camera, { extrapolate: 0 });
      }, SORTS);
      if (round < 0) continue;
      stepMs.push(step);
      sortMs.push(sorted);
      ratios.push(sorted / step);
    }
    const fastest = Math.min(...sortMs) / Math.min(...stepMs);
    process.stdout.write(
      `2^${exponent} (${count} particles, chunks of ${sort.chunkSize}): step ${median(stepMs).toFixed(2)} ms, ` +
        `sort ${median(sortMs).toFixed(2)} ms; sort / step median ${median(ratios).toFixed(2)}x, ` +
        `fastest rounds ${fastest.toFixed(2)}x (${rounds} alternating rounds)\n`,
    );
  } finally {
    sort.destroy();
    system.destroy();
  }
}
process.stdout.write(`default chunk size at 2^20: ${sortChunkSize(2 ** 20)}\n`);
device.destroy();
