/**
 * `npx vite-node scripts/compare-contact-walks.ts [-- --log2 18 --repeats 7]`:
 * the contact passes (shaders/contacts.wgsl) built both ways a particle whose
 * candidates overflow its list may walk the grid (src/gpu/contactPass.ts,
 * ContactWalk): 'inline', in the count and resolve passes themselves, and
 * 'apart', in a walk pass of their own dispatched only when a list overflows.
 * On the bench's contact scene (src/bench/contactScene.ts), one grid, each
 * way's candidate lists, count and resolve timed by wall clock around submit
 * and onSubmittedWorkDone, the two ways alternating round by round; the
 * medians of each pass and of the rounds' ratios (apart / inline). Prints
 * only; asserts nothing.
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem, DEFAULT_WORKGROUP_SIZE } from '../src/gpu/particleSystem';
import { gridSpacing } from '../src/core/collisions/grid';
import { DEFAULT_CONTACT_SETTINGS } from '../src/core/collisions/world';
import { contactCube, CONTACT_RADIUS } from '../src/bench/contactScene';
import { GridPass } from '../src/gpu/gridPass';
import { ContactPass, type ContactModeName, type ContactStep, type ContactWalk } from '../src/gpu/contactPass';
import { noLinks } from '../src/core/collisions/links';
import { timeSubmitted } from '../src/bench/timing';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}
const log2 = flag('log2', 18);
const repeats = flag('repeats', 7);
const count = 2 ** log2;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const { device, adapterInfo } = await acquireDevice();

const time = (record: (encoder: GPUCommandEncoder) => void) => timeSubmitted(device, record, 'compare-contact-walks');

try {
  const system = await ParticleSystem.create(device, { capacity: count });
  await system.writeParticles(0, contactCube(count));
  const skin = Math.fround(DEFAULT_CONTACT_SETTINGS.skin);
  const step: ContactStep = {
    count,
    dt: Math.fround(1 / 60),
    skin,
    restitution: Math.fround(DEFAULT_CONTACT_SETTINGS.restitution),
    inverseCellSize: gridSpacing(CONTACT_RADIUS, skin).inverseCellSize,
  };
  const grid = GridPass.create(device, system.particles, DEFAULT_WORKGROUP_SIZE);
  await time((encoder) => grid.encode(encoder, count, step.inverseCellSize!));
  const walks: ContactWalk[] = ['inline', 'apart'];
  const passes = new Map(
    walks.map((walk) => {
      const pass = ContactPass.create(device, system.particles, DEFAULT_WORKGROUP_SIZE, true, walk);
      pass.setLinks(noLinks(count));
      pass.useGrid(grid);
      return [walk, pass] as const;
    }),
  );
  const modes: ContactModeName[] = ['candidates', 'count', 'resolve'];
  const ms = new Map<string, number[]>();
  const ratios: number[] = [];
  for (let round = 0; round < repeats; round++) {
    const totals: Record<string, number> = {};
    for (const walk of round % 2 === 0 ? walks : [...walks].reverse()) {
      const pass = passes.get(walk)!;
      let total = 0;
      for (const mode of modes) {
        const taken = await time((encoder) => pass.encode(encoder, mode, step));
        total += taken;
        const key = `${walk} ${mode}`;
        ms.set(key, [...(ms.get(key) ?? []), taken]);
      }
      totals[walk] = total;
    }
    ratios.push(totals['apart']! / totals['inline']!);
  }
  process.stdout.write(
    `adapter: ${adapterInfo.description}; 2^${log2} particles; wall time, medians of ${repeats} alternating rounds\n`,
  );
  for (const walk of walks) {
    const parts = modes.map((mode) => `${mode} ${median(ms.get(`${walk} ${mode}`)!).toFixed(1)}`);
    process.stdout.write(`${walk}: ${parts.join(', ')} ms\n`);
  }
  process.stdout.write(`apart / inline (lists + count + resolve): ${median(ratios).toFixed(3)}\n`);
  for (const pass of passes.values()) pass.destroy();
  grid.destroy();
  system.destroy();
} finally {
  device.destroy();
}
