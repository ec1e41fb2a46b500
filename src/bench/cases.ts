/**
 * The bench's cases: what each one measures (its group, layout, bytes a
 * particle-step and the memory it holds) and how it opens, runs `units`
 * steps (copies, calls) timed, and closes. src/bench/runner.ts runs them;
 * the order here is the order they run and are reported in.
 */
import { CpuParticleSystem } from '../core/cpuParticleSystem';
import type { LifecycleStats } from '../core/emitters/stats';
import { BYTES_PER_LIFE, BYTES_PER_PARTICLE } from '../core/layout';
import { ALL_VARIANTS, DEFAULT_VARIANT, variantName, type Variant } from '../core/variants';
import { DEFAULT_WORKGROUP_SIZE, ParticleSystem, type GpuParticleSystemOptions } from '../gpu/particleSystem';
import { CopyPass } from './copyPass';
import {
  BENCH_POOLS,
  CHURN_LIFETIME,
  churnRate,
  FILL_STEPS,
  FOUNTAIN_PLANE,
  frameCounts,
  liveTarget,
  openChurningPool,
  steadyRate,
  type BenchPool,
} from './emitters';
import { WARM_UP_RUNS, WORKGROUP_SIZES, type BenchOptions } from './options';
import type { CaseGroup, LifecycleFigures, ParticleStepUnit } from './results';
import { BYTES, lifecycleBytes, totalBytes, type ByteCount } from './roofline';
import { SoAStepPass } from './soaPass';
import { BENCH_ACCELERATION, BENCH_PLANE, benchForces, withoutAcceleration } from './state';
import { timeHost, type GpuTimer, type Sample } from './timing';
import { SHOWER_FORCES, TYPICAL_EFFECT } from './typicalEffect';
import { UniformAccelerationPass } from './uniformAccelerationPass';

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

export const NOT_MEASURED = [
  'particle-particle contacts (the grid and the Jacobi resolver) are not a case of this harness: on a software ' +
    'adapter they cost hundreds of steps; the run times them against the step in three alternating rounds at 2^16 ' +
    'and 2^18 where it reaches them (contactRatio), and npm run bench:collisions and ' +
    'scripts/profile-contacts.ts time them pass by pass.',
];

const PACKED = 'packed vec4 records (AoS)';

/** What a case spec says about itself; `particles` and `backend` come from the count and `open` from the case. */
type CaseFields = Omit<CaseSpec, 'particles' | 'backend' | 'open'>;

