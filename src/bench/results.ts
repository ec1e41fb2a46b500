/**
 * What a bench run returns: one record a case (the JSON contract's fields
 * first, then how the case was measured) and the run around them. The JSON
 * report (src/bench/report.ts) is these records plus what it derives.
 */
import type { AdapterDescription } from '../gpu/device/device';
import type { ColliderRatioResult } from './colliderRatio';
import type { ContactRatioResult } from './contactRatio';
import type { EmitterRatioResult } from './emitterRatio';
import type { ForceRatioResult } from './forceRatio';
import type { SortRatioResult } from './sortRatio';
import type { ChunkingRatioResult } from './chunkingRatio';
import type { BenchOptions } from './options';
import type { TimingMethod } from './timing';

/** The count the speed issue states its collider and emitter targets at (2^20). */
export const STATED_COUNT = 1 << 20;

/**
 * Where a run judges a target stated at STATED_COUNT: that count if the run
 * has it, else the next one above, else (a run below it, which measures but
 * does not judge) its largest; undefined for no counts.
 */
export function statedSizeOf(counts: readonly number[]): number | undefined {
  const sorted = [...counts].sort((a, b) => a - b);
  return sorted.find((c) => c === STATED_COUNT) ?? sorted.find((c) => c > STATED_COUNT) ?? sorted.at(-1);
}

export type CaseGroup = 'roofline' | 'step' | 'layout' | 'workgroup' | 'force' | 'collisions' | 'emitters' | 'cpu';

/**
 * What one particle-step is: one of the `particles` slots advanced one step
 * ('slot', every case but the emitters'), or one live particle of a system
 * with emitters advanced one whole lifecycle frame ('live particle').
 */
export type ParticleStepUnit = 'slot' | 'live particle';

/** The lifecycle of an emitter case: the live level aimed at, the level read back, and what its timed frames did. */
export interface LifecycleFigures {
  /** Slots in the pool (= `particles`). */
  capacity: number;
  /** The live fraction asked for, and the live count it means. */
  targetFraction: number;
  targetLive: number;
  /**
   * Where the live particles start: false, in the lowest `targetLive` slots,
   * shuffled (where a pool that has never held more keeps them); true,
   * anywhere in the pool (a pool that was once fuller). src/bench/emitters.ts.
   */
  liveSpreadOverPool: boolean;
  /** Particles a second the emitter asks for, and the seconds a particle lives. */
  rate: number;
  lifetime: readonly [number, number];
  /** Steps from creation to the readback before timing (the bursts' step first; the warm-up's last). */
  fillSteps: number;
  /** Live particles read back right before the first timed run, and after the last. */
  liveBeforeTiming: number;
  liveAfterTiming: number;
  /** (liveBeforeTiming - targetLive) / targetLive. */
  liveError: number;
  /** Steps timed, and births, deaths and shortfall a step over them, from the counters. */
  timedSteps: number;
  birthsPerStep: number;
  deathsPerStep: number;
  shortfallPerStep: number;
  /** Slots a second (`particles` / median frame time): the same unit as the step cases, to compare frames. */
  slotStepsPerSecond: number;
  /** A fountain case only (src/bench/emitters.ts FOUNTAIN_PLANE): what it adds to the pool. */
  fountain?: FountainFigures;
}

/** What a fountain case runs and what its colliders did. */
export interface FountainFigures {
  /** The force generators' types, in the registry's order. */
  forces: string[];
  /** The colliders' types. */
  colliders: string[];
  /** The passes of the system's step (`ParticleSystem.stepPasses`): the forces and colliders fused into one. */
  stepPasses: string[];
  /** Collision events a step over the timed frames (contact starts, every rule's `hits`). */
  hitsPerStep: number;
}

