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
 */
import { randomBytes } from 'node:crypto';
import { access, constants, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import { Command } from 'commander';
import type { ParticleSystemApi } from '../core/api';
import type { CollisionOptions } from '../core/collisions/world';
import { CpuParticleSystem } from '../core/cpuParticleSystem';
import type { LifecycleOptions } from '../core/emitters/options';
import type { LifecycleSnapshot } from '../core/emitters/stats';
import { SparkworksInputError } from '../core/errors';
import { decodeSnapshot } from '../core/snapshot/systemSnapshot';
import { checkStepCount, checkTimeStep, type ParticleSnapshot } from '../core/particles';
import {
  DAMPING_MODES,
  DEFAULT_VARIANT,
  INTEGRATION_ORDERS,
  resolveVariant,
  variantName,
  type Variant,
} from '../core/variants';
import type { AdapterDescription } from '../gpu/device/device';
import { acquireDevice } from '../node/device';
import { ParticleSystem } from '../gpu/particleSystem';
import {
  parseScene,
  sceneCapacity,
  sceneToCollisions,
  sceneToForces,
  sceneToLifecycle,
  sceneToParticles,
} from '../scene/scene';
import { checkFlag, failureExitCode, numberFlag, processIo, type CliIo } from './flags';

/** Steps per command buffer, so a huge --steps never records one giant command buffer. */
const STEPS_PER_SUBMIT = 1000;
/** The most steps one run takes: about 4.6 hours of simulated time at 1/60 s, and a day or more of stepping here. */
export const MAX_STEPS = 1_000_000_000;
/** Wall time a chunk of steps aims at: Ctrl-C and the progress bar answer within about this. */
const CHUNK_SECONDS = 0.25;
/** A run still going after this long shows a progress bar. */
const PROGRESS_AFTER_SECONDS = 1;
/** Exit code after Ctrl-C, as shells report a process ended by SIGINT (128 + 2). */
export const INTERRUPTED_EXIT_CODE = 130;

const CPU_ADAPTER = { description: 'CPU reference (float32)' } as const;

export interface ParticleState {
  position: number[];
  velocity: number[];
  acceleration: number[];
  inverseMass: number;
  /** Omitted for an immovable particle (inverseMass 0). */
  mass?: number;
  damping: number;
  /** Omitted when 0 (a point); -1 for a particle a kill collider took. */
  radius?: number;
  /** A scene with emitters: the particle's slot, its age, and its lifetime (omitted for the scene's own particles, which never die). */
  slot?: number;
  age?: number;
  lifetime?: number;
}

/** A scene with emitters: what the lifecycle did over the run. */
export interface LifecycleOutput {
  live: number;
  emitted: number;
  killed: number;
  shortfall: number;
}

export interface SimulationOutput {
  backend: 'gpu' | 'cpu';
  adapter: AdapterDescription | typeof CPU_ADAPTER;
  variant: Variant;
  steps: number;
  dt: number;
  /** Without emitters every particle of the scene; with emitters the live ones, by slot. */
  particles: ParticleState[];
  /** Only for a scene with emitters or fireworks. */
  stats?: LifecycleOutput;
  /** Only when Ctrl-C stopped the run: `steps` is how many were taken, of `requestedSteps`. */
  interrupted?: true;
  requestedSteps?: number;
  /** Steps since the scene's start: `steps` plus those of the snapshot a --resume run continued. */
  stepCount: number;
  /** Seconds simulated since the scene's start (the sum of every step's dt). */
  time: number;
  /** Only for a --resume run: the snapshot it continued. */
  resumedFrom?: string;
}

export interface SimulateResult {
  output: SimulationOutput;
  summary: string;
}

/** Where the command writes; the tests pass their own to keep quiet. */
export type SimulateIo = CliIo;

interface Options {
  /** Exactly one of scene and resume is set. */
  scene: string | undefined;
  resume: string | undefined;
  steps: number;
  dt: number;
  variant: Variant;
  cpu: boolean;
  out: string | undefined;
  snapshotOut: string | undefined;
  progress: boolean;
  /** Whether --integrator or --damping was given (a --resume run takes the snapshot's). */
  variantGiven: boolean;
}

/** The flags as commander hands them over: strings, checked in parseOptions. */
interface Flags {
  scene?: string;
  resume?: string;
  snapshotOut?: string;
  steps: string;
  dt: string;
  integrator: string;
  damping: string;
  cpu?: true;
  out?: string;
  progress: boolean;
}

/** Defaults: one second at 60 steps a second (render's step, `npm run render`, is 1/60 s too). */
export const SIMULATE_DEFAULTS = { steps: 60, dt: 1 / 60 } as const;

function parseOptions(argv: string[], io: SimulateIo): Options {
  const program = new Command('simulate')
    .description('Step a scene headless and write the final particle state as JSON.')
    .option('--scene <file>', 'scene JSON file (or --resume)')
    .option('--resume <file>', 'continue from a snapshot that --snapshot-out wrote (or --scene)')
    .option(
      '--steps <n>',
      `number of steps, an integer from 0 to ${MAX_STEPS.toLocaleString('en-US')}`,
      String(SIMULATE_DEFAULTS.steps),
    )
    .option('--dt <seconds>', 'time step, finite and > 0', String(SIMULATE_DEFAULTS.dt))
    .option('--integrator <order>', INTEGRATION_ORDERS.join(' | '), DEFAULT_VARIANT.integrator)
    .option('--damping <mode>', DAMPING_MODES.join(' | '), DEFAULT_VARIANT.damping)
    .option('--cpu', 'use the CPU reference instead of the GPU')
    .option('--out <file>', 'write the state here instead of stdout')
    .option('--snapshot-out <file>', 'also write a snapshot of the final state here, for --resume')
    .option('--no-progress', 'no progress bar on stderr, however long the run')
    // Throw instead of exiting, so runSimulate can be tested; main() prints the message once.
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: () => {} });
  program.parse(argv, { from: 'user' });
  const flags = program.opts<Flags>();
  if ((flags.scene === undefined) === (flags.resume === undefined)) {
    const both = flags.scene !== undefined;
    throw new SparkworksInputError(
      both
        ? '--scene and --resume: give one, not both (a snapshot holds its scene)'
        : "required option '--scene <file>' not specified (or --resume <file>)",
      both ? '--resume' : '--scene',
      flags.resume,
    );
  }
  const variantGiven = ['integrator', 'damping'].some((name) => program.getOptionValueSource(name) === 'cli');

  const steps = numberFlag('--steps', flags.steps);
  checkFlag('--steps', () => checkStepCount(steps));
  if (steps > MAX_STEPS) {
    throw new SparkworksInputError(
      `--steps: ${flags.steps} is more than ${MAX_STEPS.toLocaleString('en-US')}, the most one run takes`,
      '--steps',
      steps,
    );
  }
  const dt = numberFlag('--dt', flags.dt);
  checkFlag('--dt', () => checkTimeStep(dt));
  // resolveVariant fills the other half with its default, so each call checks one flag.
  const { integrator } = checkFlag('--integrator', () => resolveVariant({ integrator: flags.integrator }));
  const { damping } = checkFlag('--damping', () => resolveVariant({ damping: flags.damping }));
  const variant = { integrator, damping };
  return {
    scene: flags.scene,
    resume: flags.resume,
    steps,
    dt,
    variant,
    cpu: flags.cpu === true,
    out: flags.out,
    snapshotOut: flags.snapshotOut,
    progress: flags.progress,
    variantGiven,
  };
}

