/**
 * `npx vite-node scripts/profile-lifecycle.ts [-- --log2 18,20 --repeats 5]`:
 * where a frame of a system with churning emitters spends its time, pass by
 * pass, at 100% and 10% live, beside the plain step (no emitters) at the same
 * count. Each pass is recorded `REPEAT` times in one compute pass after
 * planStep (timestamp queries where the adapter has them, else wall time
 * around the submission), minus planStep alone; the median of `repeats`.
 * The passes are the lifecycle's own (GpuLifecycle.profilePasses), recorded
 * in the state the last whole frame left, so a pass that changes state
 * (compaction, emission) repeats the same work. Prints only; asserts nothing.
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { advance, churningEmitters, FILL_STEPS, liveTarget, shuffleFreeList } from '../src/bench/emitters';
import { GpuTimer } from '../src/bench/timing';

function list(name: string, fallback: number[]): number[] {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : (process.argv[at + 1] as string).split(',').map(Number);
}
const sizes = list('log2', [18, 20]);
const repeats = list('repeats', [5])[0] as number;
const REPEAT = 4;
const DT = 1 / 60;

const { device, adapterInfo } = await acquireDevice();
const timer = new GpuTimer(device);

async function median(record: (encoder: GPUCommandEncoder) => void): Promise<number> {
  const runs: number[] = [];
  for (let r = 0; r < repeats; r++) runs.push((await timer.time(record)).ms);
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)] as number;
}

const lines = [
  `adapter: ${adapterInfo.description}; timing: ${timer.method}; ${REPEAT} repeats a pass, median of ${repeats}`,
];
for (const log2 of sizes) {
  const capacity = 2 ** log2;
  const plain = await ParticleSystem.create(device, { capacity });
  await advance(plain, DT, 2);
  const plainStep = () => median((encoder) => plain.encodeSteps(encoder, DT, 1));
  const step = await plainStep();
  lines.push(`2^${log2}: plain step ${step.toFixed(2)} ms`);
  for (const fraction of list('fractions', [1, 0.1])) {
    const target = liveTarget(capacity, fraction);
    const system = await ParticleSystem.create(device, { capacity, emitters: churningEmitters(target, capacity, DT) });
    if (!process.argv.includes('--ordered')) shuffleFreeList(system);
    await advance(system, DT, FILL_STEPS + 2);
    // The frame against the plain step, alternately, `repeats` rounds: the ratio of each round, then their median.
    const ratios: number[] = [];
    const frames: number[] = [];
    for (let r = 0; r < repeats; r++) {
      const f = (await timer.time((encoder) => system.encodeSteps(encoder, DT, 1))).ms;
      frames.push(f);
      ratios.push(f / (await timer.time((encoder) => plain.encodeSteps(encoder, DT, 1))).ms);
    }
    const frame = frames.sort((a, b) => a - b)[Math.floor(repeats / 2)] as number;
    const ratio = ratios.sort((a, b) => a - b)[Math.floor(repeats / 2)] as number;
    const stats = await system.readStats();
    const lifecycle = system.lifecycle!;
    const passes = lifecycle.profilePasses(DT);
    const time = (names: string[], times: number) =>
      median((encoder) => {
        const pass = encoder.beginComputePass({ label: 'profile' });
        passes.planStep(pass);
        for (let i = 0; i < times; i++) for (const n of names) passes.steps[n]!(pass);
        pass.end();
      });
    const once = async (name: string | null, times: number) =>
      (
        await timer.time((encoder) => {
          const pass = encoder.beginComputePass({ label: 'profile' });
          passes.planStep(pass);
          for (let i = 0; i < times && name; i++) passes.steps[name]!(pass);
          pass.end();
        })
      ).ms;
    const base = await time([], 0);
    const parts: string[] = [];
    let sum = 0;
    for (const name of process.argv.includes('--frame-only') ? [] : Object.keys(passes.steps)) {
      // Each round: the pass REPEAT times, planStep alone, the plain step; the median of the rounds' ratios.
      const own: number[] = [];
      const against: number[] = [];
      for (let r = 0; r < repeats; r++) {
        const ms = ((await once(name, REPEAT)) - (await once(null, 0))) / REPEAT;
        own.push(ms);
        against.push(ms / (await timer.time((encoder) => plain.encodeSteps(encoder, DT, 1))).ms);
      }
      const ms = own.sort((a, b) => a - b)[Math.floor(repeats / 2)] as number;
      sum += ms;
      parts.push(
        `${name} ${ms.toFixed(2)} (${(against.sort((a, b) => a - b)[Math.floor(repeats / 2)] as number).toFixed(2)}x)`,
      );
    }
    lines.push(
      `  ${fraction * 100}% live (${stats.live} live): frame ${frame.toFixed(2)} ms = ${ratio.toFixed(2)}x the step (alternating); ` +
        `passes: planStep ${base.toFixed(2)}, ${parts.join(', ')}; sum ${(sum + base).toFixed(2)}`,
    );
    process.stdout.write(lines[lines.length - 1] + '\n');
    system.destroy();
  }
  plain.destroy();
}
process.stdout.write(lines.join('\n') + '\n');
timer.destroy();
device.destroy();
