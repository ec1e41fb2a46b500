/**
 * The benchmark harness, the same in Node (scripts/bench.ts) and the browser
 * (src/bench/page.ts): no Node API here. For each count that fits the device
 * it takes the cases (src/bench/cases.ts), runs each after a warm-up with as
 * many steps a run as fill `targetMs` (src/bench/runner.ts), and returns one
 * record a case (src/bench/results.ts); src/bench/report.ts derives the
 * rooflines' fractions, the layout comparisons and the targets from those
 * records.
 */
import type { AdapterDescription } from '../gpu/device/device';
import { GpuOutOfMemoryError, withHeldErrorScopes } from '../gpu/device/errors';
import { ParticleBuffer } from '../gpu/shared/particleBuffer';
import { casesAt, NOT_MEASURED } from './cases';
import type { CaseSpec } from './caseSpec';
import { measureColliderRatio, type ColliderRatioResult } from './colliderRatio';
import { measureEmitterRatio, type EmitterRatioResult } from './emitterRatio';
import { CONTACT_RATIO_SIZES, measureContactRatio, type ContactRatioResult } from './contactRatio';
import { measureForceToStepRatio, type ForceRatioResult } from './forceRatio';
import { measureSortRatio, SORT_RATIO_SIZES, type SortRatioResult } from './sortRatio';
import { CHUNKING_RATIO_SIZES, measureChunkingRatio, type ChunkingRatioResult } from './chunkingRatio';
import type { BenchOptions } from './options';
import { statedSizeOf, type BenchRun, type Progress } from './results';
import { caseLabel, runCount, withFractions, type Measured } from './runner';
import { benchState } from './state';
import { GpuTimer } from './timing';

// The harness's vocabulary, for its callers (scripts/bench.ts, the bench page, the tests).
export { NOT_MEASURED } from './cases';
export { BENCH_PLANE } from './state';
export {
  FULL_SIZES,
  QUICK_SIZES,
  WORKGROUP_SIZES,
  fullOptions,
  quickOptions,
  sizesFromExponents,
  type BenchOptions,
} from './options';
export type { BenchRun, CaseGroup, CaseResult, LifecycleFigures, ParticleStepUnit, Progress } from './results';
export { caseLabel } from './runner';

/**
 * Runs every case at every size that fits the device: per size, each case is
 * opened and warmed up, then the repeats go round the cases (or case by case
 * past `interleaveBudgetBytes`). The device stays the caller's; everything a
 * case creates is destroyed when its size is done.
 */
