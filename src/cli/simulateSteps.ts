/**
 * How a simulate run takes its steps: in chunks sized to answer Ctrl-C and
 * draw the progress bar quickly at any speed, stopping at the first chunk in
 * which a particle went non-finite, then replaying the run to name the step
 * and the particle.
 */
import type { SingleBar } from 'cli-progress';
import { SparkworksInputError } from '../core/errors';
import type { CliIo } from './flags';
import { startProgressBar } from './progressBar';
import type { Backend } from './simulateBackend';
import type { SimulateOptions } from './simulateOptions';

/** Steps per command buffer, so a huge --steps never records one giant command buffer. */
const STEPS_PER_SUBMIT = 1000;
/** Wall time a chunk of steps aims at: Ctrl-C and the progress bar answer within about this. */
const CHUNK_SECONDS = 0.25;
/** A run still going after this long shows a progress bar. */
const PROGRESS_AFTER_SECONDS = 1;

/**
 * Takes the run's steps in chunks of about CHUNK_SECONDS each (at most
 * STEPS_PER_SUBMIT), so Ctrl-C and the progress bar answer quickly at any
 * speed; returns how many were taken (fewer than asked when `stop` fired).
 */
export async function runSteps(
  backend: Backend,
  options: SimulateOptions,
  io: CliIo,
  started: number,
  stop: AbortSignal | undefined,
): Promise<{ taken: number; badChunk: [number, number] | null }> {
  let done = 0;
  let chunk = 1;
  let badChunk: [number, number] | null = null;
  let bar: SingleBar | null = null;
  try {
    while (done < options.steps && !stop?.aborted) {
      const steps = Math.min(chunk, options.steps - done);
      const chunkStarted = performance.now();
      await backend.system.stepMany(options.dt, steps);
      await backend.settle();
      // The CPU backend settles in microtasks alone: yield to the event loop so Ctrl-C and the bar's timer get their turn.
      await new Promise((resolve) => setImmediate(resolve));
      done += steps;
      // A particle gone NaN or infinite: JSON cannot hold the result, so stop and find where (findNonFinite).
      if ((await backend.system.readStats()).nonFinite > 0) {
        badChunk = [done - steps, done];
        break;
      }
      const seconds = (performance.now() - chunkStarted) / 1000;
      chunk = Math.max(1, Math.min(STEPS_PER_SUBMIT, Math.round(steps * (CHUNK_SECONDS / Math.max(seconds, 1e-4)))));
      const elapsed = (performance.now() - started) / 1000;
      if (!bar && options.progress && io.progress && elapsed > PROGRESS_AFTER_SECONDS && done < options.steps) {
        bar = startProgressBar(
          io.progress,
          'simulate [{bar}] {percentage}% | {value}/{total} steps | {eta_formatted} left | Ctrl-C writes the state reached',
          options.steps,
          done,
        );
      }
      bar?.update(done);
    }
  } finally {
    bar?.stop();
  }
  return { taken: done, badChunk };
}

/**
 * The first step at which a particle's state went non-finite, and the lowest
 * such particle: the run is deterministic, so it is run again on a fresh
 * backend to the start of the chunk where the count first rose, then a step
 * at a time. Refused as input: the scene's values overflow float32 there.
 */
export async function findNonFinite(
  open: () => Promise<Backend>,
  options: SimulateOptions,
  [from, to]: [number, number],
  count: number,
): Promise<never> {
  const backend = await open();
  try {
    for (let done = 0; done < from; done += STEPS_PER_SUBMIT) {
      await backend.system.stepMany(options.dt, Math.min(STEPS_PER_SUBMIT, from - done));
    }
    for (let step = from + 1; step <= to; step++) {
      await backend.system.stepMany(options.dt, 1);
      if ((await backend.system.readStats()).nonFinite === 0) continue;
      const snapshot = await backend.system.read(0, count);
      for (let i = 0; i < count; i++) {
        const position = Array.from(snapshot.position.subarray(3 * i, 3 * i + 3));
        const velocity = Array.from(snapshot.velocity.subarray(3 * i, 3 * i + 3));
        if ([...position, ...velocity].every(Number.isFinite)) continue;
        throw new SparkworksInputError(
          `particles[${i}] became non-finite at step ${step} of ${options.steps} (dt ${options.dt}): ` +
            `position [${position.join(', ')}], velocity [${velocity.join(', ')}]; the scene's values overflow ` +
            'float32 there (forces, speeds or sizes too large), and JSON cannot hold non-finite numbers',
          `particles[${i}]`,
          step,
        );
      }
    }
    throw new Error(`the run went non-finite in steps ${from + 1} to ${to} but not when run again: not deterministic`);
  } finally {
    backend.close();
  }
}
