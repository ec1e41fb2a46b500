/**
 * `npx vite-node scripts/profile-emitter-colliders.ts [-- --log2 20] [--rounds 5] [--frames 5]`:
 * what a ground plane adds to a frame of a churning pool with emitters (the
 * benchmark's pool, src/bench/emitters.ts) at 10% and 100% live: the same
 * pool with and without the plane, timed alternately, each round's ratio;
 * prints the median ratio and the plain frame against a pool without
 * emitters. The colliders pass walks the live list or every slot as the
 * step does (src/gpu/collidePass.ts), so at 10% live it should cost about a
 * tenth of what it costs at 100%.
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { advance, churningEmitters, FILL_STEPS, liveTarget, shuffleFreeList } from '../src/bench/emitters';

const flag = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const capacity = 2 ** Number(flag('--log2', '20'));
const rounds = Number(flag('--rounds', '5'));
const frames = Number(flag('--frames', '5'));
const DT = 1 / 60;
const PLANE = { type: 'plane' as const, normal: [0, 1, 0] as [number, number, number], offset: -2, restitution: 0.4 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const { device, adapterInfo } = await acquireDevice();
try {
  process.stdout.write(
    `adapter: ${adapterInfo.description}; ${capacity} slots, ${rounds} rounds of ${frames} frames\n`,
  );
  for (const fraction of [0.1, 1]) {
    const target = liveTarget(capacity, fraction);
    const make = async (plane: boolean) => {
      const system = await ParticleSystem.create(device, {
        capacity,
        emitters: churningEmitters(target, capacity, DT),
        ...(plane ? { collisions: { colliders: [PLANE] } } : {}),
      });
      shuffleFreeList(system);
      await advance(system, DT, FILL_STEPS);
      return system;
    };
    const without = await make(false);
    const withPlane = await make(true);
    const time = async (system: ParticleSystem) => {
      const start = performance.now();
      await advance(system, DT, frames, frames);
      return (performance.now() - start) / frames;
    };
    const ratios: number[] = [];
    const plain: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const a = await time(without);
      const b = await time(withPlane);
      plain.push(a);
      ratios.push(b / a);
    }
    const live = (await withPlane.readStats()).live;
    process.stdout.write(
      `${Math.round(fraction * 100)}% live (${live}): frame without the plane ${median(plain).toFixed(1)} ms; ` +
        `with it ${median(ratios).toFixed(2)}x  [${ratios.map((r) => r.toFixed(2)).join(' ')}]\n`,
    );
    without.destroy();
    withPlane.destroy();
  }
} finally {
  device.destroy();
}