/** One measured case: the contract fields first, then how it was measured. */
export interface CaseResult {
  name: string;
  particles: number;
  particleStepsPerSecond: number;
  bytesPerParticleStep: number;
  gigabytesPerSecond: number;
  /** This case's GB/s over the compute copy kernel's at the same count. */
  fractionOfCopy: number;
  /** This case's GB/s over copyBufferToBuffer's at the same count. */
  fractionOfBufferCopy: number;
  /** What `particleStepsPerSecond` counts. */
  particleStep: ParticleStepUnit;
  /** Particle-steps one step is: `particles`, or for an emitter case the live count (the mean of the readbacks before and after the timed runs). */
  particlesPerStep: number;
  group: CaseGroup;
  backend: 'gpu' | 'cpu';
  /** The integration variant, `explicit/per-second` style, or null (copies). */
  variant: string | null;
  /** `packed vec4 records`, `structure of arrays`, ... */
  layout: string;
  workgroupSize: number | null;
  bytesRead: number;
  bytesWritten: number;
  /** Steps (or copies, or addForces calls) recorded in one timed run. */
  stepsPerRun: number;
  runs: number;
  /** Median milliseconds of one step over all `particles`. */
  medianMs: number;
  /** Per-step milliseconds over the runs: extremes and quartiles. */
  spread: { minMs: number; q1Ms: number; q3Ms: number; maxMs: number };
  /** Median per-step wall time around submit and onSubmittedWorkDone (equals medianMs when that is the method). */
  wallMedianMs: number;
  timing: TimingMethod;
  note?: string;
  /** Emitter cases only. */
  lifecycle?: LifecycleFigures;
}

export interface BenchRun {
  /**
   * `dispatch`: how the emitter cases' systems dispatch their lifecycle
   * passes: always `'direct'` (fixed dispatches over bounds the host knows).
   */
  adapter: AdapterDescription & { timing: TimingMethod; dispatch: 'direct' };
  options: BenchOptions;
  startedAt: string;
  elapsedMs: number;
  cases: CaseResult[];
  /** Sizes left out, and why. */
  skipped: string[];
  /** What the issue asks for that does not exist yet, so it is not measured. */
  notMeasured: string[];
  /**
   * The forces issue's ratio at the largest size measured, the typical effect's
   * force pass, fused step and bare step timed in alternating rounds
   * (src/bench/forceRatio.ts); null when that size could not hold it.
   */
  forceRatio?: ForceRatioResult | null;
  /**
   * The speed issue's collider ratios at 2^20, where the targets are stated
   * (statedSizeOf: else the next size up, else the largest): the plain
   * step, step + one plane and gravity + drag + plane timed in alternating
   * rounds (src/bench/colliderRatio.ts); null when that size could not hold them.
   */
  colliderRatio?: ColliderRatioResult | null;
  /**
   * The speed issue's emitter targets at 2^20 (statedSizeOf, as the
   * colliders'): the plain step and the emitter cases' churning pools (the
   * fountains too) timed in alternating rounds (src/bench/emitterRatio.ts);
   * null when that size could not hold them.
   */
  emitterRatio?: EmitterRatioResult | null;
  /**
   * The speed issue's contact ratio: the plain step and a step's particle
   * contacts (grid + 8 iterations) at 2^16 and 2^18, those within the run's
   * largest size, timed in alternating rounds (src/bench/contactRatio.ts);
   * null when none was measured.
   */
  contactRatio?: ContactRatioResult | null;
  /**
   * The look issue's sort benchmark: the plain step and the depth sort of
   * every particle at 2^18 and 2^20, those within the run's largest size (else
   * at that size), timed in alternating rounds (src/bench/sortRatio.ts); null
   * when it could not be held.
   */
  sortRatio?: SortRatioResult | null;
  /**
   * The snapshots issue's capacity benchmark: plain steps of particle state
   * in several storage buffers against one, at 2^24 and 2^25 in a full run
   * where the device's limits and memory allow (else at the run's largest
   * size, forced into four chunks), timed in alternating rounds
   * (src/bench/chunkingRatio.ts); null when it could not be held.
   */
  chunkingRatio?: ChunkingRatioResult | null;
}

export interface Progress {
  done: number;
  total: number;
  /** The case about to run, `name @ particles`; empty when finished. */
  current: string;
}
