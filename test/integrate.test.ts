/**
 * The GPU step against the CPU reference, every variant, with the float32
 * error bound of test/support/errorBound.ts (its derivation is written there).
 */
import { describe, expect, it } from 'vitest';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { ALL_VARIANTS, variantName, type Variant } from '../src/core/variants';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { StepErrorBound, compareWithBound } from './support/errorBound';
import { useDevice } from './support/gpu';
import { mixedScene } from './support/scenes';
import { LARGE } from './support/tiers';

const gpu = useDevice();
const DT = 1 / 60;

/**
 * Runs the same scene on both backends: forces added once, then `checkpoints`
 * (cumulative step counts) each reached with one batched GPU submission; the
 * GPU state must stay within the carried bound at every checkpoint.
 */
async function runBoth(
  variant: Variant,
  count: number,
  checkpoints: number[],
  options: { seed?: number; workgroupSize?: number } = {},
): Promise<void> {
  const { device } = gpu.get();
  const scene = mixedScene(count, options.seed ?? count);
  const system = await ParticleSystem.create(device, {
    capacity: count,
    ...variant,
    workgroupSize: options.workgroupSize,
  });
  const reference = new CpuParticleSystem({ capacity: count, ...variant });
  try {
    for (const backend of [system, reference]) {
      await backend.writeParticles(0, scene.particles);
      await backend.addForces(0, scene.forces);
    }
    const bound = new StepErrorBound(count, variant);
    let done = 0;
    for (const target of checkpoints) {
      await system.stepMany(DT, target - done);
      for (; done < target; done++) {
        bound.advance(reference.state, Math.fround(DT));
        reference.step(DT);
      }
      const failure = compareWithBound(
        await system.readPacked(),
        await reference.readPacked(),
        bound,
        `${variantName(variant)}, ${count} particles`,
      );
      expect(failure).toBeNull();
    }
  } finally {
    system.destroy();
  }
}

describe.each(ALL_VARIANTS.map((v) => [variantName(v), v] as const))(
  'GPU step matches the CPU reference: %s',
  (_, variant) => {
    it.each([1, 63, 64, 65, 1000])('%i particles after 1 and 1,000 steps', async (count) => {
      await runBoth(variant, count, [1, 1000]);
    });
  },
);

describe('size', () => {
  // What 2^20 particles (64 MiB of state, 16,384 workgroups) proves is that every slot of a large buffer is
  // stepped, and stepped alike: the dispatch and the addressing, which no variant changes (a variant is the
  // step's arithmetic, checked above at every count for 1,000 steps). One variant, the one with the most
  // arithmetic: semi-implicit with per-second damping (pow).
  it('1,048,576 particles after 3 steps (semi-implicit/per-second)', LARGE, async () => {
    await runBoth({ integrator: 'semi-implicit', damping: 'per-second' }, 1 << 20, [1, 3]);
  });
});

describe('dispatch', () => {
  it('covers every particle exactly once with a 2D grid past 65,535 workgroups', async () => {
    // Workgroup size 1 makes 70,000 particles need 70,000 workgroups: a 65,535 x 2 grid.
    // A particle stepped twice or not at all would be far outside the bound.
    await runBoth({ integrator: 'explicit', damping: 'per-step' }, 70_000, [2], { workgroupSize: 1 });
  });

  it('the bound is tight enough to tell the integration orders apart', async () => {
    // Meta-check of the tolerance: the GPU running semi-implicit must fail
    // against the explicit reference, or the bound would hide the variant.
    const { device } = gpu.get();
    const count = 65;
    const scene = mixedScene(count, 5);
    const system = await ParticleSystem.create(device, {
      capacity: count,
      integrator: 'semi-implicit',
      damping: 'off',
    });
    const explicit: Variant = { integrator: 'explicit', damping: 'off' };
    const reference = new CpuParticleSystem({ capacity: count, ...explicit });
    await system.writeParticles(0, scene.particles);
    reference.writeParticles(0, scene.particles);
    const bound = new StepErrorBound(count, explicit);
    bound.advance(reference.state, Math.fround(DT));
    reference.step(DT);
    await system.step(DT);
    expect(compareWithBound(await system.readPacked(), await reference.readPacked(), bound, 'swapped')).toMatch(
      /position\[[xyz]\] after step 1/,
    );
    system.destroy();
  });
});
