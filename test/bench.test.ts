/**
 * The benchmark suite on the real GPU: the harness at a tiny size keeps the
 * JSON contract, and the bench-only shaders compute the same step as the CPU
 * reference, so comparing their speed is comparing like with like. No timing
 * is asserted here: the figures belong to `npm run bench`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { FLOATS_PER_PARTICLE, attributeOffset } from '../src/core/layout';
import { packParticles } from '../src/core/particles';
import { ALL_VARIANTS, variantName, type Variant } from '../src/core/variants';
import { withErrorScopes } from '../src/gpu/device/errors';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { CopyPass } from '../src/bench/copyPass';
import {
  FILL_STEPS,
  FOUNTAIN_FRACTIONS,
  FOUNTAIN_PLANE,
  LIVE_FRACTIONS,
  LIVE_TOLERANCE,
  churningEmitters,
  liveTarget,
  shuffleFreeList,
} from '../src/bench/emitters';
import type { ColliderRatioResult } from '../src/bench/colliderRatio';
import type { EmitterRatioResult } from '../src/bench/emitterRatio';
import type { ForceRatioResult } from '../src/bench/forceRatio';
import type { SortRatioResult } from '../src/bench/sortRatio';
import type { ChunkingRatioResult } from '../src/bench/chunkingRatio';
import { quickOptions, runBench, type Progress } from '../src/bench/harness';
import { benchSvg } from '../src/bench/plot';
import { buildReport, reportJson, summaryLines, type BenchReport } from '../src/bench/report';
import { SoAStepPass, readBuffer } from '../src/bench/soaPass';
import { LIFECYCLE_BYTES, lifecycleBytes, totalBytes } from '../src/bench/roofline';
import type { LifecycleSnapshot } from '../src/core/emitters/stats';
import { BENCH_ACCELERATION, benchState } from '../src/bench/state';
import { stepsPerSubmission } from '../src/bench/timing';
import { STEP_SAMPLES_PER_ROUND, measureContactRatio } from '../src/bench/contactRatio';
import { UniformAccelerationPass } from '../src/bench/uniformAccelerationPass';
import { StepErrorBound, compareWithBound } from './support/errorBound';
import { useDevice } from './support/gpu';
import { mixedScene } from './support/scenes';

const gpu = useDevice();
const DT = 1 / 60;
const CONTRACT = [
  'particles',
  'particleStepsPerSecond',
  'bytesPerParticleStep',
  'gigabytesPerSecond',
  'fractionOfCopy',
  'fractionOfBufferCopy',
] as const;
const LIFECYCLE_POSITIVE = [
  'rate',
  'liveBeforeTiming',
  'liveAfterTiming',
  'timedSteps',
  'birthsPerStep',
  'deathsPerStep',
  'slotStepsPerSecond',
] as const;

interface EmitterCaseJson {
  name: string;
  particleStep: string;
  particlesPerStep: number;
  particleStepsPerSecond: number;
  bytesPerParticleStep: number;
  runs: number;
  stepsPerRun: number;
  lifecycle: Record<
    (typeof LIFECYCLE_POSITIVE)[number] | 'capacity' | 'targetFraction' | 'targetLive' | 'liveError' | 'fillSteps',
    number
  > & {
    liveSpreadOverPool: boolean;
    fountain?: { forces: string[]; colliders: string[]; stepPasses: string[]; hitsPerStep: number };
  };
}

interface TargetJson {
  target: string;
  met: boolean | null;
  figure: string;
}

interface ReportJson {
  adapter: Record<string, unknown>;
  cases: (Record<string, unknown> & { name: string })[];
  targets: TargetJson[];
  forceRatio: ForceRatioResult;
  colliderRatio: ColliderRatioResult;
  emitterRatio: EmitterRatioResult;
  sortRatio: SortRatioResult;
  chunkingRatio: ChunkingRatioResult;
}

/** The targets the report states, each found by how its wording starts. */
const TARGETS = {
  bandwidth: 'step at >= 2^20 particles',
  bytes: 'particle state <= 64 bytes',
  cpu: 'GPU step >= 2x the CPU reference',
  forces: 'typical forces',
  emitterFrame: 'emitters: a frame at 100% live',
  emitterTenth: 'emitters: a frame at 10% live',
  colliderPlane: 'step + one plane collider',
  colliderShower: 'gravity + drag + plane',
  stepBytes: 'the plain step moves',
  planeBytes: 'step + fused plane collider moves',
  contacts: 'contacts <= 60x step at 2^18',
} as const;

