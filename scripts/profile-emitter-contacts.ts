/**
 * `npx vite-node scripts/profile-emitter-contacts.ts [-- --live 26214] [--log2 18,15] [--rounds 5] [--shuffled]`:
 * what the free slots of a pool with emitters cost the contact resolver. The
 * same live particles (one burst that outlives the run: balls of radius 0.02
 * in a sphere of radius 1, about two others in reach each, particle contacts
 * with 8 iterations) in pools of each size, one step each timed alternately
 * (wall time around one submission); prints each pool's median step. The
 * resolver's passes and the grid cover every slot (a free one, out of the
 * grid, returns at once), the grid's scan and bucket sort a bucket a slot.
 * `--shuffled` shuffles each pool's free list first, so the burst lands at
 * random slots, as births do in a pool that has churned for a while
 * (src/bench/emitters.ts shuffleFreeList). Prints only; asserts nothing.
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { timeSubmitted } from '../src/bench/timing';
import { shuffleFreeList } from '../src/bench/emitters';

const flag = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const live = Number(flag('--live', '26214'));
const sizes = flag('--log2', '18,15').split(',').map(Number);
const rounds = Number(flag('--rounds', '5'));
const shuffled = process.argv.includes('--shuffled');
const DT = 1 / 60;
const RADIUS = 0.02;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const { device, adapterInfo } = await acquireDevice();
try {
  process.stdout.write(
    `adapter: ${adapterInfo.description}; ${live} live particles${shuffled ? ' at shuffled slots' : ''}; ` +
      `${rounds} alternating rounds\n`,
  );
  const pools = [];
  for (const log2 of sizes) {
    const capacity = 2 ** log2;
    if (capacity < live) throw new Error(`--log2 ${log2}: ${capacity} slots cannot hold ${live} particles`);
    const system = await ParticleSystem.create(device, {
      capacity,
      collisions: { particleCollisions: true, iterations: 8 },
      emitters: [
        {
          burst: live,
          lifetime: 1e6,
          radius: RADIUS,
          shape: { type: 'sphere', radius: 1 },
          velocity: { spread: Math.PI, speed: [0, 1] },
        },
      ],
    });
    if (shuffled) shuffleFreeList(system);
    // The burst's step, then one more: the resolver's buffers exist and the pool holds its particles.
    await system.stepMany(DT, 2);
    pools.push({ log2, system, ms: [] as number[] });
  }
  for (let round = 0; round < rounds; round++) {
    for (const pool of pools) {
      pool.ms.push(await timeSubmitted(device, (encoder) => pool.system.encodeSteps(encoder, DT, 1), 'step'));
      pool.system.submitted();
    }
  }
  for (const pool of pools) {
    const stats = await pool.system.readStats();
    process.stdout.write(
      `2^${pool.log2} slots (${stats.live} live): ${median(pool.ms).toFixed(1)} ms a step ` +
        `[${pool.ms.map((ms) => ms.toFixed(1)).join(' ')}]\n`,
    );
    pool.system.destroy();
  }
} finally {
  device.destroy();
}