export async function runBench(
  device: GPUDevice,
  adapter: AdapterDescription,
  options: BenchOptions,
  onProgress: (progress: Progress) => void = () => {},
): Promise<BenchRun> {
  if (!(options.repeats >= 1) || !Number.isInteger(options.repeats)) {
    throw new RangeError(`repeats = ${options.repeats} must be an integer >= 1`);
  }
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const timer = new GpuTimer(device, options.timestamps);
  const skipped: string[] = [];
  const maxParticles = ParticleBuffer.maxParticles(device);
  let cachedState: { particles: number; state: Float32Array<ArrayBuffer> } | null = null;
  const groups: CaseSpec[][] = [];
  for (const particles of options.sizes) {
    if (!Number.isInteger(particles) || particles < 1)
      throw new RangeError(`size ${particles} is not a particle count`);
    if (particles > maxParticles) {
      skipped.push(
        `${particles} particles: over this device's ${maxParticles} (maxStorageBufferBindingSize ` +
          `${device.limits.maxStorageBufferBindingSize} B, maxBufferSize ${device.limits.maxBufferSize} B, ` +
          `maxStorageBuffersPerShaderStage ${device.limits.maxStorageBuffersPerShaderStage})`,
      );
      continue;
    }
    const state = () => {
      if (cachedState?.particles !== particles) cachedState = { particles, state: benchState(particles) };
      return cachedState.state;
    };
    groups.push(casesAt(device, timer, options, particles, state));
  }

  // Progress counts runs: each case's warm-up, then each of its repeats.
  const total = groups.reduce((sum, g) => sum + g.length * (1 + options.repeats), 0);
  let done = 0;
  const context = {
    device,
    options,
    beforeRun: (spec: CaseSpec) => onProgress({ done: done++, total, current: caseLabel(spec.name, spec.particles) }),
    skipped,
  };
  const results: Measured[] = [];
  let forceRatio: ForceRatioResult | null = null;
  let colliderRatio: ColliderRatioResult | null = null;
  let emitterRatio: EmitterRatioResult | null = null;
  let contactRatio: ContactRatioResult | null = null;
  let sortRatio: SortRatioResult | null = null;
  let chunkingRatio: ChunkingRatioResult | null = null;
  /** One ratio measured with the device's errors held (named `label`); skipped (null) where it runs out of memory. */
  const measured = <T>(label: string, measure: () => Promise<T>): Promise<T | null> =>
    withHeldErrorScopes(device, label, measure).catch((error: unknown) => {
      if (!(error instanceof GpuOutOfMemoryError)) throw error;
      skipped.push(`${label}: out of memory`);
      return null;
    });
  try {
    for (const group of groups) results.push(...(await runCount(context, group)));
    // Timed apart, the step and the fused step drift on a shared machine: the ratio's own rounds alternate them.
    const largest = groups.at(-1)?.[0]?.particles;
    if (largest !== undefined) {
      onProgress({ done, total, current: caseLabel('forces vs step, alternating rounds', largest) });
      forceRatio = await measured(caseLabel('force ratio', largest), () => measureForceToStepRatio(device, largest));
      // At the size the collider targets are stated at.
      const colliderCount = statedSizeOf(groups.map((group) => group[0]?.particles ?? 0)) ?? largest;
      onProgress({ done, total, current: caseLabel('colliders vs step, alternating rounds', colliderCount) });
      colliderRatio = await measured(caseLabel('collider ratio', colliderCount), () =>
        measureColliderRatio(device, colliderCount),
      );
      // The emitter targets at the size they are stated at, the pools and the step in alternating rounds.
      onProgress({ done, total, current: caseLabel('emitters vs step, alternating rounds', colliderCount) });
      emitterRatio = await measured(caseLabel('emitter ratio', colliderCount), () =>
        measureEmitterRatio(device, colliderCount, { dt: options.dt }),
      );
      // Particle contacts cost hundreds of steps on a software adapter: three timed rounds (a median: one round's
      // step moves by 2x with the load), at the sizes the run reaches.
      const contactSizes = CONTACT_RATIO_SIZES.filter((e) => 2 ** e <= largest);
      if (contactSizes.length > 0) {
        onProgress({ done, total, current: 'particle contacts vs step, alternating rounds' });
        contactRatio = await measured('contact ratio', () =>
          measureContactRatio(device, { sizes: contactSizes, rounds: 3 }),
        );
      }
      // The depth sort at the 2^18 and 2^20 where the run reaches them, else at its largest size.
      const within = SORT_RATIO_SIZES.filter((e) => 2 ** e <= largest);
      const sortSizes = within.length > 0 ? within : [Math.floor(Math.log2(largest))];
      onProgress({ done, total, current: 'depth sort vs step, alternating rounds' });
      sortRatio = await measured('sort ratio', () => measureSortRatio(device, { sizes: sortSizes, dt: options.dt }));
      // Chunked state at 2^24 and 2^25 once a run reaches 2^24 (the full run), else at its largest size in four chunks.
      const chunkingSizes = largest >= 2 ** 24 ? CHUNKING_RATIO_SIZES : [Math.floor(Math.log2(largest))];
      onProgress({ done, total, current: 'chunked state vs one chunk, alternating rounds' });
      chunkingRatio = await measured('chunking ratio', () =>
        measureChunkingRatio(device, { sizes: chunkingSizes, dt: options.dt }),
      );
    }
  } finally {
    timer.destroy();
    cachedState = null;
  }
  onProgress({ done: total, total, current: '' });
  return {
    adapter: { ...adapter, timing: timer.method, dispatch: 'direct' },
    options,
    startedAt,
    elapsedMs: performance.now() - started,
    cases: withFractions(results),
    skipped,
    notMeasured: NOT_MEASURED,
    forceRatio,
    colliderRatio,
    emitterRatio,
    contactRatio,
    sortRatio,
    chunkingRatio,
  };
}
