/**
 * `npx vite-node scripts/compare-step-walks.ts [-- --log2 20 --fractions 1,0.75,0.5 --repeats 5]`:
 * the step with its ageing of a system with churning emitters
 * (src/bench/emitters.ts, the whole free list shuffled, so the high-water
 * mark is the capacity and the live share is the share of the slots below
 * it) walked two ways, the live list and the dense walk over every slot
 * (src/gpu/liveIntegratePass.ts), timed
 * alternately with the plain step (no emitters) at the same capacity; each
 * figure is the median of the rounds' ratios to the plain step. Where the
 * dense walk's ratio drops below the list's is where planStep should switch
 * (src/gpu/lifecycle.ts DENSE_WALK_FROM). Prints only; asserts nothing.
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { advance, churningEmitters, FILL_STEPS, liveTarget, shuffleFreeList } from '../src/bench/emitters';
import { GpuTimer } from '../src/bench/timing';

function list(name: string, fallback: number[]): number[] {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : (process.argv[at + 1] as string).split(',').map(Number);
}
const log2 = list('log2', [20])[0] as number;
const repeats = list('repeats', [5])[0] as number;
const fractions = list('fractions', [1, 0.75, 0.5]);
const DT = 1 / 60;

const { device, adapterInfo } = await acquireDevice();
const timer = new GpuTimer(device);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const capacity = 2 ** log2;
const lines = [
  `adapter: ${adapterInfo.description}; timing: ${timer.method}; 2^${log2} slots; median of ${repeats} rounds`,
];
const plain = await ParticleSystem.create(device, { capacity });
await advance(plain, DT, 2);
for (const fraction of fractions) {
  const target = liveTarget(capacity, fraction);
  const system = await ParticleSystem.create(device, { capacity, emitters: churningEmitters(target, capacity, DT) });
  shuffleFreeList(system);
  await advance(system, DT, FILL_STEPS + 2);
  const lifecycle = system.lifecycle!;
  // Without the accumulators, as ParticleSystem steps this pool (nothing writes a force).
  const [planStep, step] = lifecycle.profilePasses(DT, false);
  // The step alone, after planStep: its ageing marks deaths (never cleared here), which only the timing sees.
  const timeWalk = async (denseFrom: number) => {
    lifecycle.setDenseWalkFrom(denseFrom);
    return (
      await timer.time((encoder) => {
        const pass = encoder.beginComputePass({ label: 'walk' });
        planStep?.record(pass);
        step?.record(pass);
        pass.end();
      })
    ).ms;
  };
  const listRatios: number[] = [];
  const denseRatios: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const plainMs = (await timer.time((encoder) => plain.encodeSteps(encoder, DT, 1))).ms;
    listRatios.push((await timeWalk(capacity + 1)) / plainMs);
    denseRatios.push((await timeWalk(0)) / plainMs);
  }
  const stats = await system.readStats();
  const line =
    `${fraction * 100}% live (${stats.live.toLocaleString('en-US')}): step+age over the live list ` +
    `${median(listRatios).toFixed(2)}x the plain step, dense walk ${median(denseRatios).toFixed(2)}x`;
  lines.push(line);
  process.stdout.write(line + '\n');
  system.destroy();
}
plain.destroy();
process.stdout.write('\n' + lines.join('\n') + '\n');
timer.destroy();
device.destroy();
