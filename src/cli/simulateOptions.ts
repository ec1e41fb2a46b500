/**
 * The simulate command's flags: their declarations (what --help lists), their
 * defaults and limits, and the checked options a run takes from them.
 */
import { SparkworksInputError } from '../core/errors';
import { checkStepCount } from '../core/particles';
import type { Variant } from '../core/variants';
import { addVariantOptions, checkFlag, cliCommand, numberFlag, timeStepFlag, variantFlags, type CliIo } from './flags';

/** The most steps one run takes: about 4.6 hours of simulated time at 1/60 s, and a day or more of stepping here. */
export const MAX_STEPS = 1_000_000_000;

/** Defaults: one second at 60 steps a second (render's step, `npm run render`, is 1/60 s too). */
export const SIMULATE_DEFAULTS = { steps: 60, dt: 1 / 60 } as const;

export interface SimulateOptions {
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

/** The flags as commander hands them over: strings, checked in parseSimulateOptions. */
interface SimulateFlags {
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

export function parseSimulateOptions(argv: string[], io: CliIo): SimulateOptions {
  const program = cliCommand('simulate', 'Step a scene headless and write the final particle state as JSON.', io)
    .option('--scene <file>', 'scene JSON file (or --resume)')
    .option('--resume <file>', 'continue from a snapshot that --snapshot-out wrote (or --scene)')
    .option(
      '--steps <n>',
      `number of steps, an integer from 0 to ${MAX_STEPS.toLocaleString('en-US')}`,
      String(SIMULATE_DEFAULTS.steps),
    )
    .option('--dt <seconds>', 'time step, finite and > 0', String(SIMULATE_DEFAULTS.dt));
  addVariantOptions(program)
    .option('--cpu', 'use the CPU reference instead of the GPU')
    .option('--out <file>', 'write the state here instead of stdout')
    .option('--snapshot-out <file>', 'also write a snapshot of the final state here, for --resume')
    .option('--no-progress', 'no progress bar on stderr, however long the run');
  program.parse(argv, { from: 'user' });
  const flags = program.opts<SimulateFlags>();
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
  const dt = timeStepFlag(flags.dt);
  const variant = variantFlags(flags);
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