/** The cases at one count, in the order they run. */
export function casesAt(
  device: GPUDevice,
  timer: GpuTimer,
  options: BenchOptions,
  particles: number,
  state: () => Float32Array<ArrayBuffer>,
): CaseSpec[] {
  const { dt } = options;
  const base = { particles, backend: 'gpu' as const };
  /** A system of `particles` slots holding the bench state, then `setup`; destroyed if either fails. */
  const openSystem = async (
    init: Omit<GpuParticleSystemOptions, 'capacity'>,
    setup?: (system: ParticleSystem) => void | Promise<void>,
  ): Promise<ParticleSystem> => {
    const system = await ParticleSystem.create(device, { capacity: particles, ...init });
    try {
      system.particles.write(0, state());
      await setup?.(system);
    } catch (error) {
      system.destroy();
      throw error;
    }
    return system;
  };
  /** A case that times `encodeSteps` of a system opened from `init` and `setup`. */
  const steppedCase = (
    fields: CaseFields,
    init: Omit<GpuParticleSystemOptions, 'capacity'>,
    setup?: (system: ParticleSystem) => void | Promise<void>,
  ): CaseSpec => ({
    ...base,
    ...fields,
    open: async () => {
      const system = await openSystem(init, setup);
      return {
        run: (units) => timer.time((encoder) => system.encodeSteps(encoder, dt, units), fields.name),
        close: () => system.destroy(),
      };
    },
  });
  const stepCase = (variant: Variant, workgroupSize: number, name: string, group: CaseGroup): CaseSpec =>
    steppedCase(
      {
        name,
        group,
        variant,
        layout: PACKED,
        workgroupSize,
        bytes: BYTES.step,
        memoryBytes: particles * BYTES_PER_PARTICLE,
      },
      { ...variant, workgroupSize },
    );
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
  const addTypicalEffect = (system: ParticleSystem) => {
    for (const generator of TYPICAL_EFFECT) system.forces.add(generator);
  };
  const variantTail = variantName(DEFAULT_VARIANT);
  /**
   * Writes the bench state with its acceleration lane zeroed through the
   * public write, so the system knows every acceleration is +0 and steps
   * without the lane (gravity from the registry instead): what its bytes
   * count, checked here rather than assumed.
   */
  const underRegistryGravity = async (system: ParticleSystem, name: string) => {
    await system.writePacked(0, withoutAcceleration(state()));
    if (system.stepReadsAccelerationLane)
      throw new Error(`${name}: the step still reads the acceleration|radius lane; its bytes would not be ${name}'s`);
  };

  const cases: CaseSpec[] = [copyCase('copy', true), copyCase('buffer-copy', false)];
  for (const variant of ALL_VARIANTS) {
    cases.push(stepCase(variant, DEFAULT_WORKGROUP_SIZE, `step/${variantName(variant)}`, 'step'));
  }
  // The step with the non-finite test compiled out (policy 'off'): what the test costs (src/core/nonFinite.ts).
  cases.push(
    steppedCase(
      {
        name: `step-no-finite-check/${variantTail}`,
        group: 'step',
        variant: DEFAULT_VARIANT,
        layout: PACKED,
        workgroupSize: DEFAULT_WORKGROUP_SIZE,
        bytes: BYTES.step,
        memoryBytes: particles * BYTES_PER_PARTICLE,
      },
      { ...DEFAULT_VARIANT, workgroupSize: DEFAULT_WORKGROUP_SIZE, nonFinite: 'off' },
    ),
  );
  // The plain step under registry gravity: the same motion as `step/` (gravity BENCH_ACCELERATION), from the
  // registry, fused into the step, instead of each particle's acceleration lane, which the step then skips.
  const registryGravityName = `step-registry-gravity/${variantTail}`;
  cases.push(
    steppedCase(
      {
        name: registryGravityName,
        group: 'force',
        variant: DEFAULT_VARIANT,
        layout: `${PACKED}, no acceleration lane read`,
        workgroupSize: DEFAULT_WORKGROUP_SIZE,
        bytes: BYTES.stepWithoutAccelerationLane,
        memoryBytes: particles * BYTES_PER_PARTICLE,
        note:
          "the default step with gravity from the registry (fused in) and every particle's own acceleration +0: " +
          'the step reads neither the acceleration|radius lane nor the accumulator',
      },
      DEFAULT_VARIANT,
      async (system) => {
        system.forces.add({ type: 'gravity', g: [...BENCH_ACCELERATION] });
        await underRegistryGravity(system, registryGravityName);
      },
    ),
  );
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
      const system = await openSystem(DEFAULT_VARIANT);
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
      const system = await openSystem(DEFAULT_VARIANT);
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
      const system = await openSystem(DEFAULT_VARIANT, addTypicalEffect);
      return {
        run: (units) =>
          timer.time((encoder) => {
            for (let u = 0; u < units; u++) system.encodeForces(encoder, dt);
          }, 'forces-typical'),
        close: () => system.destroy(),
      };
    },
  });
  cases.push(
    steppedCase(
      {
        name: 'collisions-plane',
        group: 'collisions',
        variant: DEFAULT_VARIANT,
        layout: PACKED,
        workgroupSize: DEFAULT_WORKGROUP_SIZE,
        bytes: BYTES.stepPlane,
        memoryBytes: particles * BYTES_PER_PARTICLE,
        note:
          'a step with one plane collider (y = 0, under about half the particles), fused into the step ' +
          '(integrate.wgsl + fusedColliders.wgsl), no particle-particle contacts (radius 0)',
      },
      DEFAULT_VARIANT,
      (system) => system.setColliders([BENCH_PLANE]),
    ),
  );
  cases.push(
    steppedCase(
      {
        name: 'collisions-plane-typical',
        group: 'collisions',
        variant: DEFAULT_VARIANT,
        layout: PACKED,
        workgroupSize: DEFAULT_WORKGROUP_SIZE,
        bytes: BYTES.stepPlaneWithoutAccelerationLane,
        memoryBytes: particles * BYTES_PER_PARTICLE,
        note:
          "a spark shower's step: gravity (the registry's) and drag fused into the step with the plane " +
          '(collisions-plane), one dispatch a step; every acceleration and radius +0, so the step skips their lane',
      },
      DEFAULT_VARIANT,
      async (system) => {
        for (const generator of SHOWER_FORCES) system.forces.add(generator);
        await system.setColliders([BENCH_PLANE]);
        await underRegistryGravity(system, 'collisions-plane-typical');
      },
    ),
  );
  cases.push(
    steppedCase(
      {
        name: 'step-with-typical-forces',
        group: 'force',
        variant: null,
        layout: PACKED,
        workgroupSize: DEFAULT_WORKGROUP_SIZE,
        // Fused: the step's own loads and stores, the forces computed in between.
        bytes: BYTES.step,
        memoryBytes: particles * BYTES_PER_PARTICLE,
        note: 'the default step with the typical effect fused into it (integrateForces.wgsl): one dispatch a step',
      },
      DEFAULT_VARIANT,
      addTypicalEffect,
    ),
  );
  for (const pool of BENCH_POOLS) cases.push(emitterCase(device, timer, dt, particles, pool));
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
 * first step, into slots in shuffled order (the slots it holds, or with
 * `spread` any slot of the pool), its counters read back after FILL_STEPS steps, right before
 * the timed runs, and after them. A particle-step is a live particle's: the
 * rate counts the live particles (the mean of the two readbacks), and the
 * bytes are a whole frame's (LIFECYCLE_BYTES in src/bench/roofline.ts) over
 * that live count, with the births and deaths a step the counters saw
 * during the timed runs. `fountain`: with gravity, drag and a ground plane
 * fused into the step (src/bench/emitters.ts FOUNTAIN_PLANE), checked in the
 * system's step passes, and the collision events' bytes counted.
 */
