/**
 * `npm run simulate -- (--scene scene.json | --resume run.snap) --steps N --dt S
 *   [--integrator explicit|semi-implicit] [--damping per-second|per-step|off] [--cpu]
 *   [--out state.json] [--snapshot-out run.snap] [--no-progress]`
 *
 * Steps a scene headless, on the GPU (or the CPU reference with --cpu), and
 * writes the final state as JSON to --out, or to stdout without it; with
 * --snapshot-out also a snapshot (docs/snapshots.md) that --resume continues
 * bit for bit. A one-line
 * summary goes to stderr, so stdout stays pure JSON when it carries the state.
 * A long run shows a progress bar on stderr; Ctrl-C stops it at the next
 * chunk of steps and writes the state reached (exit code 130).
 *
 * Here the run from flags to output; its parts: the flags (simulateOptions.ts),
 * the files they name (simulateFiles.ts), the GPU or CPU system
 * (simulateBackend.ts), the stepping (simulateSteps.ts), the JSON (simulateOutput.ts).
 */
import type { LifecycleSnapshot } from '../core/emitters/stats';
import { SparkworksInputError } from '../core/errors';
import type { ParticleSnapshot } from '../core/particles';
import { decodeSnapshot } from '../core/snapshot/systemSnapshot';
import { variantName } from '../core/variants';
import {
  parseScene,
  sceneCapacity,
  sceneToCollisions,
  sceneToForces,
  sceneToLifecycle,
  sceneToParticles,
} from '../scene/scene';
import { checkFlag, failureExitCode, processIo, type CliIo } from './flags';
import { openBackend, type RunSource } from './simulateBackend';
import { checkOut, readInput, writeAtomically } from './simulateFiles';
import { parseSimulateOptions } from './simulateOptions';
import { centroid, liveStates, particleStates, toJson, type SimulationOutput } from './simulateOutput';
import { findNonFinite, runSteps } from './simulateSteps';

/** Exit code after Ctrl-C, as shells report a process ended by SIGINT (128 + 2). */
export const INTERRUPTED_EXIT_CODE = 130;

export interface SimulateResult {
  output: SimulationOutput;
  summary: string;
}

/** Where the command writes; the tests pass their own to keep quiet. */
export type SimulateIo = CliIo;

/**
 * Runs the command (without exiting); throws SparkworksInputError or
 * CommanderError for bad input. `stop` (Ctrl-C in main) ends the run after the
 * chunk of steps in flight, and the state reached is written as usual.
 */
