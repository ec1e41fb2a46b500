/**
 * The force passes on the GPU against the CPU reference (src/core/forces):
 * every generator alone over many steps, all of them together with pair
 * springs and every kind of target in every variant, one accumulation on its
 * own, and the machinery: parameters updated every frame without a new
 * pipeline, no dispatch when nothing is registered, determinism.
 *
 * Tolerances: test/support/forceBound.ts derives, operation by operation
 * from WGSL's accuracy rules, how far each GPU force may be from the
 * reference's, with the carried position and velocity bounds as input errors;
 * test/support/errorBound.ts carries that through the step. Nothing is tuned.
 */
import { describe, expect, it } from 'vitest';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import type { ForceGenerator } from '../src/core/forces/generators';
import { ALL_VARIANTS, variantName, type Variant } from '../src/core/variants';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { accumulators, compareForces, forceBound } from './support/forceBound';
import {
  GENERATORS,
  firstDifference,
  forceScene,
  register,
  runAgainstReference,
  springNetwork,
} from './support/forceScenes';
import { useDevice } from './support/gpu';
import { mixedScene } from './support/scenes';

const DT = 1 / 60;
const EXPLICIT: Variant = { integrator: 'explicit', damping: 'per-second' };
const gpu = useDevice();

/**
 * One accumulateForces on both backends: the GPU's accumulators must be the
 * reference's within forceBound's bound, returned for further checks.
 */
async function accumulateBoth(system: ParticleSystem, reference: CpuParticleSystem, count: number, what: string) {
  const bound = forceBound(reference.state, count, reference.forces, reference.springs, DT);
  await system.accumulateForces(DT);
  reference.accumulateForces(DT);
  const failure = compareForces(
    accumulators(await system.readPacked(), count),
    accumulators(reference.state, count),
    bound.error,
    what,
  );
  expect(failure).toBeNull();
  return bound;
}

// Field forces alone run fused into the step by default (shaders/forces/integrateForces.wgsl);
// `fuseForces: false` runs them as a pass of their own first. Both must match.
describe.each([
  ['fused into the step', true],
  ['as a pass of their own', false],
] as const)('each generator on the GPU matches the CPU reference, %s', (_, fuseForces) => {
  it.each(Object.entries(GENERATORS))('%s: 300 particles over 1, 10 and 120 steps', async (type, generator) => {
    const { failure } = await runAgainstReference(gpu.get().device, {
      particles: forceScene(300, 17),
      setup: register([generator]),
      variant: EXPLICIT,
      dt: DT,
      checkpoints: [1, 10, 120],
      context: type,
      fuseForces,
    });
    expect(failure).toBeNull();
  });
});

describe('pair springs on the GPU match the CPU reference', () => {
  it('pair springs and bungees: 300 particles, 400 links, over 1, 10 and 120 steps', async () => {
    const links = springNetwork(300, 5, 400);
    const { failure } = await runAgainstReference(gpu.get().device, {
      particles: forceScene(300, 23),
      setup: (s) => s.springs.setLinks(links),
      variant: EXPLICIT,
      dt: DT,
      checkpoints: [1, 10, 120],
      context: 'springs',
    });
    expect(failure).toBeNull();
  });
});

describe.each(ALL_VARIANTS.map((v) => [variantName(v), v] as const))('every generator at once: %s', (_, variant) => {
  // With pair springs the field forces run as their own pass (the springs' forces add after
  // theirs); without, they run fused into the step. Both cover every target mode.
  it.each([
    ['with pair springs', true],
    ['fused, without pair springs', false],
  ] as const)('ranges, index lists and all particles, %s, over 1 and 30 steps', async (_, withSprings) => {
    const count = 257;
    const all = Object.values(GENERATORS);
    const setup = (s: Parameters<ReturnType<typeof register>>[0]) => {
      all.forEach((generator, k) => {
        // Every third generator on a range, every third on an index list, the rest on everything.
        if (k % 3 === 1) s.forces.add(generator, { start: 10 * k, count: 150 });
        else if (k % 3 === 2) s.forces.add(generator, { indices: [0, 3, 64, 65, 100 + k, 200, 256] });
        else s.forces.add(generator);
      });
      if (withSprings) s.springs.setLinks(springNetwork(count, 9, 300));
    };
    const { failure } = await runAgainstReference(gpu.get().device, {
      particles: forceScene(count, 31),
      setup,
      variant,
      dt: DT,
      checkpoints: [1, 30],
      context: `all generators, ${variantName(variant)}, ${withSprings ? 'with springs' : 'fused'}`,
    });
    expect(failure).toBeNull();
  });
});