describe('the bench JSON contract, at 2^12 particles and one repeat', () => {
  const COUNT = 2 ** 12;
  const OPTIONS = { ...quickOptions(), sizes: [COUNT], repeats: 1, targetMs: 1, maxStepsPerRun: 2 };
  let report: BenchReport;
  let json: ReportJson;
  const progress: Progress[] = [];
  /** Uncaptured errors during the run: useDevice checks each test, and the run is in beforeAll, before any. */
  let uncapturedDuringRun: string[] = [];

  beforeAll(async () => {
    const { device, adapterInfo } = gpu.get();
    report = buildReport(await runBench(device, adapterInfo, OPTIONS, (p) => progress.push(p)));
    json = JSON.parse(reportJson(report)) as ReportJson;
    await device.queue.onSubmittedWorkDone();
    uncapturedDuringRun = [...gpu.uncaptured];
  });

  const names = () => json.cases.map((c) => c.name);
  const caseNamed = (name: string) => {
    const found = json.cases.find((c) => c.name === name);
    if (!found) throw new Error(`no ${name} case in ${names().join(', ')}`);
    return found;
  };
  const targetStarting = (start: string): TargetJson => {
    const found = json.targets.filter((t) => t.target.startsWith(start));
    expect(
      found.map((t) => t.target),
      `targets starting "${start}"`,
    ).toHaveLength(1);
    return found[0] as TargetJson;
  };

  it('names the adapter, how it timed, and how the emitter cases dispatched', () => {
    expect(json.adapter.description).toBeTypeOf('string');
    expect(json.adapter.timing).toBeTypeOf('string');
    // The suite runs on SwiftShader, a software adapter; the emitter cases dispatch directly everywhere.
    expect(json.adapter.software).toBe(true);
    expect(json.adapter.dispatch).toBe('direct');
  });

  it('has the roofline, step, layout, force, collision, emitter and CPU cases, each once', () => {
    const expected = [
      'copy',
      'buffer-copy',
      ...ALL_VARIANTS.map((v) => `step/${variantName(v)}`),
      'step-soa/explicit/per-second',
      'step-uniform-acceleration/explicit/per-second',
      'scatter-add-forces',
      'forces-typical',
      'collisions-plane',
      'collisions-plane-typical',
      'step-with-typical-forces',
      ...LIVE_FRACTIONS.map((f) => f.name),
      ...FOUNTAIN_FRACTIONS.map((f) => f.name),
      'cpu-reference',
    ];
    for (const name of expected)
      expect(
        names().filter((n) => n === name),
        name,
      ).toHaveLength(1);
  });

  it('gives every case a name and positive, finite contract figures at the count asked for', () => {
    expect(json.cases.length).toBeGreaterThan(0);
    for (const c of json.cases) {
      expect(c.name, JSON.stringify(c)).toBeTypeOf('string');
      for (const field of CONTRACT) {
        const value = c[field];
        expect(typeof value === 'number' && Number.isFinite(value) && value > 0, `${c.name}.${field} = ${value}`).toBe(
          true,
        );
      }
      expect(c.particles, c.name).toBe(COUNT);
    }
  });

  it('counts a slot as a particle-step in every case but the emitters', () => {
    for (const c of json.cases) {
      if (c.group === 'emitters') continue;
      expect(c.particleStep, c.name).toBe('slot');
      expect(c.particlesPerStep, c.name).toBe(c.particles);
    }
  });

  describe.each(LIVE_FRACTIONS)('the emitter case $name', ({ name, fraction, spread }) => {
    const emitterCase = () => caseNamed(name) as unknown as EmitterCaseJson;

    it('counts a live particle as a particle-step, with positive lifecycle figures', () => {
      const c = emitterCase();
      expect(c.particleStep).toBe('live particle');
      for (const field of LIFECYCLE_POSITIVE) {
        const value = c.lifecycle[field];
        expect(Number.isFinite(value) && value > 0, `${name}.lifecycle.${field} = ${value}`).toBe(true);
      }
    });

    it('filled the pool to its target before timing, and kept it there', () => {
      const l = emitterCase().lifecycle;
      expect(l.capacity).toBe(COUNT);
      expect(l.targetFraction).toBe(fraction);
      expect(l.targetLive).toBe(liveTarget(COUNT, fraction));
      expect(l.liveSpreadOverPool).toBe(spread);
      // The fill outlasts every particle of its first step.
      expect(l.fillSteps).toBeGreaterThanOrEqual(FILL_STEPS);
      for (const live of [l.liveBeforeTiming, l.liveAfterTiming]) {
        expect(Math.abs(live - l.targetLive), `${name}: live ${live}, target ${l.targetLive}`).toBeLessThanOrEqual(
          LIVE_TOLERANCE * l.targetLive,
        );
      }
      expect(l.liveError).toBeCloseTo((l.liveBeforeTiming - l.targetLive) / l.targetLive, 12);
    });

    it('derives its particle-steps, timed steps and slot rate from the readbacks', () => {
      const c = emitterCase();
      const l = c.lifecycle;
      expect(c.particlesPerStep).toBe((l.liveBeforeTiming + l.liveAfterTiming) / 2);
      expect(l.timedSteps).toBe(c.runs * c.stepsPerRun);
      expect(l.slotStepsPerSecond / c.particleStepsPerSecond).toBeCloseTo(l.capacity / c.particlesPerStep, 9);
    });

    it("counts the bytes every live particle costs, plus the churn's", () => {
      const c = emitterCase();
      const l = c.lifecycle;
      expect(c.bytesPerParticleStep).toBeCloseTo(
        totalBytes(lifecycleBytes(c.particlesPerStep, l.birthsPerStep, l.deathsPerStep)),
        9,
      );
      expect(c.bytesPerParticleStep).toBeGreaterThan(totalBytes(LIFECYCLE_BYTES.live));
    });
  });

  describe.each(FOUNTAIN_FRACTIONS)('the fountain case $name', ({ name, fraction }) => {
    const fountainCase = () => caseNamed(name) as unknown as EmitterCaseJson;
    const fountainOf = (c: EmitterCaseJson) => {
      const fountain = c.lifecycle.fountain;
      if (!fountain) throw new Error(`${name} has no lifecycle.fountain`);
      return fountain;
    };

    it('runs the pool at its fraction with gravity, drag and the plane fused into one step pass', () => {
      const c = fountainCase();
      expect(c.particleStep).toBe('live particle');
      expect(c.lifecycle.targetFraction).toBe(fraction);
      expect(c.lifecycle.liveSpreadOverPool).toBe(false);
      const fountain = fountainOf(c);
      expect(fountain.forces).toEqual(['gravity', 'drag']);
      expect(fountain.colliders).toEqual([FOUNTAIN_PLANE.type]);
      expect(fountain.stepPasses).toContain('integrate+forces+colliders');
      expect(fountain.stepPasses).not.toContain('collisions');
      for (const live of [c.lifecycle.liveBeforeTiming, c.lifecycle.liveAfterTiming]) {
        expect(Math.abs(live - c.lifecycle.targetLive)).toBeLessThanOrEqual(LIVE_TOLERANCE * c.lifecycle.targetLive);
      }
    });

    it("counts the bytes of the frame with the collision events' own", () => {
      const c = fountainCase();
      const l = c.lifecycle;
      const { hitsPerStep } = fountainOf(c);
      expect(Number.isFinite(hitsPerStep) && hitsPerStep >= 0, `hitsPerStep = ${hitsPerStep}`).toBe(true);
      expect(c.bytesPerParticleStep).toBeCloseTo(
        totalBytes(lifecycleBytes(c.particlesPerStep, l.birthsPerStep, l.deathsPerStep, hitsPerStep)),
        9,
      );
    });

    it('prints its frame against the pool without the forces and plane at the same fraction', () => {
      const pool = LIVE_FRACTIONS.find((f) => f.fraction === fraction && !f.spread)!.name;
      const lines = summaryLines(report).filter((line) => line.startsWith(`${name} @ 2^12:`));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `collision events; frame [\\d.]+ ms = [\\d.]+x the frame without the forces and plane \\(${pool}\\)`,
        ),
      );
    });
  });

  it('counts a full fountain pool’s collision events: its births inside the emitter’s sphere below the plane', () => {
    // A birth is uniform in a sphere of radius 10 around the origin; the plane is y = -2, so about 35% are born
    // under it and touch it in their first step: at 100% live (births ~1.1% of the pool a step) events every step.
    const full = caseNamed('emitters-fountain-100pct-live') as unknown as EmitterCaseJson;
    expect(full.lifecycle.birthsPerStep).toBeGreaterThan(10);
    expect(full.lifecycle.fountain!.hitsPerStep).toBeGreaterThan(0);
    expect(full.bytesPerParticleStep).toBeGreaterThan(
      totalBytes(lifecycleBytes(full.particlesPerStep, full.lifecycle.birthsPerStep, full.lifecycle.deathsPerStep)),
    );
  });

  it('states its targets: bandwidth, bytes a particle, GPU/CPU, typical forces and emitters against the step', () => {
    expect(json.targets).toHaveLength(Object.keys(TARGETS).length);
    for (const start of Object.values(TARGETS)) targetStarting(start);
  });

  it('measures the emitter targets below 2^20 in alternating rounds but does not judge them (they are stated at 1,048,576 slots)', () => {
    const rounds = json.emitterRatio.rounds;
    const frame = targetStarting(TARGETS.emitterFrame);
    expect(frame.figure).toMatch(
      new RegExp(
        `^at 2\\^12, median of ${rounds} alternating rounds: \\d+\\.\\d\\d ms a frame / \\d+\\.\\d\\d ms a step = ` +
          `\\d+\\.\\d\\dx \\(fastest rounds \\d+\\.\\d\\dx\\); from the cases, timed apart: \\d+\\.\\d\\dx$`,
      ),
    );
    expect(frame.met).toBeNull();
    const tenth = targetStarting(TARGETS.emitterTenth);
    // The 10% frame whose particles sit in the slots the pool holds, then the one spread over the pool (not judged).
    expect(tenth.figure).toMatch(
      new RegExp(
        `^at 2\\^12, median of ${rounds} alternating rounds: \\d+\\.\\d{3} \\(fastest rounds \\d+\\.\\d{3}\\); ` +
          `spread over the pool \\(once full\\): ` +
          `\\d+\\.\\d{3}; from the cases, timed apart: \\d+\\.\\d{3}$`,
      ),
    );
    expect(tenth.met).toBeNull();
  });

  it('times every churning pool against the plain step in alternating rounds, with the counts of the timed frames', () => {
    const ratio = json.emitterRatio;
    expect(ratio.count).toBe(COUNT);
    expect(ratio.pools.map((p) => p.name)).toEqual([
      ...LIVE_FRACTIONS.map((f) => f.name),
      ...FOUNTAIN_FRACTIONS.map((f) => f.name),
    ]);
    for (const pool of ratio.pools) {
      expect(pool.overStep.ratios, pool.name).toHaveLength(ratio.rounds);
      expect(pool.ms > 0 && pool.overStep.ratio > 0, pool.name).toBe(true);
      // The counters were read around the timed rounds only, after the warm-up round.
      expect(pool.counts.steps, pool.name).toBe(ratio.rounds * ratio.frames);
      const target = liveTarget(COUNT, pool.fraction);
      expect(Math.abs(pool.counts.liveBefore - target), pool.name).toBeLessThanOrEqual(LIVE_TOLERANCE * target);
      expect(pool.counts.births, pool.name).toBeGreaterThan(0);
      // Only the fountains have colliders to make collision events.
      if (!pool.fountain) expect(pool.counts.hits, pool.name).toBe(0);
    }
    expect(ratio.fountainOverPool.map((f) => f.name)).toEqual(FOUNTAIN_FRACTIONS.map((f) => f.name));
    const full = ratio.pools.find((p) => p.name === 'emitters-100pct-live')!;
    const tenthPool = ratio.pools.find((p) => p.name === 'emitters-10pct-live')!;
    // The same rounds divided two ways: the ratios of ratios are the ratio of the frames.
    tenthPool.overStep.ratios.forEach((r, i) =>
      expect(ratio.tenthOverFull.ratios[i]).toBeCloseTo(r / full.overStep.ratios[i]!, 9),
    );
    const fountainFull = ratio.pools.find((p) => p.name === 'emitters-fountain-100pct-live')!;
    expect(fountainFull.counts.hits).toBeGreaterThan(0);
    expect(
      summaryLines(report).filter((line) =>
        line.startsWith('emitters-fountain-100pct-live vs the pool without its forces and plane @ 2^12: '),
      ),
    ).toHaveLength(1);
  });

  it('measures the forces target below 2^20 but does not judge it (it is stated at 1,048,576 particles)', () => {
    const forces = targetStarting(TARGETS.forces);
    expect(forces.figure).toMatch(
      /fused into the step \(the default\) they add -?\d+\.\d\dx the step; as a pass of their own \d+\.\d\dx/,
    );
    expect(forces.met).toBeNull();
  });

  it('keeps the force ratio of the alternating rounds at the largest size, which the forces target quotes', () => {
    const ratio = json.forceRatio;
    expect(ratio.count).toBe(COUNT);
    expect(ratio.fusedRatios.length).toBe(ratio.ratios.length);
    expect(ratio.fusedRatios.length).toBeGreaterThan(0);
    for (const [field, x] of Object.entries({ forceMs: ratio.forceMs, stepMs: ratio.stepMs, fusedMs: ratio.fusedMs })) {
      expect(x > 0 && Number.isFinite(x), `forceRatio.${field} = ${x}`).toBe(true);
    }
    const forces = targetStarting(TARGETS.forces);
    expect(forces.figure).toContain(`median of ${ratio.fusedRatios.length} alternating rounds`);
    expect(forces.figure).toContain(`they add ${ratio.fusedRatio.toFixed(2)}x`);
  });

  it('states the contact target as not measured when the run reaches no 2^18 particles', () => {
    const contacts = targetStarting(TARGETS.contacts);
    expect(contacts.met).toBeNull();
    expect(contacts.figure).toBe('not measured: the run reached no 2^18 particles');
  });

  it('plots a standalone SVG naming every variant', () => {
    const svg = benchSvg(report);
    expect(svg.startsWith('<svg')).toBe(true);
    for (const variant of ALL_VARIANTS) expect(svg).toContain(`step/${variantName(variant)}`);
  });

  it('measures the collider targets below 2^20 in alternating rounds but does not judge them', () => {
    for (const start of [TARGETS.colliderPlane, TARGETS.colliderShower]) {
      const target = targetStarting(start);
      expect(target.met, start).toBeNull();
      expect(target.figure, start).toMatch(/^at 2\^12, median of \d+ alternating rounds: [\d.]+x the step/);
    }
    expect(json.colliderRatio.cases.map((c) => c.name)).toEqual([
      'step+plane',
      'gravity+drag+plane',
      'step+bouncing plane',
    ]);
    expect(targetStarting(TARGETS.colliderPlane).figure).toMatch(
      /the plane bouncing with friction \(restitution 0\.5, friction 0\.2\): [\d.]+x$/,
    );
  });

  it('times the depth sort against the step in alternating rounds, at the run’s largest size below 2^18', () => {
    const { steps, sorts, rounds, sizes } = json.sortRatio;
    expect([steps, sorts, rounds]).toEqual([5, 2, 3]);
    expect(sizes.map((s) => s.count)).toEqual([COUNT]);
    const [size] = sizes;
    expect(size!.chunkSize).toBe(256);
    expect(size!.stepsPerSubmission).toBeGreaterThanOrEqual(steps);
    expect(size!.ratios).toHaveLength(rounds);
    for (const value of [size!.stepMs, size!.sortMs, size!.ratio, size!.fastestRatio, ...size!.ratios])
      expect(value).toBeGreaterThan(0);
    expect(
      summaryLines(report).filter((line) => line.startsWith('depth sort vs step @ 2^12 (chunks of 256)')),
    ).toHaveLength(1);
  });

  it('times chunked particle state against one chunk in alternating rounds, at the run’s largest size in four chunks', () => {
    const { steps, rounds, sizes, skipped } = json.chunkingRatio;
    expect([steps, rounds, skipped]).toEqual([2, 3, []]);
    expect(sizes.map((s) => [s.count, s.chunks, s.chunkParticles, s.referenceCount])).toEqual([
      [COUNT, 4, COUNT / 4, COUNT],
    ]);
    const [size] = sizes;
    expect(size!.ratios).toHaveLength(rounds);
    for (const value of [size!.stepMs, size!.referenceStepMs, size!.ratio, size!.fastestRatio, ...size!.ratios])
      expect(value).toBeGreaterThan(0);
    expect(
      summaryLines(report).filter((line) =>
        line.startsWith('chunked vs one chunk @ 2^12 (4 chunks of 2^10; reference 2^12 in one)'),
      ),
    ).toHaveLength(1);
  });

  it('reports progress run by run, each warm-up and repeat once, then done', () => {
    const last = progress.at(-1);
    const total = json.cases.length * (1 + OPTIONS.repeats);
    expect(last).toEqual({ done: total, total, current: '' });
    const runs = progress.filter(
      (p) =>
        p.current !== '' &&
        ![
          'forces vs step',
          'colliders vs step',
          'emitters vs step',
          'particle contacts vs step',
          'depth sort vs step',
          'chunked state vs one chunk',
        ].some((other) => p.current.startsWith(other)),
    );
    expect(runs.map((p) => p.done)).toEqual(Array.from({ length: total }, (_, i) => i));
  });

  it('runs the same cases in the same order case by case (interleaving off)', async () => {
    const { device, adapterInfo } = gpu.get();
    const apart = await runBench(device, adapterInfo, { ...OPTIONS, interleave: false });
    expect(apart.cases.map((c) => c.name)).toEqual(names());
    expect(apart.skipped).toEqual([]);
    for (const c of apart.cases) expect(c.runs, c.name).toBe(OPTIONS.repeats);
  });

  it('reported no uncaptured GPU error during the run', () => {
    expect(uncapturedDuringRun).toEqual([]);
  });
});

