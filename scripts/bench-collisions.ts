/**
 * `npm run bench:collisions [-- --sizes 18,20] [--iterations 8] [--repeats 3]`
 *
 * Particle-particle collisions against the step alone, at 2^18 and 2^20
 * particles by default: a cube of balls dense enough that each touches about
 * two others, under gravity. Times the integration step alone, the grid
 * rebuild (counting sort on the GPU) with the candidate lists made from it
 * once a step (shaders/collisions/contacts.wgsl, MODE_CANDIDATES), and one Jacobi
 * iteration of the contact resolver (count, resolve, apply) with the very
 * passes a step records, and
 * composes a step with collisions as step + grid + K iterations; it also times
 * one real step with one iteration to check the composition. Wall time around
 * submit and onSubmittedWorkDone (the queue drained first), median of the
 * repeats. Then the speed issue's target from src/bench/contactRatio.ts (the
 * plain step and grid + K iterations timed in alternating rounds), printed
 * MET or NOT MET with its figure. scripts/profile-contacts.ts times each pass.
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { DEFAULT_CONTACT_SETTINGS } from '../src/core/collisions/world';
import { contactCube, CONTACT_NEIGHBOURS, CONTACT_RADIUS } from '../src/bench/contactScene';
import { contactTargetLine, measureContactRatio } from '../src/bench/contactRatio';
import { scriptFlags } from '../src/bench/options';
import { timeSubmitted } from '../src/bench/timing';

const flags = scriptFlags(process.argv, (message) => {
  process.stderr.write(`bench:collisions: ${message}\n`);
  process.exit(1);
});
const sizes = flags.exponents('--sizes', [18, 20]);
const iterations = flags.integer('--iterations', DEFAULT_CONTACT_SETTINGS.iterations, 1, 256);
const repeats = flags.integer('--repeats', 3, 1);

const DT = 1 / 60;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const { device, adapterInfo } = await acquireDevice();

/** Median wall time of `record`, submitted alone after the queue drained. */
async function time(record: (encoder: GPUCommandEncoder) => void, count = repeats): Promise<number> {
  const samples: number[] = [];
  for (let r = 0; r < count; r++) samples.push(await timeSubmitted(device, record, 'bench:collisions'));
  return median(samples);
}

interface Row {
  count: number;
  step: number;
  grid: number;
  iteration: number;
  measuredOne: number;
}

const rows: Row[] = [];
try {
  process.stdout.write(`adapter: ${adapterInfo.description} (${adapterInfo.source})\n`);
  process.stdout.write(
    `scene: a cube of balls of radius ${CONTACT_RADIUS}, ${CONTACT_NEIGHBOURS} others in reach of each on average, gravity; ` +
      `median of ${repeats} runs, wall time\n`,
  );
  for (const exponent of sizes) {
    const count = 2 ** exponent;
    const particles = contactCube(count);
    const plain = await ParticleSystem.create(device, { capacity: count });
    await plain.writeParticles(0, particles);
    const step = await time((encoder) => plain.encodeSteps(encoder, DT, 1));
    plain.destroy();

    const colliding = await ParticleSystem.create(device, {
      capacity: count,
      collisions: { particleCollisions: true, iterations: 1 },
    });
    await colliding.writeParticles(0, particles);
    const passes = colliding.collisionPasses!;
    const grid = await time((encoder) => passes.encodeGrid(encoder, DT, count));
    const iteration = await time((encoder) => passes.encodeIteration(encoder, DT, count));
    // One real step (integration, grid, one iteration), once: the composition's check.
    await colliding.writeParticles(0, particles);
    const measuredOne = await time((encoder) => colliding.encodeSteps(encoder, DT, 1), 1);
    colliding.destroy();
    const row = { count, step, grid, iteration, measuredOne };
    rows.push(row);
    const total = step + grid + iterations * iteration;
    process.stdout.write(
      `2^${exponent} = ${count} particles: step alone ${step.toFixed(1)} ms; grid rebuild and candidate lists ${grid.toFixed(1)} ms; ` +
        `one contact iteration ${iteration.toFixed(1)} ms; step + collisions with ${iterations} iterations ` +
        `${total.toFixed(1)} ms = ${(total / step).toFixed(1)} x the step ` +
        `(one real step with 1 iteration: ${measuredOne.toFixed(1)} ms, composed ${(step + grid + iteration).toFixed(1)} ms)\n`,
    );
  }
  for (let k = 1; k < rows.length; k++) {
    const [a, b] = [rows[k - 1] as Row, rows[k] as Row];
    const growth = b.count / a.count;
    const exponent = (x: number, y: number) => (Math.log(y / x) / Math.log(growth)).toFixed(2);
    process.stdout.write(
      `${a.count} -> ${b.count} particles (x${growth}): grid x${(b.grid / a.grid).toFixed(2)}, ` +
        `iteration x${(b.iteration / a.iteration).toFixed(2)} (cost ~ count^${exponent(a.grid, b.grid)} and ` +
        `count^${exponent(a.iteration, b.iteration)}; linear is ^1, all pairs ^2)\n`,
    );
  }
  // The target, from the plain step and the contacts timed in alternating rounds.
  const ratio = await measureContactRatio(device, { sizes, iterations, rounds: repeats, dt: DT });
  for (const size of ratio.sizes) {
    process.stdout.write(
      `${size.count} particles, alternating rounds: step ${size.stepMs.toFixed(3)} ms (${size.stepsPerSubmission} a submission, the median of ${size.stepSamplesPerRound} a round), grid + ${iterations} ` +
        `iterations ${size.contactsMs.toFixed(1)} ms = ${size.ratio.toFixed(1)}x the step ` +
        `(rounds: ${size.ratios.map((r) => r.toFixed(1)).join(', ')})\n`,
    );
  }
  process.stdout.write(`${contactTargetLine(ratio)}\n`);
} finally {
  device.destroy();
}