export async function runSimulate(
  argv: string[],
  io: SimulateIo = processIo,
  stop?: AbortSignal,
): Promise<SimulateResult> {
  const options = parseSimulateOptions(argv, io);
  const input = options.scene !== undefined ? await readInput('--scene', options.scene) : undefined;
  const resumed = options.resume !== undefined ? await readInput('--resume', options.resume) : undefined;
  const others = [
    { path: options.scene, is: 'the scene file' },
    { path: options.resume, is: 'the snapshot file' },
  ];
  if (options.out !== undefined) await checkOut('--out', options.out, others);
  if (options.snapshotOut !== undefined) {
    await checkOut('--snapshot-out', options.snapshotOut, [...others, { path: options.out, is: 'the --out file' }]);
  }

  let source: RunSource;
  let variant = options.variant;
  let listed: number;
  let emitting: boolean;
  let capacity: number;
  if (input !== undefined) {
    const scene = parseScene(input.toString('utf8'), options.scene as string);
    const particles = sceneToParticles(scene);
    const lifecycle = sceneToLifecycle(scene);
    emitting = lifecycle.emitters !== undefined;
    capacity = sceneCapacity(scene);
    listed = emitting ? capacity : particles.length;
    source = {
      kind: 'scene',
      capacity,
      collisions: sceneToCollisions(scene),
      lifecycle,
      setup: { particles, forces: sceneToForces(scene) },
    };
  } else {
    const bytes = new Uint8Array(resumed as Buffer);
    // Checked here (not only by restore) to name the flag, and to take the variant the snapshot was stepped with.
    const { config } = checkFlag('--resume', () => decodeSnapshot(bytes));
    if (options.variantGiven && variantName(options.variant) !== variantName(config.variant)) {
      throw new SparkworksInputError(
        `--integrator/--damping: ${variantName(options.variant)} differs from the snapshot's ` +
          `${variantName(config.variant)}, which a resumed run keeps (leave the flags out)`,
        '--integrator',
        variantName(options.variant),
      );
    }
    variant = config.variant;
    emitting = config.lifecycle !== null;
    capacity = config.capacity;
    // The snapshot does not say how many particles the scene listed: every slot is listed.
    listed = capacity;
    source = { kind: 'snapshot', bytes };
  }
  const run = { ...options, variant };
  const open = () => openBackend(options.cpu, variant, source);
  const backend = await open();
  let snapshot: ParticleSnapshot;
  let elapsedMs: number;
  let life: LifecycleSnapshot | null = null;
  let taken = 0;
  let badChunk: [number, number] | null = null;
  let saved: Uint8Array | null = null;
  let stepCount = 0;
  let time = 0;
  try {
    const started = performance.now();
    ({ taken, badChunk } = await runSteps(backend, run, io, started, stop));
    // Reading waits for the GPU, so the time covers the steps themselves.
    snapshot = await backend.system.read(0, listed);
    elapsedMs = performance.now() - started;
    life = await backend.system.readLifecycle();
    if (options.snapshotOut !== undefined && !badChunk) saved = await backend.system.snapshot();
    ({ stepCount, time } = backend.system);
  } finally {
    backend.close();
  }
  if (badChunk) await findNonFinite(open, run, badChunk, listed);

  const output: SimulationOutput = {
    backend: options.cpu ? 'cpu' : 'gpu',
    adapter: backend.adapter,
    variant,
    steps: taken,
    dt: options.dt,
    particles: life ? liveStates(particleStates(snapshot, taken), life) : particleStates(snapshot, taken),
    ...(life
      ? {
          stats: {
            live: life.stats.live,
            emitted: life.stats.emitted,
            killed: life.stats.killed,
            shortfall: life.stats.shortfall,
          },
        }
      : {}),
    ...(taken < options.steps ? { interrupted: true as const, requestedSteps: options.steps } : {}),
    stepCount,
    time,
    ...(options.resume !== undefined ? { resumedFrom: options.resume } : {}),
  };
  const json = toJson(output);
  if (options.out === undefined) io.out(json);
  else await writeAtomically('--out', options.out, json);
  if (saved && options.snapshotOut !== undefined) await writeAtomically('--snapshot-out', options.snapshotOut, saved);

  const counted = output.stats
    ? `${output.stats.live} live particles (${capacity} slots; ${output.stats.emitted} emitted, ` +
      `${output.stats.killed} killed, ${output.stats.shortfall} short)`
    : `${listed} particles`;
  const stepsTaken = output.interrupted ? `${taken} of ${options.steps} steps (interrupted)` : `${taken} steps`;
  const summary =
    `simulated ${counted} x ${stepsTaken} of ${options.dt} s ` +
    (options.resume === undefined ? '' : `(resumed from ${options.resume} at step ${stepCount - taken}) `) +
    `on ${backend.adapter.description} (${variantName(variant)}) in ${Math.round(elapsedMs)} ms; ` +
    `centroid [${centroid(output.particles).join(', ')}]` +
    (options.out === undefined ? '' : `; wrote ${options.out}`) +
    (saved === null ? '' : `; wrote the snapshot ${options.snapshotOut}`);
  io.err(summary + '\n');
  return { output, summary };
}

/** runSimulate as a program: returns the exit code, and bad input is one line on stderr. */
export async function main(argv: string[], io: SimulateIo = processIo): Promise<number> {
  // The first Ctrl-C stops the run and writes what it reached; a second one ends the process at once.
  const controller = new AbortController();
  const interrupt = (): void => {
    controller.abort();
    io.err('simulate: interrupted; writing the state reached (Ctrl-C again to quit without it)\n');
    process.removeListener('SIGINT', interrupt);
  };
  process.on('SIGINT', interrupt);
  try {
    const { output } = await runSimulate(argv, io, controller.signal);
    return output.interrupted ? INTERRUPTED_EXIT_CODE : 0;
  } catch (error) {
    return failureExitCode('simulate', error, io);
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
}