describe('dispatch', () => {
  it('the force passes cover every particle once with a 2D grid past 65,535 workgroups', async () => {
    // Workgroup size 1: 70,000 particles need a 65,535 x 2 grid of workgroups; a particle
    // whose forces ran twice or not at all would be far outside the bound.
    const count = 70_000;
    const { device } = gpu.get();
    const particles = forceScene(count, 51);
    const system = await ParticleSystem.create(device, { capacity: count, workgroupSize: 1 });
    const reference = new CpuParticleSystem({ capacity: count });
    const setup = (s: ParticleSystem | CpuParticleSystem) => {
      for (const type of ['gravity', 'drag', 'attractor', 'turbulence'] as const) s.forces.add(GENERATORS[type]);
      s.springs.setLinks(springNetwork(count, 6, count));
    };
    for (const s of [system, reference]) {
      await s.writeParticles(0, particles);
      setup(s);
    }
    await accumulateBoth(system, reference, count, '2D dispatch');
    system.destroy();
  });
});

describe('one accumulation', () => {
  it('the accumulators after accumulateForces are within the single-evaluation bound', async () => {
    const count = 1000;
    const scene = mixedScene(count, 41);
    const system = await ParticleSystem.create(gpu.get().device, { capacity: count });
    const reference = new CpuParticleSystem({ capacity: count });
    const setup = (s: ParticleSystem | CpuParticleSystem) => {
      for (const generator of Object.values(GENERATORS)) s.forces.add(generator);
      s.springs.setLinks(springNetwork(count, 2, 1500));
    };
    for (const s of [system, reference]) {
      await s.writeParticles(0, scene.particles);
      await s.addForces(0, scene.forces);
      setup(s);
    }
    const bound = await accumulateBoth(system, reference, count, 'one accumulation');
    expect(firstDifference(bound.value, accumulators(reference.state, count))).toBeNull();
    system.destroy();
  });

  it('the bound is tight enough to see a spring 0.1% stiffer', async () => {
    // Meta-check of the tolerance: the same run with the GPU's anchored spring
    // 0.1% stiffer must fail against the reference.
    const spring = GENERATORS.anchoredSpring as Extract<ForceGenerator, { type: 'anchoredSpring' }>;
    const { failure } = await runAgainstReference(gpu.get().device, {
      particles: forceScene(100, 3),
      setup: register([spring]),
      gpuSetup: register([{ ...spring, stiffness: spring.stiffness * 1.001 }]),
      variant: EXPLICIT,
      dt: DT,
      checkpoints: [1, 10, 120],
      context: 'stiffer',
    });
    expect(failure).toMatch(/velocity\[[xyz]\]|position\[[xyz]\]/);
  });
});

describe('targets', () => {
  it('a generator reaches exactly the particles of its range or list, and no immovable one', async () => {
    const count = 130;
    const scene = mixedScene(count, 8);
    const list = [2, 31, 32, 33, 64, 95, 96, 129];
    for (const backend of ['gpu', 'cpu'] as const) {
      const system =
        backend === 'gpu'
          ? await ParticleSystem.create(gpu.get().device, { capacity: count })
          : new CpuParticleSystem({ capacity: count });
      await system.writeParticles(0, scene.particles);
      system.forces.add({ type: 'wind', force: [1, 0, 0] }, { start: 40, count: 20 });
      system.forces.add({ type: 'wind', force: [0, 1, 0] }, { indices: list });
      await system.accumulateForces(DT);
      const forces = accumulators(await system.readPacked(), count);
      for (let i = 0; i < count; i++) {
        const movable = scene.particles[i]!.inverseMass !== 0;
        const expected = [movable && i >= 40 && i < 60 ? 1 : 0, movable && list.includes(i) ? 1 : 0, 0];
        expect(Array.from(forces.subarray(3 * i, 3 * i + 3)), `${backend} particle ${i}`).toEqual(expected);
      }
      system.destroy();
    }
  });
});

