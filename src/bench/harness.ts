/**
 * The benchmark harness, the same in Node (scripts/bench.ts) and the browser
 * (src/bench/page.ts): no Node API here. It lists the cases, runs each after
 * a warm-up with as many steps a run as fill `targetMs`, and returns one
 * record a case; src/bench/report.ts derives the rooflines' fractions, the
 * layout comparisons and the targets from those records.
 */
import { CpuParticleSystem } from '../core/cpuParticleSystem';
import type { LifecycleStats } from '../core/emitters/stats';
import { BYTES_PER_LIFE, BYTES_PER_PARTICLE } from '../core/layout';
import { ALL_VARIANTS, DEFAULT_VARIANT, variantName, type Variant } from '../core/variants';
import type { AdapterDescription } from '../gpu/device';
import { GpuOutOfMemoryError, withErrorScopes } from '../gpu/errors';
import { ParticleBuffer } from '../gpu/particleBuffer';
import { DEFAULT_WORKGROUP_SIZE, ParticleSystem } from '../gpu/particleSystem';
import { measureForceToStepRatio, type ForceRatioResult } from './forceRatio';
import { TYPICAL_EFFECT } from './typicalEffect';
import { CopyPass } from './copyPass';
import {
  advance,
  CHURN_LIFETIME,
  churningEmitters,
  churnRate,
  FILL_STEPS,
  frameCounts,
  LIVE_FRACTIONS,
  liveTarget,
  shuffleFreeList,
  steadyRate,
} from './emitters';
import {
  BYTES,
  gigabytesPerSecond,
  lifecycleBytes,
  particleStepsPerSecond,
  totalBytes,
  type ByteCount,
} from './roofline';
import { SoAStepPass } from './soaPass';
import { BENCH_ACCELERATION, benchForces, benchState } from './state';
import { GpuTimer, spreadOf, timeHost, type Sample, type TimingMethod } from './timing';
import { UniformAccelerationPass } from './uniformAccelerationPass';

/** 2^16 ... 2^24, as the issue asks; --quick stops at 2^20, the smallest count the bandwidth target names. */
export const FULL_SIZES = [16, 17, 18, 19, 20, 21, 22, 23, 24].map((e) => 2 ** e);
export const QUICK_SIZES = [16, 18, 20].map((e) => 2 ** e);
export const WORKGROUP_SIZES = [64, 128, 256] as const;

export interface BenchOptions {
  /** Particle counts. */
  sizes: number[];
  /** Timed runs a case, after the warm-up. */
  repeats: number;
  /** Wanted length of one run; the steps a run are chosen to fill it. */
  targetMs: number;
  /** Most steps one run records (one command buffer). */
  maxStepsPerRun: number;
  dt: number;
  /** Use timestamp queries when the device has them (else wall time). */
  timestamps: boolean;
  /**
   * Run the repeats in rounds over all cases of one count (case A, B, C, A,
   * B, C...) so that load from other processes falls on every case alike,
   * where their state fits `interleaveBudgetBytes` together; else case by case.
   */
  interleave: boolean;
  interleaveBudgetBytes: number;
}

export function quickOptions(): BenchOptions {
  return { ...fullOptions(), sizes: QUICK_SIZES, repeats: 7, targetMs: 60, maxStepsPerRun: 256 };
}

export function fullOptions(): BenchOptions {
  return {
    sizes: FULL_SIZES,
    repeats: 7,
    targetMs: 200,
    maxStepsPerRun: 1024,
    dt: 1 / 60,
    timestamps: true,
    interleave: true,
    interleaveBudgetBytes: 2 ** 31,
  };
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
  adapter: AdapterDescription & { timing: TimingMethod };
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
}

export interface Progress {
  done: number;
  total: number;
  /** The case about to run, `name @ particles`; empty when finished. */
  current: string;
}

interface OpenCase {
  /** Runs `units` steps (copies, calls) and times them. */
  run(units: number): Promise<Sample>;
  /** After the warm-up, right before the first timed run (an emitter case reads its counters back). */
  beforeTiming?(): Promise<void>;
  /** After the last timed run: what the case measured beside the time (an emitter case's live count and churn). */
  afterTiming?(): Promise<MeasuredFigures>;
  close(): void;
}

/** Figures an open case found out while running, which replace its spec's. */
interface MeasuredFigures {
  particlesPerStep: number;
  bytes: ByteCount;
  lifecycle: Omit<LifecycleFigures, 'slotStepsPerSecond'>;
}