interface Backend {
  system: ParticleSystemApi;
  adapter: SimulationOutput['adapter'];
  /** Resolves when the steps submitted so far have run (the GPU queue is drained). */
  settle(): Promise<void>;
  close(): void;
}

/** Where a run starts: a scene (its system built and filled) or a snapshot (restored). */
type RunSource =
  | {
      kind: 'scene';
      capacity: number;
      collisions: CollisionOptions | undefined;
      lifecycle: LifecycleOptions;
      setup: SceneSetup;
    }
  | { kind: 'snapshot'; bytes: Uint8Array };

/** A backend with its system ready to step: built from the scene and filled, or restored from the snapshot. */
async function openBackend(cpu: boolean, variant: Variant, source: RunSource): Promise<Backend> {
  const options = (s: Extract<RunSource, { kind: 'scene' }>) => ({
    capacity: s.capacity,
    ...variant,
    collisions: s.collisions,
    ...s.lifecycle,
  });
  let backend: Backend;
  if (cpu) {
    const system =
      source.kind === 'scene' ? new CpuParticleSystem(options(source)) : CpuParticleSystem.restore(source.bytes);
    backend = { system, adapter: CPU_ADAPTER, settle: async () => {}, close: () => system.destroy() };
  } else {
    const { device, adapterInfo } = await acquireDevice();
    try {
      const system =
        source.kind === 'scene'
          ? await ParticleSystem.create(device, options(source))
          : await ParticleSystem.restore(device, source.bytes);
      backend = {
        system,
        adapter: adapterInfo,
        settle: () => device.queue.onSubmittedWorkDone(),
        close: () => {
          system.destroy();
          device.destroy();
        },
      };
    } catch (error) {
      device.destroy();
      throw error;
    }
  }
  try {
    if (source.kind === 'scene') await setUp(backend, source.setup);
  } catch (error) {
    backend.close();
    throw error;
  }
  return backend;
}

