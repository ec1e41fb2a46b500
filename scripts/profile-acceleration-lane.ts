/**
 * `npx vite-node scripts/profile-acceleration-lane.ts [-- --sizes 18,20] [--rounds N]`:
 * the step under registry gravity (every particle's own acceleration +0)
 * reading the acceleration|radius lane (as before the step learned to skip
 * it: the system made to read it through its internal buffer getter) against
 * the same step skipping it (the default), plain and as the spark shower
 * (gravity + drag + a plane), at each size, alternating every round on one
 * device. Prints each one's median time a step, its bytes a particle-step and
 * the median over rounds of skipping / reading.
 */
import { BENCH_PLANE, withoutAcceleration } from '../src/bench/state';
import { SHOWER_FORCES } from '../src/bench/typicalEffect';
import { BYTES, totalBytes } from '../src/bench/roofline';
import { timeSteps } from '../src/bench/timing';
import { BENCH_ACCELERATION, benchState } from '../src/bench/state';
import type { ForceGenerator } from '../src/core/forces/generators';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { acquireDevice } from '../src/node/device';

const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const sizes = (flag('--sizes') ?? '18,20').split(',').map(Number);
const rounds = Number(flag('--rounds') ?? 9);
const STEPS_PER_SUBMIT = 5;
const DT = 1 / 60;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Wall-clock per step of STEPS_PER_SUBMIT steps in one command buffer, submit to onSubmittedWorkDone. */
function timeLaneSteps(device: GPUDevice, system: ParticleSystem): Promise<number> {
  return timeSteps(device, system, DT, STEPS_PER_SUBMIT, {
    label: 'profile-acceleration-lane',
    scope: 'timing the acceleration lane',
  });
}

interface Pair {
  name: string;
  forces: readonly ForceGenerator[];
  plane: boolean;
  bytes: { reading: number; skipping: number };
}

const PAIRS: Pair[] = [
  {
    name: 'step under registry gravity',
    forces: [{ type: 'gravity', g: [...BENCH_ACCELERATION] }],
    plane: false,
    bytes: { reading: totalBytes(BYTES.step), skipping: totalBytes(BYTES.stepWithoutAccelerationLane) },
  },
  {
    name: 'gravity + drag + plane',
    forces: SHOWER_FORCES,
    plane: true,
    bytes: { reading: totalBytes(BYTES.stepPlane), skipping: totalBytes(BYTES.stepPlaneWithoutAccelerationLane) },
  },
];

const { device, adapterInfo } = await acquireDevice();
try {
  process.stdout.write(`adapter: ${adapterInfo.description} (${adapterInfo.source})\n`);
  for (const log2 of sizes) {
    const count = 2 ** log2;
    const state = withoutAcceleration(benchState(count));
    const systems: { pair: Pair; reading: ParticleSystem; skipping: ParticleSystem }[] = [];
    try {
      for (const pair of PAIRS) {
        const open = async (readLane: boolean) => {
          const system = await ParticleSystem.create(device, { capacity: count });
          for (const generator of pair.forces) system.forces.add(generator);
          if (pair.plane) await system.setColliders([BENCH_PLANE]);
          await system.writePacked(0, state);
          // The internal getter: whoever holds the buffer may write any acceleration, so the lane is read.
          if (readLane) void system.particles;
          if (system.stepReadsAccelerationLane !== readLane) throw new Error(`${pair.name}: not the step meant`);
          return system;
        };
        systems.push({ pair, reading: await open(true), skipping: await open(false) });
      }
      const times = systems.map(() => ({ reading: [] as number[], skipping: [] as number[] }));
      // Round 0 warms up: pipelines, the first step's accumulator.
      for (let round = 0; round <= rounds; round++) {
        for (const [k, { reading, skipping }] of systems.entries()) {
          // Alternating which goes first, so neither always follows the other's work.
          const order = round % 2 ? (['skipping', 'reading'] as const) : (['reading', 'skipping'] as const);
          for (const which of order) {
            const ms = await timeLaneSteps(device, which === 'reading' ? reading : skipping);
            if (round > 0) times[k]?.[which].push(ms);
          }
        }
      }
      process.stdout.write(`2^${log2}:\n`);
      for (const [k, { pair }] of systems.entries()) {
        const t = times[k] as { reading: number[]; skipping: number[] };
        const ratios = t.skipping.map((ms, r) => ms / (t.reading[r] as number));
        process.stdout.write(
          `  ${pair.name}: reading the lane ${median(t.reading).toFixed(3)} ms (${pair.bytes.reading} B), ` +
            `skipping it ${median(t.skipping).toFixed(3)} ms (${pair.bytes.skipping} B); skipping / reading ` +
            `${median(ratios).toFixed(2)}x over ${ratios.length} alternating rounds ` +
            `[${ratios.map((r) => r.toFixed(2)).join(' ')}]\n`,
        );
      }
    } finally {
      for (const { reading, skipping } of systems) {
        reading.destroy();
        skipping.destroy();
      }
    }
  }
} finally {
  device.destroy();
}
