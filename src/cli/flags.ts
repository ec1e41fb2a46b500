/**
 * What the CLI commands (simulate, render) share: where they write, how their
 * commander program is set up, how a flag's value is read and refused (the
 * flag named in the message), the flags both take (--dt, --integrator,
 * --damping), and how a failure becomes one line on stderr and exit code 1.
 */
import { Command, CommanderError } from 'commander';
import { SparkworksInputError } from '../core/errors';
import { checkTimeStep } from '../core/particles';
import { DAMPING_MODES, DEFAULT_VARIANT, INTEGRATION_ORDERS, resolveVariant, type Variant } from '../core/variants';
import { NoAdapterError } from '../gpu/device/device';
import { DeviceLostError, GpuValidationError } from '../gpu/device/errors';

/** Where a command writes; the tests pass their own to keep quiet. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Where a long run's progress bar goes (a terminal redraws it in place; anything else gets a line now and then). */
  progress?: NodeJS.WritableStream;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  progress: process.stderr,
};

/** Refuses a flag's value: `--flag: "value" rule`. */
export function refuseFlag(flag: string, value: unknown, rule: string): never {
  throw new SparkworksInputError(`${flag}: ${JSON.stringify(value)} ${rule}`, flag, value);
}

/** Runs a core check on a flag's value and names the flag in its error. */
export function checkFlag<T>(flag: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof SparkworksInputError)) throw error;
    throw new SparkworksInputError(`${flag}: ${error.message}`, flag, error.value);
  }
}

export function numberFlag(flag: string, text: string): number {
  // Number('') is 0; an empty flag is a mistake, not zero.
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (Number.isNaN(value)) refuseFlag(flag, text, 'is not a number');
  return value;
}

/**
 * A command's program, its options still to add: it throws instead of
 * exiting, so the run* functions can be tested (main() prints the message
 * once), and --help goes to `io.out`.
 */
export function cliCommand(name: string, description: string, io: CliIo): Command {
  return new Command(name)
    .description(description)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: () => {} });
}

/** `--dt <seconds>`: a number that checkTimeStep accepts. */
export function timeStepFlag(text: string): number {
  const dt = numberFlag('--dt', text);
  checkFlag('--dt', () => checkTimeStep(dt));
  return dt;
}

/** Adds --integrator and --damping, each defaulting to DEFAULT_VARIANT's. */
export function addVariantOptions(program: Command): Command {
  return program
    .option('--integrator <order>', INTEGRATION_ORDERS.join(' | '), DEFAULT_VARIANT.integrator)
    .option('--damping <mode>', DAMPING_MODES.join(' | '), DEFAULT_VARIANT.damping);
}

/** The variant --integrator and --damping name, each flag checked on its own. */
export function variantFlags(flags: { integrator: string; damping: string }): Variant {
  // resolveVariant fills the other half with its default, so each call checks one flag.
  const { integrator } = checkFlag('--integrator', () => resolveVariant({ integrator: flags.integrator }));
  const { damping } = checkFlag('--damping', () => resolveVariant({ damping: flags.damping }));
  return { integrator, damping };
}

/**
 * A command's failure as its exit code: 0 for --help and --version (which
 * commander throws with exit code 0), 1 with one line on stderr for bad
 * flags, bad input and GPU failures (no adapter, out of memory for a capacity
 * the limits allow, validation, a lost device); anything else is rethrown.
 */
export function failureExitCode(command: string, error: unknown, io: CliIo): number {
  if (error instanceof CommanderError && error.exitCode === 0) return 0;
  const expected =
    error instanceof CommanderError ||
    error instanceof SparkworksInputError ||
    error instanceof NoAdapterError ||
    error instanceof GpuValidationError ||
    error instanceof DeviceLostError;
  if (!expected) throw error;
  io.err(`${command}: ${error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')}\n`);
  return 1;
}