/** Snapshot to JSON records; refuses values JSON cannot hold (it would write null). */
function particleStates(snapshot: ParticleSnapshot, steps: number): ParticleState[] {
  const states: ParticleState[] = [];
  for (let i = 0; i < snapshot.count; i++) {
    const vector = (name: 'position' | 'velocity' | 'acceleration') =>
      Array.from(snapshot[name].subarray(3 * i, 3 * i + 3));
    const inverseMass = snapshot.inverseMass[i] as number;
    const state: ParticleState = {
      position: vector('position'),
      velocity: vector('velocity'),
      acceleration: vector('acceleration'),
      inverseMass,
      ...(inverseMass === 0 ? {} : { mass: 1 / inverseMass }),
      damping: snapshot.damping[i] as number,
      ...(snapshot.radius[i] === 0 ? {} : { radius: snapshot.radius[i] as number }),
    };
    for (const [field, value] of Object.entries(state)) {
      if ([value].flat().every(Number.isFinite)) continue;
      throw new SparkworksInputError(
        `particles[${i}].${field} is ${Array.isArray(value) ? `[${value.join(', ')}]` : String(value)} ` +
          `after ${steps} step(s): outside float32's range, and JSON cannot hold non-finite numbers`,
        `particles[${i}].${field}`,
        value,
      );
    }
    states.push(state);
  }
  return states;
}

function centroid(particles: readonly ParticleState[]): number[] {
  if (particles.length === 0) return [];
  const sum = [0, 0, 0];
  for (const { position } of particles) position.forEach((x, c) => (sum[c] = (sum[c] as number) + x));
  return sum.map((x) => Number((x / particles.length).toPrecision(6)));
}

/** A scene with emitters: the live slots' states, in slot order, with their slot, age and lifetime. */
function liveStates(all: readonly ParticleState[], life: LifecycleSnapshot): ParticleState[] {
  return Array.from(life.live)
    .sort((a, b) => a - b)
    .map((slot) => {
      const lifetime = life.life.get(slot, 'lifetime');
      return {
        slot,
        ...(all[slot] as ParticleState),
        age: life.life.get(slot, 'age'),
        ...(Number.isFinite(lifetime) ? { lifetime } : {}),
      };
    });
}

/** Indented JSON with each vector on one line, so a particle reads as a few lines. */
function toJson(output: SimulationOutput): string {
  // Only arrays of numbers match: a JSON string cannot hold a raw newline after its `[`.
  const numberArray = /\[\s+(-?[\d.e+-]+(?:,\s+-?[\d.e+-]+)*)\s+\]/g;
  const oneLine = (_: string, items: string) => `[${items.split(/,\s+/).join(', ')}]`;
  return JSON.stringify(output, null, 2).replace(numberArray, oneLine) + '\n';
}