function emitterCase(
  device: GPUDevice,
  timer: GpuTimer,
  dt: number,
  particles: number,
  { name, fraction, spread, fountain }: BenchPool,
): CaseSpec {
  const targetLive = liveTarget(particles, fraction);
  const slots = spread ? particles : targetLive;
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
    // A fountain's events are not known before it runs: counted from its counters after.
    bytes: lifecycleBytes(targetLive, expectedDeaths, expectedDeaths, fountain ? 0 : null),
    particleStep: 'live particle',
    // Particles 64, life 32, two live lists 8, free list 4, the deaths' and events' bits and indices about 4.25,
    // the words' sums and their scan about 1 (bytes a slot, rounded up).
    memoryBytes: particles * (BYTES_PER_PARTICLE + BYTES_PER_LIFE + 18),
    note:
      `an emitter of ${rate.toFixed(0)} particles/s living ${CHURN_LIFETIME.join('-')} s, started at its ` +
      `steady state by bursts into shuffled slots (${spread ? 'any of the pool' : `the lowest ${slots}`}), ` +
      `${steps + WARM_UP_RUNS} steps before timing; ` +
      'a frame: the step over every slot, age, scan, compact, planEmit, fill, emit (direct dispatches over fixed bounds)' +
      (fountain
        ? `; a fountain: ${SHOWER_FORCES.map((f) => f.type).join(' and ')} from the registry and a plane ` +
          `(y = ${FOUNTAIN_PLANE.offset}, restitution ${FOUNTAIN_PLANE.restitution}) fused into the step`
        : ''),
    open: async () => {
      const pool = { capacity: particles, fraction, spread, fountain, dt, steps, variant: DEFAULT_VARIANT };
      const system = await openChurningPool(device, pool);
      let before: LifecycleStats | null = null;
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
            bytes: lifecycleBytes(live, counts.births, counts.deaths, fountain ? counts.hits : null),
            lifecycle: {
              capacity: particles,
              targetFraction: fraction,
              targetLive,
              liveSpreadOverPool: spread,
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
              ...(fountain
                ? {
                    fountain: {
                      forces: system.forces.handles.map((handle) => handle.generator.type),
                      colliders: [FOUNTAIN_PLANE.type],
                      stepPasses: system.stepPasses,
                      hitsPerStep: counts.hits,
                    },
                  }
                : {}),
            },
          };
        },
        close: () => system.destroy(),
      };
    },
  };
}
