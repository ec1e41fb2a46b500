/**
 * `npx vite-node scripts/profile-recording.ts [-- --log2 12 --frames 10 --rounds 300]`:
 * the host's side of a frame, which a fast GPU's wall-clock figures include
 * (`npm run bench:emitters` times wall clock): the microseconds JavaScript and
 * Dawn's front end take to record a frame (`encodeSteps` and the encoder's
 * `finish`), without the GPU's work, for the plain step and the benchmark's
 * churning pools at 100% live, without and with a fountain's forces and plane
 * (src/bench/emitters.ts). Each round records `frames` frames into one
 * encoder and submits it; the recording alone is timed, and the queue drained
 * after, outside the timing. The pools are small by default: what recording
 * costs does not depend on the slots. Medians of the rounds; prints only.
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { advance, FILL_STEPS, openChurningPool } from '../src/bench/emitters';
import { median } from '../src/bench/timing';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : (process.argv[at + 1] as string);
}
const log2 = Number(flag('log2', '12'));
const frames = Number(flag('frames', '10'));
const rounds = Number(flag('rounds', '300'));
const DT = 1 / 60;

const { device, adapterInfo } = await acquireDevice();
const capacity = 2 ** log2;

/** Microseconds a frame to record, the median of the rounds. */
async function recording(system: ParticleSystem): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const encoder = device.createCommandEncoder();
    system.encodeSteps(encoder, DT, frames);
    const commands = encoder.finish();
    times.push(((performance.now() - started) * 1000) / frames);
    device.queue.submit([commands]);
    system.submitted();
    await device.queue.onSubmittedWorkDone();
  }
  return median(times);
}

const plain = await ParticleSystem.create(device, { capacity });
await advance(plain, DT, 2);
const pool = (fountain: boolean) =>
  openChurningPool(device, {
    capacity,
    fraction: 1,
    spread: false,
    fountain,
    dt: DT,
    steps: FILL_STEPS,
  });
const systems: [string, ParticleSystem][] = [
  ['the plain step', plain],
  ['a churning pool, 100% live', await pool(false)],
  ['a fountain, 100% live', await pool(true)],
];
const lines = [
  `adapter: ${adapterInfo.description}; 2^${log2} slots; ${frames} frames an encoder; median of ${rounds} rounds`,
];
for (const [name, system] of systems) {
  lines.push(`${name}: ${(await recording(system)).toFixed(1)} us to record a frame`);
  system.destroy();
}
process.stdout.write(`${lines.join('\n')}\n`);
device.destroy();
