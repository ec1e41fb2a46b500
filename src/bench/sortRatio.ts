/**
 * The depth sort (src/render/depthSort.ts) against the plain step, timed in
 * one run on one device (the look issue's sort benchmark): at each size, the
 * bench state (src/bench/state.ts) in one system, `steps` plain steps in one
 * command buffer, then `sorts` sorts of the same buffer through a perspective
 * camera in another, each submitted alone after the queue drained,
 * alternating every round so each ratio compares timings taken moments
 * apart. Used by `npm run bench`, the bench page and `npm run bench:sort`.
 */
import { withHeldErrorScopes } from '../gpu/device/errors';
import { ParticleSystem } from '../gpu/particleSystem';
import { OrbitCamera } from '../render/camera';
import { DepthSort } from '../render/depthSort';
import { benchState } from './state';
import { alternatingRounds, stepsPerSubmission, median } from './timing';

/** The sizes the issue names, as exponents of two; the main benchmark times those within its largest size. */
export const SORT_RATIO_SIZES: readonly number[] = [18, 20];

export interface SortRatioOptions {
  /** Exponents of two. Default SORT_RATIO_SIZES. */
  sizes?: readonly number[];
  /** Timed rounds after one warm-up round. Default 3. */
  rounds?: number;
  /** Entries one sort invocation walks; default sortChunkSize(count). */
  chunkSize?: number;
  dt?: number;
}

export interface SortSizeTiming {
  count: number;
  /** Entries one invocation of the sort walked. */
  chunkSize: number;
  /** Median milliseconds of one plain step, and of one sort of every particle. */
  stepMs: number;
  sortMs: number;
  /** Plain steps in each timed submission: `steps` at least, more where a step is too short to time alone (stepsPerSubmission). */
  stepsPerSubmission: number;
  /** Median over rounds of (sort / step), each round timing both moments apart. */
  ratio: number;
  ratios: number[];
  /** The fastest sort over the fastest step: the least disturbed rounds on a shared machine. */
  fastestRatio: number;
}

export interface SortRatioResult {
  /** Steps (at least; see each size's stepsPerSubmission) and sorts recorded in one timed command buffer (each timing is divided by its count). */
  steps: number;
  sorts: number;
  rounds: number;
  sizes: SortSizeTiming[];
}

const STEPS = 5;
const SORTS = 2;

/** Wall time of what `record` encodes, submitted alone after the queue drained, divided by `per`. */
async function timeRecorded(
  device: GPUDevice,
  record: (encoder: GPUCommandEncoder) => void,
  per: number,
  afterSubmit?: () => void,
): Promise<number> {
  return withHeldErrorScopes(device, 'timing the depth sort against the step', async () => {
    const encoder = device.createCommandEncoder({ label: 'measureSortRatio' });
    record(encoder);
    const commands = encoder.finish();
    await device.queue.onSubmittedWorkDone();
    const started = performance.now();
    device.queue.submit([commands]);
    afterSubmit?.();
    await device.queue.onSubmittedWorkDone();
    return (performance.now() - started) / per;
  });
}

/** Times the plain step and the depth sort at each size, alternating every round. The device stays the caller's. */
export async function measureSortRatio(device: GPUDevice, options: SortRatioOptions = {}): Promise<SortRatioResult> {
  const rounds = options.rounds ?? 3;
  const dt = options.dt ?? 1 / 60;
  const camera = new OrbitCamera({ target: [0, 0, 0], distance: 6, yaw: 0.6, pitch: 0.3 });
  camera.update(1);
  const sizes: SortSizeTiming[] = [];
  for (const exponent of options.sizes ?? SORT_RATIO_SIZES) {
    const count = 2 ** exponent;
    const system = await ParticleSystem.create(device, { capacity: count });
    let sort: DepthSort | null = null;
    try {
      system.particles.write(0, benchState(count));
      sort = new DepthSort(device, {
        label: 'bench.sort',
        particles: system.particleStore,
        count,
        chunkSize: options.chunkSize,
      });
      const sorter = sort;
      const timeSteps = (k: number) =>
        timeRecorded(
          device,
          (encoder) => system.encodeSteps(encoder, dt, k),
          1,
          () => system.submitted(),
        );
      const perSubmission = await stepsPerSubmission(timeSteps, STEPS);
      const {
        steps,
        others: sorts,
        ratios,
      } = await alternatingRounds(rounds, async () => {
        const step = (await timeSteps(perSubmission)) / perSubmission;
        const sorted = await timeRecorded(
          device,
          (encoder) => {
            for (let s = 0; s < SORTS; s++) sorter.encode(encoder, camera, { extrapolate: 0 });
          },
          SORTS,
        );
        return [step, sorted] as const;
      });
      sizes.push({
        count,
        chunkSize: sort.chunkSize,
        stepMs: median(steps),
        sortMs: median(sorts),
        stepsPerSubmission: perSubmission,
        ratio: median(ratios),
        ratios,
        fastestRatio: Math.min(...sorts) / Math.min(...steps),
      });
    } finally {
      sort?.destroy();
      system.destroy();
    }
  }
  return { steps: STEPS, sorts: SORTS, rounds, sizes };
}

/** One line a size: `depth sort vs step @ 2^18 (chunks of 512): 3.20x median of 3 alternating rounds, ...`. */
export function sortRatioLines(result: SortRatioResult): string[] {
  return result.sizes.map(
    (s) =>
      `depth sort vs step @ 2^${Math.log2(s.count)} (chunks of ${s.chunkSize}): sort / step ${s.ratio.toFixed(2)}x, ` +
      `median of ${result.rounds} alternating rounds (sort ${s.sortMs.toFixed(2)} ms, step ${s.stepMs.toFixed(3)} ms, ${s.stepsPerSubmission} a submission); ` +
      `fastest rounds ${s.fastestRatio.toFixed(2)}x`,
  );
}
