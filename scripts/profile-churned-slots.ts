/**
 * `npx vite-node scripts/profile-churned-slots.ts [-- --log2 20 --fraction 0.1 --steps 720 --rounds 11]`:
 * where a churning pool (src/bench/emitters.ts) keeps its live particles
 * after long churn, and what its frame costs there, beside the starting
 * states the benchmark uses. Four pools of 2^log2 slots at `fraction` live:
 * - churned: new (slots handed out in order), then `steps` steps of churn;
 * - fresh: new, timed right after the fill (slots in order);
 * - live share: the first slots it holds shuffled (the benchmark's churning pools);
 * - spread: the whole free list shuffled (the benchmark's `-spread` case: a pool once full).
 * For each: one past the highest slot in its live list (where the dense walk
 * stops: src/gpu/lifecycle/lifeBuffers.ts, highWater), and its frame against the plain
 * step (no emitters), timed alternately, wall clock of 5 frames, the median
 * of the rounds. Prints only; asserts nothing.
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { advance, churningEmitters, FILL_STEPS, liveTarget, shuffleFreeList } from '../src/bench/emitters';
import { LIFE_COUNTERS } from '../src/core/emitters/gpuRecords';
import { readBuffer } from '../src/bench/soaPass';
import { highWaterOf } from '../src/gpu/lifecycle/lifeBuffers';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}
const log2 = flag('log2', 20);
const fraction = flag('fraction', 0.1);
const churnSteps = flag('steps', 720);
const rounds = flag('rounds', 11);
const DT = 1 / 60;
const FRAMES = 5;

const { device, adapterInfo } = await acquireDevice();
const capacity = 2 ** log2;
const target = liveTarget(capacity, fraction);

/** The words of one of a system's buffers. */
async function readWords(buffer: GPUBuffer): Promise<Uint32Array> {
  return new Uint32Array((await readBuffer(device, buffer)).buffer);
}

/** One past the highest slot in the system's live list, and the high-water mark the GPU holds. */
async function slotsInUse(system: ParticleSystem): Promise<{ pastHighestLive: number; highWater: number }> {
  const buffers = system.lifecycle!.buffers;
  const counters = await readWords(buffers.counters);
  const lists = await readWords(buffers.lists);
  const F = LIFE_COUNTERS.wordOffsets;
  const pastHighestLive = highWaterOf(lists, counters[F.live] as number, counters[F.parity] as number, capacity);
  return { pastHighestLive, highWater: (await readWords(buffers.highWater))[0] as number };
}

async function timeFrames(system: ParticleSystem): Promise<number> {
  const started = performance.now();
  await system.stepMany(DT, FRAMES);
  await device.queue.onSubmittedWorkDone();
  return (performance.now() - started) / FRAMES;
}

const plain = await ParticleSystem.create(device, { capacity });
await advance(plain, DT, 2);
const pools: { name: string; system: ParticleSystem }[] = [];
for (const name of ['churned', 'fresh', 'live share', 'spread']) {
  const system = await ParticleSystem.create(device, { capacity, emitters: churningEmitters(target, capacity, DT) });
  if (name === 'live share') shuffleFreeList(system, undefined, target);
  if (name === 'spread') shuffleFreeList(system);
  await advance(system, DT, name === 'churned' ? churnSteps : FILL_STEPS + 2);
  pools.push({ name, system });
}
const ms = new Map<string, number[]>([['plain', []], ...pools.map((p) => [p.name, []] as [string, number[]])]);
for (let r = 0; r < rounds; r++) {
  ms.get('plain')!.push(await timeFrames(plain));
  for (const { name, system } of pools) ms.get(name)!.push(await timeFrames(system));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;
const plainMs = median(ms.get('plain')!);
const lines = [
  `adapter: ${adapterInfo.description}; 2^${log2} slots, ${fraction * 100}% live (${target.toLocaleString('en-US')}); ` +
    `churned: ${churnSteps} steps of churn from a new pool; ${FRAMES} frames a run, median of ${rounds} rounds`,
  `plain step (no emitters): ${plainMs.toFixed(2)} ms`,
];
for (const { name, system } of pools) {
  const { pastHighestLive, highWater } = await slotsInUse(system);
  const live = (await system.readStats()).live;
  const frameMs = median(ms.get(name)!);
  lines.push(
    `${name.padEnd(10)} live ${live.toLocaleString('en-US')}, highest live slot + 1 ${pastHighestLive.toLocaleString('en-US')} ` +
      `(high-water mark ${highWater.toLocaleString('en-US')}), frame ${frameMs.toFixed(2)} ms = ${(frameMs / plainMs).toFixed(3)}x the step`,
  );
  system.destroy();
}
plain.destroy();
process.stdout.write(lines.join('\n') + '\n');
device.destroy();