describe('the contact ratio (measureContactRatio)', () => {
  it('times grid + iterations against the step in alternating rounds, and reports the step samples a round', async () => {
    const { device } = gpu.get();
    const result = await measureContactRatio(device, { sizes: [10], iterations: 2, rounds: 2 });
    expect(result.iterations).toBe(2);
    const [size] = result.sizes;
    expect(size!.count).toBe(1024);
    expect(size!.stepSamplesPerRound).toBe(STEP_SAMPLES_PER_ROUND);
    expect(size!.stepsPerSubmission).toBeGreaterThanOrEqual(1);
    expect(size!.ratios).toHaveLength(2);
    for (const value of [size!.stepMs, size!.contactsMs, size!.ratio, ...size!.ratios])
      expect(value).toBeGreaterThan(0);
    // No 2^18 in the sizes: the target is stated, not judged.
    expect(result.target).toEqual({ target: 'contacts <= 60x step at 2^18', figure: null, met: false });
  });
});

describe('steps a timed submission (stepsPerSubmission)', () => {
  // A cost model instead of a clock: `overhead` a submission plus `perStep` a step, in milliseconds.
  const model = (overhead: number, perStep: number) => {
    const asked: number[] = [];
    const time = async (steps: number) => {
      asked.push(steps);
      return overhead + perStep * steps;
    };
    return { time, asked };
  };

  it('keeps the least where one submission of it already lasts the target (a software adapter)', async () => {
    const { time, asked } = model(0.05, 20);
    expect(await stepsPerSubmission(time, 5)).toBe(5);
    expect(asked).toEqual([5]);
  });

  it('grows until a submission lasts the target where a step is microseconds (a GPU), so the step outweighs the submission', async () => {
    const { time } = model(0.1, 0.01);
    const steps = await stepsPerSubmission(time, 1);
    expect(steps).toBeGreaterThanOrEqual(390);
    expect(steps).toBeLessThanOrEqual(1024);
    // The submission's own cost is then under 3% of what is divided by the steps.
    expect(0.1 / (0.1 + 0.01 * steps)).toBeLessThan(0.03);
  });

  it('stops at the most', async () => {
    const { time } = model(0.05, 0.0001);
    expect(await stepsPerSubmission(time, 1, 4, 256)).toBe(256);
  });
});

