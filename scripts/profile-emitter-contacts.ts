/**
 * `npx vite-node scripts/profile-emitter-contacts.ts [-- --live 26214] [--log2 18,15] [--rounds 5]
 * [--orders auto,particles,entries] [--shuffled]`:
 * what the free slots of a pool with emitters cost the contact resolver. The
 * same live particles (one burst that outlives the run: balls of radius 0.02
 * in a sphere of radius 1, about two others in reach each, particle contacts
 * with 8 iterations) in pools of each size, one step each timed alternately
 * (wall time around one submission); prints each pool's median step. The
 * colliders passes (the apply passes too) walk the live list and, on a
 * software adapter below ENTRIES_BELOW live, the resolver's counts and
 * resolves run over the grid's entries (ContactOrder 'entries',
 * docs/collisions.md), and without links the grid's assign and scatter and
 * the candidate lists walk the live list too; the grid's scan and bucket sort
 * still cover a bucket a slot, so the larger pool's step costs a little more
 * for the same particles. `--orders` makes one pool a
 * size for each contact order named (GpuParticleSystemOptions.contactOrder;
 * default auto), all timed alternately. `--shuffled` shuffles each pool's
 * free list first, so the burst lands at random slots, as births do in a
 * pool that has churned for a while (src/bench/emitters.ts shuffleFreeList).
 * Prints only; asserts nothing.
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { timeSubmitted } from '../src/bench/timing';
import type { ContactOrder } from '../src/gpu/contactPass';
import { shuffleFreeList } from '../src/bench/emitters';

const flag = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const live = Number(flag('--live', '26214'));
const sizes = flag('--log2', '18,15').split(',').map(Number);
const rounds = Number(flag('--rounds', '5'));
const orders = flag('--orders', 'auto').split(',') as (ContactOrder | 'auto')[];
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
  for (const [log2, contactOrder] of sizes.flatMap((log2) => orders.map((order) => [log2, order] as const))) {
    const capacity = 2 ** log2;
    if (capacity < live) throw new Error(`--log2 ${log2}: ${capacity} slots cannot hold ${live} particles`);
    const system = await ParticleSystem.create(device, {
      capacity,
      collisions: { particleCollisions: true, iterations: 8 },
      contactOrder,
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
    // The live count read back, for an 'auto' order's next steps.
    await system.readStats();
    pools.push({ log2, contactOrder, system, ms: [] as number[] });
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
      `2^${pool.log2} slots (${stats.live} live), ${pool.contactOrder} ` +
        `(${pool.system.collisionPasses?.contacts?.order} last): ${median(pool.ms).toFixed(1)} ms a step ` +
        `[${pool.ms.map((ms) => ms.toFixed(1)).join(' ')}]\n`,
    );
    pool.system.destroy();
  }
} finally {
  device.destroy();
}
