/**
 * Particle-particle contacts against the step, timed in one run on one
 * device (the speed issue's third target): at each size, the plain step and
 * the contacts a step with collisions adds (the grid rebuild with its
 * candidate lists, then `iterations` Jacobi iterations: count, resolve,
 * apply), on the benchmark's cube of balls (src/bench/contactScene.ts),
 * alternating every round so each ratio compares timings taken moments apart.
 * Used by `npm run bench:collisions` and the main benchmark.
 */
import { DEFAULT_CONTACT_SETTINGS } from '../core/collisions/world';
import { withHeldErrorScopes } from '../gpu/device/errors';
import { ParticleSystem } from '../gpu/particleSystem';
import { contactCube } from './contactScene';
import { alternatingRounds, stepsPerSubmission, timeSubmitted, median } from './timing';

/** The target: contacts (grid + 8 iterations) at most this many plain steps, at CONTACT_TARGET_COUNT particles. */
export const CONTACT_TARGET_RATIO = 60;
export const CONTACT_TARGET_COUNT = 2 ** 18;
export const CONTACT_TARGET = `contacts <= ${CONTACT_TARGET_RATIO}x step at 2^18`;
/** The sizes the main benchmark times, as exponents of two (those within its largest size). */
export const CONTACT_RATIO_SIZES: readonly number[] = [16, 18];
/**
 * Submissions of the plain step timed in each round, beside one of the
 * contacts: the round's step is their median, so that one disturbed sample
 * of a step (milliseconds, against seconds of contacts) does not move the
 * round's ratio by half.
 */
export const STEP_SAMPLES_PER_ROUND = 5;

export interface ContactRatioOptions {
  /** Exponents of two. Default [16, 18]. */
  sizes?: readonly number[];
  /** Jacobi iterations. Default 8 (the resolver's default). */
  iterations?: number;
  /** Timed rounds after one warm-up round; the median is reported. Default 3. */
  rounds?: number;
  dt?: number;
}

export interface ContactSizeTiming {
  count: number;
  /** Median milliseconds of one plain step. */
  stepMs: number;
  /** Plain steps in each timed submission (stepsPerSubmission in src/bench/timing.ts): the step's time is their mean. */
  stepsPerSubmission: number;
  /** Submissions of the plain step timed in each round (STEP_SAMPLES_PER_ROUND): the round's step is their median. */
  stepSamplesPerRound: number;
  /** Median milliseconds of the grid rebuild, its candidate lists and `iterations` iterations. */
  contactsMs: number;
  /** Median over rounds of (contacts / plain step), each round timing both moments apart. */
  ratio: number;
  ratios: number[];
}

export interface ContactRatioResult {
  iterations: number;
  sizes: ContactSizeTiming[];
  /** The target, its figure (the ratio at 2^18; null when 2^18 was not measured) and whether it is met. */
  target: { target: string; figure: number | null; met: boolean };
}

/** Wall-clock of what `record` encodes, submitted alone after the queue drained. */
async function timeRecorded(device: GPUDevice, record: (encoder: GPUCommandEncoder) => void): Promise<number> {
  return withHeldErrorScopes(device, 'timing the contacts against the step', () =>
    timeSubmitted(device, record, 'measureContactRatio'),
  );
}

/** Times the plain step and a step's contacts at each size, alternating every round. The device stays the caller's. */
export async function measureContactRatio(
  device: GPUDevice,
  options: ContactRatioOptions = {},
): Promise<ContactRatioResult> {
  const iterations = options.iterations ?? DEFAULT_CONTACT_SETTINGS.iterations;
  const rounds = options.rounds ?? 3;
  const dt = options.dt ?? 1 / 60;
  const sizes: ContactSizeTiming[] = [];
  for (const exponent of options.sizes ?? [16, 18]) {
    const count = 2 ** exponent;
    const particles = contactCube(count);
    const plain = await ParticleSystem.create(device, { capacity: count });
    let colliding: ParticleSystem | null = null;
    try {
      const pool = await ParticleSystem.create(device, {
        capacity: count,
        collisions: { particleCollisions: true, iterations },
      });
      colliding = pool;
      await plain.writeParticles(0, particles);
      const passes = pool.collisionPasses!;
      // Enough steps a submission that the step, not the submission, is what the contacts are divided by.
      const perSubmission = await stepsPerSubmission(
        (k) => timeRecorded(device, (encoder) => plain.encodeSteps(encoder, dt, k)),
        1,
      );
      const {
        steps,
        others: contacts,
        ratios,
      } = await alternatingRounds(rounds, async () => {
        // The same scene every round: the resolver separates the balls it pushes apart.
        await pool.writeParticles(0, particles);
        const stepSamples: number[] = [];
        for (let k = 0; k < STEP_SAMPLES_PER_ROUND; k++)
          stepSamples.push(await timeRecorded(device, (encoder) => plain.encodeSteps(encoder, dt, perSubmission)));
        const step = median(stepSamples) / perSubmission;
        const contact = await timeRecorded(device, (encoder) => {
          passes.encodeGrid(encoder, dt, count);
          for (let k = 0; k < iterations; k++) passes.encodeIteration(encoder, dt, count);
        });
        return [step, contact] as const;
      });
      sizes.push({
        count,
        stepMs: median(steps),
        stepsPerSubmission: perSubmission,
        stepSamplesPerRound: STEP_SAMPLES_PER_ROUND,
        contactsMs: median(contacts),
        ratio: median(ratios),
        ratios,
      });
    } finally {
      plain.destroy();
      colliding?.destroy();
    }
  }
  const atTarget = sizes.find((s) => s.count === CONTACT_TARGET_COUNT);
  const figure = atTarget ? atTarget.ratio : null;
  return {
    iterations,
    sizes,
    target: { target: CONTACT_TARGET, figure, met: figure !== null && figure <= CONTACT_TARGET_RATIO },
  };
}

/** The target as the bench report states it (src/bench/targets.ts), from the run's contact ratio (null: not measured). */
export function contactTarget(result: ContactRatioResult | null): {
  target: string;
  met: boolean | null;
  figure: string;
  applies: boolean;
} {
  const label = `${CONTACT_TARGET} (grid + 8 iterations)`;
  if (!result || result.target.figure === null)
    return { target: label, met: null, figure: 'not measured: the run reached no 2^18 particles', applies: true };
  const sizes = result.sizes
    .map(
      (s) =>
        `2^${Math.log2(s.count)}: ${s.ratio.toFixed(1)}x (median of ${s.ratios.length}: ` +
        `${s.ratios.map((r) => `${r.toFixed(1)}x`).join(', ')}; ${s.contactsMs.toFixed(0)} ms against ${s.stepMs.toFixed(3)} ms, the step timed ${s.stepsPerSubmission} a submission, the median of ${s.stepSamplesPerRound} submissions a round)`,
    )
    .join('; ');
  return {
    target: label,
    met: result.target.met,
    figure: `grid + ${result.iterations} iterations against the plain step, alternating rounds: ${sizes}`,
    applies: true,
  };
}

/** The target's line: `contacts <= 60x step at 2^18: MET (41.2x)`. */
export function contactTargetLine(result: ContactRatioResult): string {
  const { target, figure, met } = result.target;
  if (figure === null) return `${target}: not measured (2^18 not among the sizes)`;
  return `${target}: ${met ? 'MET' : 'NOT MET'} (${figure.toFixed(1)}x)`;
}
