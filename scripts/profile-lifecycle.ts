/**
 * `npx vite-node scripts/profile-lifecycle.ts [-- --log2 18,20 --repeats 5 --fractions 1,0.1 --ordered --fountain --alone]`:
 * where a frame of a system with churning emitters (src/bench/emitters.ts)
 * spends its time, pass by pass, at 100% and 10% live, beside the plain step
 * (no emitters) at the same count. The system's state after the fill is saved;
 * each prefix of a frame's passes (the step, the step + countDeaths, printed as
 * `deathWords+scan0`, ...) is
 * timed from that state restored (the copy outside the timed submission), so
 * every pass runs on the state a real frame gives it; a pass costs its
 * prefix's time less the prefix before it. Rounds alternate with the plain
 * step; each figure is the median of the rounds (x: of the rounds' ratios to
 * the plain step). Timestamp queries where the adapter has them, else wall
 * time (src/bench/timing.ts). The live particles start in the lowest slots,
 * shuffled, as in the benchmark's churning pools (src/bench/emitters.ts);
 * --spread shuffles the whole free list instead (a pool once full), and
 * --ordered keeps it in slot order.
 * --wall times by wall clock (submit to onSubmittedWorkDone) even where
 * timestamp queries exist, and --repeat K records each prefix K times in its
 * pass (the plain step K steps) and divides: on a fast GPU a pass is tens of
 * microseconds, Dawn quantizes timestamps (about 65 us steps in Node), and
 * what Dawn adds around a dispatch shows only in the wall time. --fountain gives each pool a fountain's work
 * (the bench's `emitters-fountain-*` cases: gravity and drag from the
 * registry and a bouncing ground plane, fused into the step, whose collision
 * events the ageing makes). The step is the system's own
 * (src/bench/profileFrame.ts). --alone times each pass of a frame in a
 * submission of its own instead, in the frame's order from the restored
 * state (each on what the passes before it left; the frame is their sum):
 * the prefixes' differences swing by the whole noise of a loaded machine,
 * as much as a small pass costs (each pass once: --repeat is for the
 * prefixes). Prints only; asserts nothing.
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { profileFrame } from '../src/bench/profileFrame';
import {
  advance,
  churningEmitters,
  FILL_STEPS,
  FOUNTAIN_PLANE,
  FOUNTAIN_STEP_PASS,
  liveTarget,
  shuffleFreeList,
} from '../src/bench/emitters';
import { SHOWER_FORCES } from '../src/bench/typicalEffect';
import { GpuTimer } from '../src/bench/timing';

function list(name: string, fallback: number[]): number[] {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : (process.argv[at + 1] as string).split(',').map(Number);
}
const sizes = list('log2', [18, 20]);
const repeats = list('repeats', [5])[0] as number;
const fractions = list('fractions', [1, 0.1]);
const ordered = process.argv.includes('--ordered');
const spread = process.argv.includes('--spread');
const wall = process.argv.includes('--wall');
const repeat = list('repeat', [1])[0] as number;
const fountain = process.argv.includes('--fountain');
const alone = process.argv.includes('--alone');
const DT = 1 / 60;

const { device, adapterInfo } = await acquireDevice();
const timer = new GpuTimer(device, !wall);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Copies of `buffers`, and a restore of them (and `zeroed` cleared) submitted on its own. */
function saved(buffers: GPUBuffer[], zeroed: GPUBuffer[]): { restore: () => void; destroy: () => void } {
  const copies = buffers.map((b) =>
    device.createBuffer({ size: b.size, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST }),
  );
  const copy = (from: GPUBuffer[], to: GPUBuffer[], clear: GPUBuffer[]) => {
    const encoder = device.createCommandEncoder();
    from.forEach((b, i) => encoder.copyBufferToBuffer(b, 0, to[i] as GPUBuffer, 0, b.size));
    for (const b of clear) encoder.clearBuffer(b);
    device.queue.submit([encoder.finish()]);
  };
  copy(buffers, copies, []);
  return { restore: () => copy(copies, buffers, zeroed), destroy: () => copies.forEach((c) => c.destroy()) };
}