describe('benchmark harness', () => {
  const CAPACITY = 1000;
  const TARGET = liveTarget(CAPACITY, 0.1);

  /** The lifecycle of a churning pool at 10% live whose free list `shuffle` shuffled, after the fill: every slot once. */
  async function filled(shuffle: (system: ParticleSystem) => void): Promise<LifecycleSnapshot> {
    const system = await ParticleSystem.create(gpu.get().device, {
      capacity: CAPACITY,
      emitters: churningEmitters(TARGET, CAPACITY, DT),
    });
    try {
      shuffle(system);
      await system.stepMany(DT, FILL_STEPS);
      const state = await system.readLifecycle();
      if (!state) throw new Error('no lifecycle');
      const slots = [...state.live, ...state.free].sort((a, b) => a - b);
      expect(slots).toEqual(Array.from({ length: CAPACITY }, (_, i) => i));
      expect(Math.abs(state.live.length - TARGET)).toBeLessThanOrEqual(LIVE_TOLERANCE * TARGET);
      return state;
    } finally {
      system.destroy();
    }
  }

  it('a shuffled free list keeps every slot once, and the bursts start the pool at its target', async () => {
    const state = await filled((system) => shuffleFreeList(system));
    // Shuffled: the live slots are not the first ones a new pool hands out.
    expect(Math.max(...state.live)).toBeGreaterThan(TARGET);
    expect(gpu.uncaptured).toEqual([]);
  });

  it('a free list shuffled over the live share hands out the lowest slots first, in no order, and refuses a bad share', async () => {
    const state = await filled((system) => {
      expect(() => shuffleFreeList(system, 3, CAPACITY + 1)).toThrow(/slots = 1001 must be an integer in \[0, 1000\]/);
      expect(() => shuffleFreeList(system, 3, 2.5)).toThrow(/slots = 2.5/);
      shuffleFreeList(system, 3, TARGET);
    });
    // The lowest slots: past `TARGET` only the few the pool has held past its target (the bursts are exact).
    const highest = Math.max(...state.live);
    expect(highest).toBeLessThan(TARGET * (1 + LIVE_TOLERANCE));
    expect(highest).toBeGreaterThan(TARGET / 2);
    // In no particular order: the live list is not the slots in order.
    expect([...state.live]).not.toEqual([...state.live].sort((a, b) => a - b));
    // The rest of the free list below them, in order, untouched: the next slot handed out is the next one up.
    const untouched = CAPACITY - Math.max(TARGET, highest + 1);
    expect([...state.free.slice(0, untouched)]).toEqual(Array.from({ length: untouched }, (_, i) => CAPACITY - 1 - i));
    expect(gpu.uncaptured).toEqual([]);
  });

  it('the copy kernel copies every byte', async () => {
    const { device } = gpu.get();
    const count = 1000;
    const source = benchState(count);
    const pass = await withErrorScopes(device, 'CopyPass', () => CopyPass.create(device, count * 64, 64));
    try {
      device.queue.writeBuffer(pass.source, 0, source);
      const encoder = device.createCommandEncoder();
      pass.encode(encoder);
      device.queue.submit([encoder.finish()]);
      expect(await readBuffer(device, pass.destination)).toEqual(source);
    } finally {
      pass.destroy();
    }
  });
});