/** A refusal of a path flag, in one line. */
function refusePath(flag: string, path: string, why: string): never {
  throw new SparkworksInputError(`${flag}: ${JSON.stringify(path)} ${why}`, flag, path);
}

/** An input must be a regular file (a FIFO or a device would block or never end). */
async function readInput(flag: '--scene' | '--resume', path: string): Promise<Buffer> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    refusePath(flag, path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (!info.isFile()) refusePath(flag, path, 'is not a regular file');
  try {
    return await readFile(path);
  } catch (error) {
    refusePath(flag, path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/**
 * Checked before the simulation runs: an output flag names a file (not a
 * directory, not an input) in a directory that exists and can be written.
 */
async function checkOut(
  flag: '--out' | '--snapshot-out',
  out: string,
  others: { path: string | undefined; is: string }[],
): Promise<void> {
  if (out.trim() === '') refusePath(flag, out, 'is empty: name the file to write');
  for (const { path, is } of others) {
    if (path !== undefined && resolve(out) === resolve(path))
      refusePath(flag, out, `is ${is} itself: it would be overwritten`);
  }
  const info = await stat(out).catch(() => null);
  if (info?.isDirectory()) refusePath(flag, out, 'is a directory: name a file in it');
  if (info && !info.isFile()) refusePath(flag, out, 'is not a regular file');
  try {
    await access(dirname(resolve(out)), constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    refusePath(flag, out, code === 'ENOENT' ? 'is in a directory that does not exist' : `cannot be written (${code})`);
  }
}

/**
 * Writes `text` to `path` atomically: into a temporary file beside it, flushed,
 * then renamed over it, so a failure (a full disk) leaves the previous file
 * whole and removes the partial one.
 */
async function writeAtomically(
  flag: '--out' | '--snapshot-out',
  path: string,
  text: string | Uint8Array,
): Promise<void> {
  const temporary = join(dirname(resolve(path)), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const file = await open(temporary, 'wx');
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    refusePath(
      flag,
      path,
      `could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); any previous file there is unchanged`,
    );
  }
}

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
  const options = parseOptions(argv, io);
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

/**
 * Takes the run's steps in chunks of about CHUNK_SECONDS each (at most
 * STEPS_PER_SUBMIT), so Ctrl-C and the progress bar answer quickly at any
 * speed; returns how many were taken (fewer than asked when `stop` fired).
 */
async function runSteps(
  backend: Backend,
  options: Options,
  io: SimulateIo,
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
        bar = new SingleBar({
          stream: io.progress,
          format:
            'simulate [{bar}] {percentage}% | {value}/{total} steps | {eta_formatted} left | Ctrl-C writes the state reached',
          barsize: 30,
          hideCursor: true,
          // Not a terminal (a log file, CI): a line every 10 s instead of redrawing.
          noTTYOutput: true,
          notTTYSchedule: 10_000,
        });
        bar.start(options.steps, done);
      }
      bar?.update(done);
    }
  } finally {
    bar?.stop();
  }
  return { taken: done, badChunk };
}

/** What the scene puts in a fresh system before its first step. */
interface SceneSetup {
  particles: ReturnType<typeof sceneToParticles>;
  forces: ReturnType<typeof sceneToForces>;
}

async function setUp(backend: Backend, { particles, forces }: SceneSetup): Promise<void> {
  await backend.system.writeParticles(0, particles);
  // The scene's forces, the same on both backends (already checked by parseScene).
  for (const { generator, target } of forces.generators) backend.system.forces.add(generator, target);
  if (forces.links.length > 0) backend.system.springs.setLinks(forces.links);
}

/**
 * The first step at which a particle's state went non-finite, and the lowest
 * such particle: the run is deterministic, so it is run again on a fresh
 * backend to the start of the chunk where the count first rose, then a step
 * at a time. Refused as input: the scene's values overflow float32 there.
 */
async function findNonFinite(
  open: () => Promise<Backend>,
  options: Options,
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
