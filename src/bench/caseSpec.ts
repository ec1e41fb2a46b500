/**
 * What a bench case is: its spec (what it measures, its group, layout, bytes
 * a particle-step and the memory it holds) and, once opened, what the runner
 * drives. The case lists (src/bench/cases.ts, src/bench/emitterCase.ts) make
 * these; src/bench/runner.ts runs them.
 */
import type { Variant } from '../core/variants';
import type { CaseGroup, LifecycleFigures, ParticleStepUnit } from './results';
import type { ByteCount } from './roofline';
import type { Sample } from './timing';

/** A case opened: what the runner drives. */
export interface OpenCase {
  /** Runs `units` steps (copies, calls) and times them. */
  run(units: number): Promise<Sample>;
  /** After the warm-up, right before the first timed run (an emitter case reads its counters back). */
  beforeTiming?(): Promise<void>;
  /** After the last timed run: what the case measured beside the time (an emitter case's live count and churn). */
  afterTiming?(): Promise<MeasuredFigures>;
  close(): void;
}

/** Figures an open case found out while running, which replace its spec's. */
export interface MeasuredFigures {
  particlesPerStep: number;
  bytes: ByteCount;
  lifecycle: Omit<LifecycleFigures, 'slotStepsPerSecond'>;
}

export interface CaseSpec {
  name: string;
  particles: number;
  group: CaseGroup;
  backend: 'gpu' | 'cpu';
  variant: Variant | null;
  layout: string;
  workgroupSize: number | null;
  bytes: ByteCount;
  /** 'slot' unless said. */
  particleStep?: ParticleStepUnit;
  /** Roughly what the case holds while open, host and device, to decide on interleaving. */
  memoryBytes: number;
  note?: string;
  open(): Promise<OpenCase>;
}

/** What a case spec says about itself; `particles` and `backend` come from the count and `open` from the case. */
export type CaseFields = Omit<CaseSpec, 'particles' | 'backend' | 'open'>;

/** The layout of the particle state most cases step: ParticleBuffer's records. */
export const PACKED_LAYOUT = 'packed vec4 records (AoS)';