const lines = [
  `adapter: ${adapterInfo.description}; timing: ${timer.method}; median of ${repeats} rounds; ` +
    `free list ${ordered ? 'in slot order' : spread ? 'shuffled over the pool' : 'shuffled over the live share'}; ${alone ? 'each pass alone, once' : `each prefix ${repeat} time(s) a pass`}` +
    (fountain ? '; a fountain (gravity, drag and a ground plane fused into the step)' : ''),
];
const print = (line: string) => {
  lines.push(line);
  process.stdout.write(line + '\n');
};
for (const log2 of sizes) {
  const capacity = 2 ** log2;
  const plain = await ParticleSystem.create(device, { capacity });
  await advance(plain, DT, 2);
  const timePlain = async () => (await timer.time((encoder) => plain.encodeSteps(encoder, DT, repeat))).ms / repeat;
  for (const fraction of fractions) {
    const target = liveTarget(capacity, fraction);
    const system = await ParticleSystem.create(device, {
      capacity,
      emitters: churningEmitters(target, capacity, DT),
      ...(fountain ? { collisions: { colliders: [FOUNTAIN_PLANE] } } : {}),
    });
    if (fountain) {
      for (const generator of SHOWER_FORCES) system.forces.add(generator);
      if (!system.stepPasses.includes(FOUNTAIN_STEP_PASS))
        throw new Error(`step passes ${system.stepPasses.join(', ')}`);
    }
    if (!ordered) shuffleFreeList(system, undefined, spread ? capacity : target);
    const lifecycle = system.lifecycle!;
    await advance(system, DT, FILL_STEPS + 2);
    const b = lifecycle.buffers;
    // The step as the system records it (its accumulators skipped: nothing writes a force), prepared before
    // `particles` is asked for (whoever holds the buffer may write the accumulators).
    const passes = profileFrame(system, DT);
    const persistent = [system.particles.buffer, b.life, b.lists, b.freeList, b.counters, b.ruleStats, b.liveIndexOf];
    const state = saved(persistent, [b.dead]);
    const prefix = async (n: number) => {
      state.restore();
      const sample = await timer.time((encoder) => {
        const pass = encoder.beginComputePass({ label: 'profile' });
        for (let r = 0; r < repeat; r++) for (const p of passes.slice(0, n)) p.record(pass);
        pass.end();
      });
      return sample.ms / repeat;
    };
    const perPass: number[][] = passes.map(() => []);
    const ratios: number[][] = passes.map(() => []);
    const steps: number[] = [];
    const frames: number[] = [];
    for (let r = 0; r < repeats; r++) {
      const step = await timePlain();
      steps.push(step);
      let before = 0;
      if (alone) {
        // The frame's passes in order, each in a submission of its own, on what the ones before it left.
        state.restore();
        for (const [i, p] of passes.entries()) {
          const sample = await timer.time((encoder) => {
            const pass = encoder.beginComputePass({ label: `profile ${p.name}` });
            p.record(pass);
            pass.end();
          });
          perPass[i]?.push(sample.ms);
          ratios[i]?.push(sample.ms / step);
          before += sample.ms;
        }
      } else {
        for (let n = 1; n <= passes.length; n++) {
          const ms = await prefix(n);
          perPass[n - 1]?.push(ms - before);
          ratios[n - 1]?.push((ms - before) / step);
          before = ms;
        }
      }
      frames.push(before / step);
    }
    state.restore();
    const stats = await system.readStats();
    print(
      `2^${log2}, ${fraction * 100}% live (${stats.live.toLocaleString('en-US')}): ` +
        `plain step ${median(steps).toFixed(2)} ms; whole frame ${median(frames).toFixed(2)}x the step; ` +
        passes
          .map(
            (p, i) =>
              `${p.name} ${median(perPass[i] as number[]).toFixed(2)} ms (${median(ratios[i] as number[]).toFixed(2)}x)`,
          )
          .join(', '),
    );
    state.destroy();
    system.destroy();
  }
  plain.destroy();
}
process.stdout.write('\n' + lines.join('\n') + '\n');
timer.destroy();
device.destroy();
