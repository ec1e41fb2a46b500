/**
 * `npx vite-node scripts/profile-emitter-colliders.ts [-- --log2 20] [--rounds 5] [--frames 5] [--forces]`:
 * what a ground plane adds to a frame of a churning pool with emitters (the
 * benchmark's pool, src/bench/emitters.ts) at 10% and 100% live: the same
 * pool without the plane, with it fused into the step (the default), and
 * with it as the colliders pass (`fuseColliders: false`: the pass walks the
 * live list or every slot as the step does, src/gpu/collisions/collidePass.ts, and the
 * deaths and events are judged again after it), timed in turn each round;
 * prints each plane's median ratio to the frame without it, and the frame
 * without it. `--forces`: every pool also has gravity and drag from the
 * force registry (SHOWER_FORCES), fused into the step: the fountain of
 * src/bench/emitters.ts (FOUNTAIN_PLANE), whose `emitters-fountain-*` cases
 * `npm run bench` times.
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import {
  advance,
  churningEmitters,
  FILL_STEPS,
  FOUNTAIN_PLANE,
  liveTarget,
  shuffleFreeList,
} from '../src/bench/emitters';
import { SHOWER_FORCES } from '../src/bench/typicalEffect';

const flag = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const capacity = 2 ** Number(flag('--log2', '20'));
const rounds = Number(flag('--rounds', '5'));
const frames = Number(flag('--frames', '5'));
const withForces = process.argv.includes('--forces');
const DT = 1 / 60;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const { device, adapterInfo } = await acquireDevice();
try {
  process.stdout.write(
    `adapter: ${adapterInfo.description}; ${capacity} slots, ${rounds} rounds of ${frames} frames\n`,
  );
  for (const fraction of [0.1, 1]) {
    const target = liveTarget(capacity, fraction);
    const make = async (plane: 'none' | 'fused' | 'pass') => {
      const system = await ParticleSystem.create(device, {
        capacity,
        emitters: churningEmitters(target, capacity, DT),
        ...(plane === 'none' ? {} : { collisions: { colliders: [FOUNTAIN_PLANE] }, fuseColliders: plane === 'fused' }),
      });
      if (withForces) {
        for (const generator of SHOWER_FORCES) system.forces.add(generator);
      }
      const step = withForces ? 'integrate+forces' : 'integrate';
      const expected = { none: [step], fused: [`${step}+colliders`], pass: [step, 'collisions'] }[plane];
      if (expected.some((name) => !system.stepPasses.includes(name))) {
        throw new Error(`the plane ${plane}: the step's passes are ${system.stepPasses.join(', ')}`);
      }
      shuffleFreeList(system);
      await advance(system, DT, FILL_STEPS);
      return system;
    };
    const without = await make('none');
    const fused = await make('fused');
    const pass = await make('pass');
    const time = async (system: ParticleSystem) => {
      const start = performance.now();
      await advance(system, DT, frames, frames);
      return (performance.now() - start) / frames;
    };
    const ratios = { fused: [] as number[], pass: [] as number[] };
    const plain: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const a = await time(without);
      ratios.fused.push((await time(fused)) / a);
      ratios.pass.push((await time(pass)) / a);
      plain.push(a);
    }
    const live = (await fused.readStats()).live;
    const quote = (values: number[]) => `${median(values).toFixed(2)}x  [${values.map((r) => r.toFixed(2)).join(' ')}]`;
    process.stdout.write(
      `${Math.round(fraction * 100)}% live (${live}): frame without the plane ${median(plain).toFixed(1)} ms; ` +
        `with it fused ${quote(ratios.fused)}; as a pass ${quote(ratios.pass)}\n`,
    );
    for (const system of [without, fused, pass]) system.destroy();
  }
} finally {
  device.destroy();
}