/** The mixed test scene (immovable particles, damping 0 and 1, forces) as packed records. */
function packedScene(count: number, uniformAcceleration: boolean): Float32Array<ArrayBuffer> {
  const scene = mixedScene(count, 7);
  const particles = uniformAcceleration
    ? scene.particles.map((p) => ({ ...p, acceleration: [...BENCH_ACCELERATION] }))
    : scene.particles;
  const packed = packParticles(particles) as Float32Array<ArrayBuffer>;
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 3; c++) {
      packed[i * FLOATS_PER_PARTICLE + attributeOffset('forceAccum') + c] = scene.forces[i * 3 + c] as number;
    }
  }
  return packed;
}

/** A `stepGpu` for checkAgainstReference: records `steps` steps with `encode` into a new encoder and submits it. */
function submitting(
  device: GPUDevice,
  encode: (encoder: GPUCommandEncoder, steps: number) => void,
): (steps: number) => Promise<void> {
  return async (steps) => {
    const encoder = device.createCommandEncoder();
    encode(encoder, steps);
    device.queue.submit([encoder.finish()]);
  };
}

/**
 * Steps `packed` on the CPU reference to each checkpoint and checks the GPU
 * state read by `readGpu` there, within the carried float32 bound.
 */
async function checkAgainstReference(
  variant: Variant,
  packed: Float32Array,
  checkpoints: number[],
  stepGpu: (steps: number) => Promise<void>,
  readGpu: () => Promise<Float32Array>,
  context: string,
): Promise<void> {
  const count = packed.length / FLOATS_PER_PARTICLE;
  const reference = new CpuParticleSystem({ capacity: count, ...variant });
  reference.state.set(packed);
  const bound = new StepErrorBound(count, variant);
  let done = 0;
  for (const target of checkpoints) {
    await stepGpu(target - done);
    for (; done < target; done++) {
      bound.advance(reference.state, Math.fround(DT));
      reference.step(DT);
    }
    const failure = compareWithBound(await readGpu(), await reference.readPacked(), bound, context);
    expect(failure).toBeNull();
  }
}

