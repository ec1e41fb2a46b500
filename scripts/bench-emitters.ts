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
 * that outlive the run; "churning" pools are the main harness's
 * `emitters-*pct-live` cases (src/bench/emitters.ts: a rate that replaces the
 * particles that die, started at that steady state by bursts on the first
 * step, into slots in shuffled order as a long-running pool has them), so
 * births, deaths and recycling are all in the frame; steady pools keep the
 * slots a new pool hands out, in order. Wall-clock time of `frames`
 * steps submitted together, until the queue is done; the median of `repeats`
 * runs; the live count and the churn from the counters read back around the
 * timed runs, and the bytes a live particle-step from LIFECYCLE_BYTES
 * (src/bench/roofline.ts). No timing is asserted anywhere: this only prints.
 */
import { acquireDevice } from '../src/node/device';
import type { EmitterInit } from '../src/core/emitters/types';
import { ParticleSystem } from '../src/gpu/particleSystem';
import {
  advance,
  churningEmitters,
  FILL_STEPS,
  frameCounts,
  liveTarget,
  shuffleFreeList,
  steadyEmitters,
  type FrameCounts,
} from '../src/bench/emitters';
import { lifecycleBytes, totalBytes } from '../src/bench/roofline';

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

async function timeFrames(system: ParticleSystem): Promise<number> {
  const runs: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const started = performance.now();
    await system.stepMany(DT, frames);
    await device.queue.onSubmittedWorkDone();
    runs.push((performance.now() - started) / frames);
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)] as number;
}

interface Measured {
  label: string;
  ms: number;
  /** The live count aimed at; null: no emitters, every slot live. */
  target: number | null;
  counts: FrameCounts | null;
}

/**
 * Fills (`warmUp` steps: pipelines compiled, the pool at its level), then
 * times. A churning pool's slots start shuffled, as a long-running pool has them.
 */
async function measure(
  label: string,
  emitters: EmitterInit[] | undefined,
  warmUp: number,
  target: number | null,
  churning = false,
) {
  const system = await ParticleSystem.create(device, { capacity, ...(emitters ? { emitters } : {}) });
  try {
    if (churning) shuffleFreeList(system);
    await advance(system, DT, warmUp);
    const before = emitters ? await system.readStats() : null;
    const ms = await timeFrames(system);
    const counts = before ? frameCounts(before, await system.readStats()) : null;
    return { label, ms, target, counts } satisfies Measured;
  } finally {
    system.destroy();
  }
}

const tenth = liveTarget(capacity, 0.1);
const fill = FILL_STEPS;

const results = [];
results.push(await measure('no emitters (every slot stepped, direct dispatch)', undefined, 2, null));
results.push(await measure('emitters, steady, 10% live', steadyEmitters(tenth), 2, tenth));
results.push(await measure('emitters, steady, 100% live', steadyEmitters(capacity), 2, capacity));
results.push(await measure('emitters, churning, 10% live', churningEmitters(tenth, capacity, DT), fill, tenth, true));
results.push(
  await measure(
    'emitters, churning, 100% live (pool full)',
    churningEmitters(capacity, capacity, DT),
    fill,
    capacity,
    true,
  ),
);

const count = (x: number) => Math.round(x).toLocaleString('en-US');
function describe({ label, ms, target, counts }: Measured): string {
  const head = `${label.padEnd(50)} ${ms.toFixed(2).padStart(9)} ms/frame`;
  if (!counts || target === null) return `${head}   live ${count(capacity)}`;
  const live = (counts.liveBefore + counts.liveAfter) / 2;
  const bytes = totalBytes(lifecycleBytes(live, counts.births, counts.deaths));
  const error = ((counts.liveBefore - target) / target) * 100;
  return (
    `${head}   live ${count(counts.liveBefore)} (target ${count(target)}, ${error.toFixed(2)}%), ` +
    `${count(counts.births)} born and ${count(counts.deaths)} died a frame, ` +
    `${bytes.toFixed(1)} B a live particle-step, ${((live * bytes) / (ms * 1e6)).toFixed(2)} GB/s`
  );
}

const lines = [
  `adapter: ${adapterInfo.description} (${adapterInfo.source})`,
  `capacity: ${capacity.toLocaleString('en-US')} slots; ${frames} frames of dt ${DT.toFixed(4)} s per run, median of ${repeats} runs; ` +
    `churning pools started at their steady state, ${fill} steps before timing`,
  ...results.map(describe),
];
const [, steady10, steady100, churn10, churn100] = results as [unknown, Measured, Measured, Measured, Measured];
lines.push(
  `frame at 10% / frame at 100% (steady):   ${(steady10.ms / steady100.ms).toFixed(3)}`,
  `frame at 10% / frame at 100% (churning): ${(churn10.ms / churn100.ms).toFixed(3)}`,
  '',
);
process.stdout.write(lines.join('\n'));
device.destroy();