describe('the machinery', () => {
  it('updating parameters every frame creates no pipeline, and follows the reference', async () => {
    const { device } = gpu.get();
    const count = 200;
    const scene = mixedScene(count, 12);
    const system = await ParticleSystem.create(device, { capacity: count });
    const reference = new CpuParticleSystem({ capacity: count });
    const handles = [system, reference].map((s) => {
      s.writeParticles(0, scene.particles);
      return [s.forces.add(GENERATORS.attractor), s.forces.add(GENERATORS.turbulence)] as const;
    });
    await system.writeParticles(0, scene.particles);
    await system.step(DT); // compiles the pipeline for this composition
    reference.step(DT);
    const created = { count: 0 };
    const original = device.createComputePipeline.bind(device);
    device.createComputePipeline = (descriptor) => {
      created.count++;
      return original(descriptor);
    };
    try {
      for (let frame = 1; frame <= 20; frame++) {
        for (const [attractor, turbulence] of handles) {
          attractor.update({ position: [Math.sin(frame), 1, Math.cos(frame)], strength: 40 + frame });
          turbulence.update({ offset: [0, 0.1 * frame, 0] });
        }
        await system.step(DT);
        reference.step(DT);
      }
    } finally {
      device.createComputePipeline = original;
    }
    expect(created.count).toBe(0);
    // Loose here on purpose: this checks the updates arrive, the bounds are checked above.
    const got = await system.read();
    const want = await reference.read();
    for (let j = 0; j < got.position.length; j++) {
      expect(Math.abs(got.position[j]! - want.position[j]!)).toBeLessThan(1e-3 * (1 + Math.abs(want.position[j]!)));
    }
    system.destroy();
  });

  it('refuses a fuseForces that is not a boolean, naming it', async () => {
    const options = { capacity: 4, fuseForces: 'yes' as unknown as boolean };
    await expect(ParticleSystem.create(gpu.get().device, options)).rejects.toThrow(
      /fuseForces = yes must be true or false/,
    );
  });

  it('records no force dispatch when nothing is registered, one a step per kind otherwise', async () => {
    const { device } = gpu.get();
    const system = await ParticleSystem.create(device, { capacity: 100 });
    const count = async () => {
      const encoder = device.createCommandEncoder();
      let passes = 0;
      let dispatches = 0;
      const begin = encoder.beginComputePass.bind(encoder);
      encoder.beginComputePass = (descriptor) => {
        passes++;
        const pass = begin(descriptor);
        const dispatch = pass.dispatchWorkgroups.bind(pass);
        pass.dispatchWorkgroups = (...args: Parameters<GPUComputePassEncoder['dispatchWorkgroups']>) => {
          dispatches++;
          dispatch(...args);
        };
        return pass;
      };
      system.encodeSteps(encoder, DT, 5);
      device.queue.submit([encoder.finish()]);
      await device.queue.onSubmittedWorkDone();
      return { passes, dispatches };
    };
    expect(await count()).toEqual({ passes: 1, dispatches: 5 });
    const gravity = system.forces.add(GENERATORS.gravity);
    // Field forces alone: fused into the step, still one dispatch a step.
    expect(await count()).toEqual({ passes: 1, dispatches: 5 });
    system.springs.setLinks([{ a: 0, b: 1, restLength: 1, stiffness: 1 }]);
    // With pair springs: the field forces, the springs, then the step.
    expect(await count()).toEqual({ passes: 1, dispatches: 15 });
    system.forces.remove(gravity);
    system.springs.setLinks([]);
    expect(await count()).toEqual({ passes: 1, dispatches: 5 });
    system.destroy();
  });

  it('gives the same bits every run (each particle gathers its own springs, no atomics)', async () => {
    const count = 500;
    const scene = mixedScene(count, 77);
    const runs: Float32Array[] = [];
    for (let run = 0; run < 2; run++) {
      const system = await ParticleSystem.create(gpu.get().device, { capacity: count });
      await system.writeParticles(0, scene.particles);
      register(Object.values(GENERATORS))(system);
      system.springs.setLinks(springNetwork(count, 4, 2000));
      await system.stepMany(DT, 50);
      runs.push(await system.readPacked());
      system.destroy();
    }
    expect(firstDifference(new Uint32Array(runs[0]!.buffer), new Uint32Array(runs[1]!.buffer))).toBeNull();
  });
});