describe.each(ALL_VARIANTS.map((v) => [variantName(v), v] as const))(
  'bench-only step shaders match the CPU reference: %s',
  (name, variant) => {
    const COUNT = 1000; // not a multiple of any workgroup size: the guard is exercised

    it('structure of arrays (integrateSoA.wgsl) after 1 and 3 steps', async () => {
      const { device } = gpu.get();
      const packed = packedScene(COUNT, false);
      const pass = await withErrorScopes(device, 'SoAStepPass', () => SoAStepPass.create(device, COUNT, variant, 64));
      try {
        pass.write(packed);
        await checkAgainstReference(
          variant,
          packed,
          [1, 3],
          submitting(device, (encoder, steps) => pass.encode(encoder, DT, steps)),
          () => pass.readPacked(),
          `SoA ${name}`,
        );
      } finally {
        pass.destroy();
      }
      expect(gpu.uncaptured).toEqual([]);
    });

    it('uniform acceleration (integrateUniformAcceleration.wgsl) after 1 and 3 steps', async () => {
      const { device } = gpu.get();
      const packed = packedScene(COUNT, true);
      const system = await ParticleSystem.create(device, { capacity: COUNT, ...variant });
      try {
        system.particles.write(0, packed);
        const pass = await withErrorScopes(device, 'UniformAccelerationPass', () =>
          UniformAccelerationPass.create(device, system.particles, variant, 64),
        );
        try {
          await checkAgainstReference(
            variant,
            packed,
            [1, 3],
            submitting(device, (encoder, steps) => pass.encode(encoder, BENCH_ACCELERATION, DT, COUNT, steps)),
            () => system.readPacked(),
            `uniform acceleration ${name}`,
          );
        } finally {
          pass.destroy();
        }
      } finally {
        system.destroy();
      }
      expect(gpu.uncaptured).toEqual([]);
    });
  },
);