interface CaseSpec {
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

export const NOT_MEASURED = [
  'particle-particle contacts (the grid and the Jacobi resolver) are not a case of this harness: on a software ' +
    'adapter they cost hundreds of steps, past any --quick budget; npm run bench:collisions times them against ' +
    'the step in one run.',
];

/** The plane of the collisions case: y = 0, under about half of the bench state (positions in [-10, 10]). */
export const BENCH_PLANE = { type: 'plane', normal: [0, 1, 0], offset: 0 } as const;

const PACKED = 'packed vec4 records (AoS)';

/** The cases at one count, in the order they run. */
function casesAt(
  device: GPUDevice,
  timer: GpuTimer,
  options: BenchOptions,
  particles: number,
  state: () => Float32Array<ArrayBuffer>,
): CaseSpec[] {
  const { dt } = options;
  const base = { particles, backend: 'gpu' as const };
  const stepCase = (variant: Variant, workgroupSize: number, name: string, group: CaseGroup): CaseSpec => ({
    ...base,
    name,
    group,
    variant,
    layout: PACKED,
    workgroupSize,
    bytes: BYTES.step,
    memoryBytes: particles * BYTES_PER_PARTICLE,
    open: async () => {
      const system = await ParticleSystem.create(device, { capacity: particles, ...variant, workgroupSize });
      system.particles.write(0, state());
      return {
        run: (units) => timer.time((encoder) => system.encodeSteps(encoder, dt, units), name),
        close: () => system.destroy(),
      };
    },
  });
  const copyCase = (name: string, kernel: boolean): CaseSpec => ({
    ...base,
    name,
    group: 'roofline',
    variant: null,
    layout: kernel ? 'copy.wgsl, 4 vec4 an invocation' : 'copyBufferToBuffer',
    workgroupSize: kernel ? DEFAULT_WORKGROUP_SIZE : null,
    bytes: BYTES.copy,
    memoryBytes: 2 * particles * BYTES_PER_PARTICLE,
    open: async () => {
      const pass = CopyPass.create(device, particles * BYTES.copy.read, DEFAULT_WORKGROUP_SIZE);
      device.queue.writeBuffer(pass.source, 0, state());
      return {
        run: (units) =>
          timer.time((encoder) => (kernel ? pass.encode(encoder, units) : pass.encodeBufferCopy(encoder, units)), name),
        close: () => pass.destroy(),
      };
    },
  });
  const variantTail = variantName(DEFAULT_VARIANT);

  const cases: CaseSpec[] = [copyCase('copy', true), copyCase('buffer-copy', false)];
  for (const variant of ALL_VARIANTS) {
    cases.push(stepCase(variant, DEFAULT_WORKGROUP_SIZE, `step/${variantName(variant)}`, 'step'));
  }
  for (const size of WORKGROUP_SIZES) {
    if (size === DEFAULT_WORKGROUP_SIZE || size > device.limits.maxComputeInvocationsPerWorkgroup) continue;
    cases.push(stepCase(DEFAULT_VARIANT, size, `step-wg${size}/${variantTail}`, 'workgroup'));
  }
  cases.push({
    ...base,
    name: `step-soa/${variantTail}`,
    group: 'layout',
    variant: DEFAULT_VARIANT,
    layout: 'structure of arrays, 6 buffers, xyz packed',
    workgroupSize: DEFAULT_WORKGROUP_SIZE,
    bytes: BYTES.soa,
    memoryBytes: particles * totalBytes(BYTES.soa),
    open: async () => {
      const pass = SoAStepPass.create(device, particles, DEFAULT_VARIANT, DEFAULT_WORKGROUP_SIZE);
      pass.write(state());
      return {
        run: (units) => timer.time((encoder) => pass.encode(encoder, dt, units), 'step-soa'),
        close: () => pass.destroy(),
      };
    },
  });
  cases.push({
    ...base,
    name: `step-uniform-acceleration/${variantTail}`,
    group: 'layout',
    variant: DEFAULT_VARIANT,
    layout: `${PACKED}, acceleration from the uniform`,
    workgroupSize: DEFAULT_WORKGROUP_SIZE,
    bytes: BYTES.uniformAcceleration,
    memoryBytes: particles * BYTES_PER_PARTICLE,
    open: async () => {
      const system = await ParticleSystem.create(device, { capacity: particles, ...DEFAULT_VARIANT });
      system.particles.write(0, state());
      let pass: UniformAccelerationPass | undefined;
      try {
        pass = UniformAccelerationPass.create(device, system.particles, DEFAULT_VARIANT, DEFAULT_WORKGROUP_SIZE);
      } catch (error) {
        system.destroy();
        throw error;
      }
      const created = pass;
      return {
        run: (units) =>
          timer.time(
            (encoder) => created.encode(encoder, BENCH_ACCELERATION, dt, particles, units),
            'step-uniform-acceleration',
          ),
        close: () => {
          created.destroy();
          system.destroy();
        },
      };
    },
  });
  cases.push({
    ...base,
    name: 'scatter-add-forces',
    group: 'force',
    variant: null,
    layout: PACKED,
    workgroupSize: DEFAULT_WORKGROUP_SIZE,
    bytes: BYTES.scatterAdd,
    memoryBytes: particles * (BYTES_PER_PARTICLE + 16 + 12),
    note: 'ParticleSystem.addForces end to end: host validation and packing, upload, scatter.wgsl; wall time',
    open: async () => {
      const system = await ParticleSystem.create(device, { capacity: particles, ...DEFAULT_VARIANT });
      system.particles.write(0, state());
      const forces = benchForces(particles);
      return {
        run: (units) =>
          timeHost(async () => {
            for (let u = 0; u < units; u++) await system.addForces(0, forces);
            await device.queue.onSubmittedWorkDone();
          }),
        close: () => system.destroy(),
      };
    },
  });
  cases.push({
    ...base,
    name: 'forces-typical',
    group: 'force',
    variant: null,
    layout: PACKED,
    workgroupSize: DEFAULT_WORKGROUP_SIZE,
    bytes: BYTES.forces,
    memoryBytes: particles * BYTES_PER_PARTICLE,
    note: 'the force pass of a typical effect (gravity, drag, an attractor, turbulence): one forces.wgsl dispatch',
    open: async () => {
      const system = await ParticleSystem.create(device, { capacity: particles, ...DEFAULT_VARIANT });
      system.particles.write(0, state());
      for (const generator of TYPICAL_EFFECT) system.forces.add(generator);
      return {
        run: (units) =>
          timer.time((encoder) => {
            for (let u = 0; u < units; u++) system.encodeForces(encoder, dt);
          }, 'forces-typical'),
        close: () => system.destroy(),
      };
    },
  });
  cases.push({
    ...base,
    name: 'collisions-plane',
    group: 'collisions',
    variant: DEFAULT_VARIANT,
    layout: PACKED,
    workgroupSize: DEFAULT_WORKGROUP_SIZE,
    bytes: BYTES.stepPlane,
    memoryBytes: particles * BYTES_PER_PARTICLE,
    note:
      'a step with one plane collider (y = 0, under about half the particles): integrate.wgsl then collide.wgsl ' +
      'over every slot, no particle-particle contacts (radius 0)',
    open: async () => {
      const system = await ParticleSystem.create(device, { capacity: particles, ...DEFAULT_VARIANT });
      try {
        system.particles.write(0, state());
        await system.setColliders([BENCH_PLANE]);
      } catch (error) {
        system.destroy();
        throw error;
      }
      return {
        run: (units) => timer.time((encoder) => system.encodeSteps(encoder, dt, units), 'collisions-plane'),
        close: () => system.destroy(),
      };
    },
  });
  cases.push({
    ...base,
    name: 'step-with-typical-forces',
    group: 'force',
    variant: null,
    layout: PACKED,
    workgroupSize: DEFAULT_WORKGROUP_SIZE,
    // Fused: the step's own loads and stores, the forces computed in between.
    bytes: BYTES.step,
    memoryBytes: particles * BYTES_PER_PARTICLE,
    note: 'the default step with the typical effect fused into it (integrateForces.wgsl): one dispatch a step',
    open: async () => {
      const system = await ParticleSystem.create(device, { capacity: particles, ...DEFAULT_VARIANT });
      system.particles.write(0, state());
      for (const generator of TYPICAL_EFFECT) system.forces.add(generator);
      return {
        run: (units) => timer.time((encoder) => system.encodeSteps(encoder, dt, units), 'step-with-typical-forces'),
        close: () => system.destroy(),
      };
    },
  });
  for (const { fraction, name } of LIVE_FRACTIONS) {
    cases.push(emitterCase(device, timer, dt, particles, fraction, name));
  }
  // The CPU reference for every variant: `cpu-reference` is the default one, the GPU/CPU target's.
  for (const variant of ALL_VARIANTS) {
    const isDefault = variantName(variant) === variantTail;
    cases.push({
      ...base,
      name: isDefault ? 'cpu-reference' : `cpu-reference/${variantName(variant)}`,
      group: 'cpu',
      backend: 'cpu',
      variant,
      layout: `${PACKED}, Float32Array`,
      workgroupSize: null,
      bytes: BYTES.cpu,
      memoryBytes: particles * BYTES_PER_PARTICLE,
      note: 'CpuParticleSystem (float32, Math.fround), one thread, in this process',
      open: async () => {
        const cpu = new CpuParticleSystem({ capacity: particles, ...variant, precision: 'float32' });
        cpu.state.set(state());
        return { run: (units) => timeHost(() => cpu.stepMany(dt, units)), close: () => cpu.destroy() };
      },
    });
  }
  return cases;
}

/**
 * A system with emitters churning at `fraction` live of `particles` slots
 * (src/bench/emitters.ts): started at its steady state by bursts on the
 * first step, into slots in shuffled order, its counters read back after FILL_STEPS steps, right before
 * the timed runs, and after them. A particle-step is a live particle's: the
 * rate counts the live particles (the mean of the two readbacks), and the
 * bytes are a whole frame's (LIFECYCLE_BYTES in src/bench/roofline.ts) over
 * that live count, with the births and deaths a step the counters saw
 * during the timed runs.
 */
function emitterCase(
  device: GPUDevice,
  timer: GpuTimer,
  dt: number,
  particles: number,
  fraction: number,
  name: string,
): CaseSpec {
  const targetLive = liveTarget(particles, fraction);
  const rate = churnRate(targetLive, particles, dt);
  // The warm-up's steps are the fill's last ones.
  const steps = Math.max(0, FILL_STEPS - WARM_UP_RUNS);
  // Expected before measuring: deaths (= births) a step at the steady state.
  const expectedDeaths = steadyRate(targetLive, dt) * dt;
  return {
    name,
    particles,
    group: 'emitters',
    backend: 'gpu',
    variant: DEFAULT_VARIANT,
    layout: `${PACKED}, life records, live and free lists`,
    workgroupSize: DEFAULT_WORKGROUP_SIZE,
    bytes: lifecycleBytes(targetLive, expectedDeaths, expectedDeaths),
    particleStep: 'live particle',
    // Particles 64, life 32, two live lists 8, free list 4, flags 8, scan 8 (bytes a slot).
    memoryBytes: particles * (BYTES_PER_PARTICLE + BYTES_PER_LIFE + 28),
    note:
      `an emitter of ${rate.toFixed(0)} particles/s living ${CHURN_LIFETIME.join('-')} s, started at its ` +
      `steady state by bursts into shuffled slots, ${steps + WARM_UP_RUNS} steps before timing; ` +
      'a frame: planStep, the step over the live list, age, scan, compact, planEmit, emit (indirect dispatches)',
    open: async () => {
      const system = await ParticleSystem.create(device, {
        capacity: particles,
        ...DEFAULT_VARIANT,
        emitters: churningEmitters(targetLive, particles, dt),
      });
      let before: LifecycleStats | null = null;
      try {
        shuffleFreeList(system);
        await advance(system, dt, steps);
      } catch (error) {
        system.destroy();
        throw error;
      }
      return {
        run: (units) => timer.time((encoder) => system.encodeSteps(encoder, dt, units), name),
        beforeTiming: async () => {
          before = await system.readStats();
        },
        afterTiming: async () => {
          if (!before) throw new Error(`${name}: no readback before the timed runs`);
          const counts = frameCounts(before, await system.readStats());
          const live = (counts.liveBefore + counts.liveAfter) / 2;
          return {
            particlesPerStep: live,
            bytes: lifecycleBytes(live, counts.births, counts.deaths),
            lifecycle: {
              capacity: particles,
              targetFraction: fraction,
              targetLive,
              rate,
              lifetime: CHURN_LIFETIME,
              fillSteps: steps + WARM_UP_RUNS,
              liveBeforeTiming: counts.liveBefore,
              liveAfterTiming: counts.liveAfter,
              liveError: (counts.liveBefore - targetLive) / targetLive,
              timedSteps: counts.steps,
              birthsPerStep: counts.births,
              deathsPerStep: counts.deaths,
              shortfallPerStep: counts.shortfall,
            },
          };
        },
        close: () => system.destroy(),
      };
    },
  };
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

/** Runs of one step each that warm a case up before its timed runs. */
const WARM_UP_RUNS = 2;

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

type Measured = Omit<CaseResult, 'fractionOfCopy' | 'fractionOfBufferCopy'>;

/** Runs the open case's afterTiming, if it has one, into `running.measured`. */
async function finish(running: Running): Promise<void> {
  const measured = await running.open.afterTiming?.();
  if (measured) running.measured = measured;
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
function withFractions(cases: Measured[]): CaseResult[] {
  const roof = (name: string, particles: number) =>
    cases.find((c) => c.name === name && c.particles === particles)?.gigabytesPerSecond ?? Number.NaN;
  return cases.map((c) => ({
    ...c,
    fractionOfCopy: c.gigabytesPerSecond / roof('copy', c.particles),
    fractionOfBufferCopy: c.gigabytesPerSecond / roof('buffer-copy', c.particles),
  }));
}

export function caseLabel(name: string, particles: number): string {
  const exponent = Math.log2(particles);
  return `${name} @ ${Number.isInteger(exponent) ? `2^${exponent}` : particles}`;
}

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
          `${device.limits.maxStorageBufferBindingSize} B, maxBufferSize ${device.limits.maxBufferSize} B)`,
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
  const step = (spec: CaseSpec) => onProgress({ done: done++, total, current: caseLabel(spec.name, spec.particles) });
  const results: Measured[] = [];
  let forceRatio: ForceRatioResult | null = null;
  try {
    for (const group of groups) {
      const first = group[0] as CaseSpec;
      const together =
        options.interleave && group.reduce((sum, c) => sum + c.memoryBytes, 0) <= options.interleaveBudgetBytes;
      await withErrorScopes(device, `cases at ${first.particles} particles`, async () => {
        if (together) {
          const running: Running[] = [];
          try {
            for (const spec of group) {
              step(spec);
              running.push(await prepare(spec, options));
            }
            for (let r = 0; r < options.repeats; r++) {
              for (const c of running) {
                step(c.spec);
                c.samples.push(await c.open.run(c.units));
              }
            }
            for (const c of running) await finish(c);
          } finally {
            for (const c of running) c.open.close();
          }
          results.push(...running.map(result));
        } else {
          for (const spec of group) {
            step(spec);
            let opened: Running | undefined;
            try {
              // Its own scopes: a case the device has no memory for is skipped, not the run.
              await withErrorScopes(device, caseLabel(spec.name, spec.particles), async () => {
                opened = await prepare(spec, options);
              });
            } catch (error) {
              opened?.open.close();
              if (!(error instanceof GpuOutOfMemoryError)) throw error;
              skipped.push(
                `${caseLabel(spec.name, spec.particles)}: out of memory (${error.gpuError.message.split('\n')[0]})`,
              );
              for (let r = 0; r < options.repeats; r++) step(spec);
              continue;
            }
            const c = opened as Running;
            try {
              for (let r = 0; r < options.repeats; r++) {
                step(spec);
                c.samples.push(await c.open.run(c.units));
              }
              await finish(c);
            } finally {
              c.open.close();
            }
            results.push(result(c));
          }
        }
      });
    }
    // Timed apart, the step and the fused step drift on a shared machine: the ratio's own rounds alternate them.
    const largest = groups.at(-1)?.[0]?.particles;
    if (largest !== undefined) {
      onProgress({ done, total, current: caseLabel('forces vs step, alternating rounds', largest) });
      forceRatio = await withErrorScopes(device, caseLabel('force ratio', largest), () =>
        measureForceToStepRatio(device, largest),
      ).catch((error: unknown) => {
        if (!(error instanceof GpuOutOfMemoryError)) throw error;
        skipped.push(`${caseLabel('force ratio', largest)}: out of memory`);
        return null;
      });
    }
  } finally {
    timer.destroy();
    cachedState = null;
  }
  onProgress({ done: total, total, current: '' });
  return {
    adapter: { ...adapter, timing: timer.method },
    options,
    startedAt,
    elapsedMs: performance.now() - started,
    cases: withFractions(results),
    skipped,
    notMeasured: NOT_MEASURED,
    forceRatio,
  };
}
