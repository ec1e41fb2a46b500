/**
 * Runs the cases of one count: each is opened and warmed up, then its repeats
 * are timed, in rounds over all the cases (case A, B, C, A, B, C...) where
 * their memory fits the interleaving budget together, else one case at a time
 * (the same loop over a round of one), where a case the device has no memory
 * for is skipped rather than the run. Each measured case becomes one record.
 */
import { variantName } from '../core/variants';
import { GpuOutOfMemoryError, withHeldErrorScopes } from '../gpu/device/errors';
import type { CaseSpec, MeasuredFigures, OpenCase } from './caseSpec';
import { WARM_UP_RUNS, type BenchOptions } from './options';
import type { CaseResult } from './results';
import { gigabytesPerSecond, particleStepsPerSecond, totalBytes } from './roofline';
import { spreadOf, type Sample } from './timing';

/** A case's record before the copy kernels' figures at its count are known. */
export type Measured = Omit<CaseResult, 'fractionOfCopy' | 'fractionOfBufferCopy'>;

/** What running the cases needs from the run around them. */
export interface RunContext {
  device: GPUDevice;
  options: BenchOptions;
  /** Called right before each run of a case, its warm-up's and each repeat's (for the progress). */
  beforeRun(spec: CaseSpec): void;
  /** Where a case skipped for lack of memory says why. */
  skipped: string[];
}

interface Running {
  spec: CaseSpec;
  open: OpenCase;
  /** Steps (copies, calls) a timed run. */
  units: number;
  samples: Sample[];
  /** What the case reported after its timed runs, if anything. */
  measured?: MeasuredFigures;
}

export function caseLabel(name: string, particles: number): string {
  const exponent = Math.log2(particles);
  return `${name} @ ${Number.isInteger(exponent) ? `2^${exponent}` : particles}`;
}

/** Opens a case and warms it up: the first run pays for compilation and first touches of memory; the second, warm, sets how many steps fill a run. */
async function prepare(spec: CaseSpec, options: BenchOptions): Promise<Running> {
  const open = await spec.open();
  try {
    // WARM_UP_RUNS runs of one step each.
    await open.run(1);
    const probe = await open.run(1);
    const units = Math.max(
      1,
      Math.min(options.maxStepsPerRun, Math.round(options.targetMs / Math.max(probe.ms, 1e-3))),
    );
    await open.beforeTiming?.();
    return { spec, open, units, samples: [] };
  } catch (error) {
    open.close();
    throw error;
  }
}

/**
 * `prepare` in error scopes of its own: a case the device has no memory for
 * is noted in `skipped` (its runs counted as done) and gives null.
 */
async function prepareOrSkip(context: RunContext, spec: CaseSpec): Promise<Running | null> {
  const { device, options } = context;
  let opened: Running | undefined;
  try {
    await withHeldErrorScopes(device, caseLabel(spec.name, spec.particles), async () => {
      opened = await prepare(spec, options);
    });
  } catch (error) {
    opened?.open.close();
    if (!(error instanceof GpuOutOfMemoryError)) throw error;
    context.skipped.push(
      `${caseLabel(spec.name, spec.particles)}: out of memory (${error.gpuError.message.split('\n')[0]})`,
    );
    for (let r = 0; r < options.repeats; r++) context.beforeRun(spec);
    return null;
  }
  return opened as Running;
}

/**
 * The one runner loop: opens and warms up every case of `specs` through
 * `open`, times `repeats` rounds over the opened ones, lets each report what
 * it measured, and closes them all, whatever happens.
 */
async function runRounds(
  context: RunContext,
  specs: readonly CaseSpec[],
  open: (spec: CaseSpec) => Promise<Running | null>,
): Promise<Measured[]> {
  const running: Running[] = [];
  try {
    for (const spec of specs) {
      context.beforeRun(spec);
      const opened = await open(spec);
      if (opened) running.push(opened);
    }
    for (let r = 0; r < context.options.repeats; r++) {
      for (const c of running) {
        context.beforeRun(c.spec);
        c.samples.push(await c.open.run(c.units));
      }
    }
    for (const c of running) {
      const measured = await c.open.afterTiming?.();
      if (measured) c.measured = measured;
    }
  } finally {
    for (const c of running) c.open.close();
  }
  return running.map(result);
}

/**
 * Runs the cases of one count, all in the error scopes of that count:
 * interleaved where `options.interleave` and their memory fits the budget
 * together, else case by case, each prepared in scopes of its own.
 */
export async function runCount(context: RunContext, group: readonly CaseSpec[]): Promise<Measured[]> {
  const { device, options } = context;
  const first = group[0] as CaseSpec;
  const together =
    options.interleave && group.reduce((sum, c) => sum + c.memoryBytes, 0) <= options.interleaveBudgetBytes;
  return withHeldErrorScopes(device, `cases at ${first.particles} particles`, async () => {
    if (together) return runRounds(context, group, (spec) => prepare(spec, options));
    const results: Measured[] = [];
    for (const spec of group) {
      results.push(...(await runRounds(context, [spec], (s) => prepareOrSkip(context, s))));
    }
    return results;
  });
}

function result({ spec, units, samples, measured }: Running): Measured {
  const perStep = spreadOf(samples.map((s) => s.ms / units));
  const wall = spreadOf(samples.map((s) => s.wallMs / units));
  const particlesPerStep = measured?.particlesPerStep ?? spec.particles;
  const rate = particleStepsPerSecond(particlesPerStep, perStep.median);
  const bytes = measured?.bytes ?? spec.bytes;
  const bytesPerParticleStep = totalBytes(bytes);
  const methods = new Set(samples.map((s) => s.method));
  return {
    name: spec.name,
    particles: spec.particles,
    particleStepsPerSecond: rate,
    bytesPerParticleStep,
    gigabytesPerSecond: gigabytesPerSecond(rate, bytesPerParticleStep),
    particleStep: spec.particleStep ?? 'slot',
    particlesPerStep,
    group: spec.group,
    backend: spec.backend,
    variant: spec.variant ? variantName(spec.variant) : null,
    layout: spec.layout,
    workgroupSize: spec.workgroupSize,
    bytesRead: bytes.read,
    bytesWritten: bytes.written,
    stepsPerRun: units,
    runs: samples.length,
    medianMs: perStep.median,
    spread: { minMs: perStep.min, q1Ms: perStep.q1, q3Ms: perStep.q3, maxMs: perStep.max },
    wallMedianMs: wall.median,
    // A run whose timestamps failed fell back to wall time; say so if any did.
    timing: methods.size === 1 ? (samples[0] as Sample).method : 'wall (onSubmittedWorkDone)',
    ...(spec.note === undefined ? {} : { note: spec.note }),
    ...(measured
      ? {
          lifecycle: {
            ...measured.lifecycle,
            slotStepsPerSecond: particleStepsPerSecond(spec.particles, perStep.median),
          },
        }
      : {}),
  };
}

/** Each case's GB/s over the copy kernel's and copyBufferToBuffer's at the same count. */
export function withFractions(cases: Measured[]): CaseResult[] {
  const roof = (name: string, particles: number) =>
    cases.find((c) => c.name === name && c.particles === particles)?.gigabytesPerSecond ?? Number.NaN;
  return cases.map((c) => ({
    ...c,
    fractionOfCopy: c.gigabytesPerSecond / roof('copy', c.particles),
    fractionOfBufferCopy: c.gigabytesPerSecond / roof('buffer-copy', c.particles),
  }));
}
