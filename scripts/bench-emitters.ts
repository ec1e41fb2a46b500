/**
 * `npm run bench:emitters [-- --capacity N --frames N --repeats N]`: the cost
 * of a frame of a system with emitters at 10% and at 100% live of a
 * 1,048,576-slot pool (default), against the same pool stepped without
 * emitters. With indirect dispatch over the live list, the 10% frame must
 * cost well under the 100% one; the script prints the ratio.
 *
 * A frame here is one step: planStep, the step over the live list, ageing,
 * the scan, the compaction, planEmit and the emission, each dispatched with
 * counts the GPU wrote. "Steady" pools are filled by one burst of particles
 * that outlive the run; "churning" pools are kept at their level by a rate
 * that replaces the particles that die (rate = live / mean lifetime), so
 * births, deaths and recycling are all in the frame. Wall-clock time of
 * `frames` steps submitted together, until the queue is done; the median of
 * `repeats` runs. No timing is asserted anywhere: this only prints.
 */
import { acquireDevice } from '../src/gpu/device';
import type { EmitterInit } from '../src/core/emitters/params';
import { ParticleSystem } from '../src/gpu/particleSystem';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`bench:emitters: --${name} must be an integer >= 1, got ${process.argv[at + 1]}\n`);
    process.exit(1);
  }
  return value;
}

const capacity = flag('capacity', 1 << 20);
const frames = flag('frames', 10);
const repeats = flag('repeats', 5);
const DT = 1 / 60;

const { device, adapterInfo } = await acquireDevice();

async function timeFrames(system: ParticleSystem, warmUp: number): Promise<number> {
  const runs: number[] = [];
  // Warm-up: pipelines compiled, the pool at its level.
  for (let done = 0; done < warmUp; done += 10) await system.stepMany(DT, Math.min(10, warmUp - done));
  await device.queue.onSubmittedWorkDone();
  for (let r = 0; r < repeats; r++) {
    const started = performance.now();
    await system.stepMany(DT, frames);
    await device.queue.onSubmittedWorkDone();
    runs.push((performance.now() - started) / frames);
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)] as number;
}

async function measure(
  label: string,
  emitters: EmitterInit[] | undefined,
  warmUp = 2,
): Promise<{ label: string; ms: number; live: number }> {
  const system = await ParticleSystem.create(device, { capacity, ...(emitters ? { emitters } : {}) });
  try {
    const ms = await timeFrames(system, warmUp);
    const stats = await system.readStats();
    return { label, ms, live: stats.live };
  } finally {
    system.destroy();
  }
}

const tenth = Math.round(capacity / 10);
const SHAPE = { shape: { type: 'sphere', radius: 10 }, velocity: { spread: Math.PI, speed: [0, 1] } } as const;
const steady = (count: number): EmitterInit[] => [{ burst: count, lifetime: 1e6, ...SHAPE }];
// Lifetimes of mean 0.5 s: a rate of 2 * count per second keeps about `count` alive. Warmed up for 1 s,
// past every particle of the first burst, so births and deaths are at their steady rates.
const churning = (count: number): EmitterInit[] => [
  { burst: count, rate: 2 * count, lifetime: [0.25, 0.75], ...SHAPE },
];
const CHURN_WARM_UP = 60;

const results = [];
results.push(await measure('no emitters (every slot stepped, direct dispatch)', undefined));
results.push(await measure('emitters, steady, 10% live', steady(tenth)));
results.push(await measure('emitters, steady, 100% live', steady(capacity)));
results.push(await measure('emitters, churning, ~10% live', churning(tenth), CHURN_WARM_UP));
results.push(await measure('emitters, churning, ~100% live (pool full, shortfall)', churning(capacity), CHURN_WARM_UP));

const lines = [
  `adapter: ${adapterInfo.description} (${adapterInfo.source})`,
  `capacity: ${capacity.toLocaleString('en-US')} slots; ${frames} frames of dt ${DT.toFixed(4)} s per run, median of ${repeats} runs`,
  ...results.map(
    (r) => `${r.label.padEnd(56)} ${r.ms.toFixed(2).padStart(9)} ms/frame   live ${r.live.toLocaleString('en-US')}`,
  ),
];
const [, steady10, steady100, churn10, churn100] = results as [
  unknown,
  { ms: number },
  { ms: number },
  { ms: number },
  { ms: number },
];
lines.push(
  `frame at 10% / frame at 100% (steady):   ${(steady10.ms / steady100.ms).toFixed(3)}`,
  `frame at 10% / frame at 100% (churning): ${(churn10.ms / churn100.ms).toFixed(3)}`,
  '',
);
process.stdout.write(lines.join('\n'));
device.destroy();
