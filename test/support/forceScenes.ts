/** Force generators and runs shared by the force tests. */
import { expect } from 'vitest';
import type { ParticleSystemApi } from '../../src/core/api';
import { CpuParticleSystem } from '../../src/core/cpuParticleSystem';
import type { ForceGenerator, ForceTarget, SpringLink } from '../../src/core/forces/generators';
import type { ParticleInit } from '../../src/core/particles';
import type { Variant } from '../../src/core/variants';
import { ParticleSystem } from '../../src/gpu/particleSystem';
import { StepErrorBound, compareWithBound } from './errorBound';
import { accumulators, forceBound } from './forceBound';
import { seededRandom } from './random';
import { mixedScene } from './scenes';

/**
 * One of each generator, sized for test/support/scenes.ts's mixedScene
 * (positions within ±10, speeds within ±5, inverse masses up to 4): forces
 * of order 1 to 100, and state dependence mild enough that the carried bound,
 * which grows by about (1 + sqrt(inverseMass * Lipschitz) dt) a step, stays
 * far below the motion over the steps the tests run.
 */
export const GENERATORS: Record<ForceGenerator['type'], ForceGenerator> = {
  gravity: { type: 'gravity', g: [0, -9.81, 0.5] },
  drag: { type: 'drag', k1: 0.3, k2: 0.05 },
  anchoredSpring: { type: 'anchoredSpring', anchor: [1, 2, -1], restLength: 4, stiffness: 2 },
  anchoredBungee: { type: 'anchoredBungee', anchor: [-2, 0, 1], restLength: 9, stiffness: 2 },
  buoyancy: { type: 'buoyancy', maxDepth: 2, volume: 0.002, waterHeight: 1 },
  stiffSpring: { type: 'stiffSpring', anchor: [0, 1, 0], stiffness: 10, damping: 2 },
  attractor: { type: 'attractor', position: [0.5, -1, 2], strength: 40, softening: 1 },
  vortex: { type: 'vortex', position: [0, 0, 0], axis: [0.2, 1, 0.1], strength: 15, softening: 1 },
  wind: { type: 'wind', force: [3, 0, -1.5] },
  turbulence: { type: 'turbulence', strength: 0.6, frequency: 0.3, seed: 1234, offset: [0.25, 0, 0.5] },
};

/**
 * test/support/scenes.ts's mixedScene with masses 1 to 4 (immovable ones kept):
 * how fast the carried bound grows with state-dependent forces goes with
 * sqrt(inverseMass), and mixedScene's masses reach down to 0.1.
 */
export function forceScene(count: number, seed: number): ParticleInit[] {
  return mixedScene(count, seed).particles.map((particle, i) => {
    if (particle.inverseMass === 0) return particle;
    const { mass: _mass, inverseMass: _inverseMass, ...rest } = particle;
    return { ...rest, mass: 1 + (i % 4) };
  });
}

/** Springs and bungees over `count` particles: a chain, plus random cross links. */
export function springNetwork(count: number, seed: number, links = count): SpringLink[] {
  const random = seededRandom(seed);
  const out: SpringLink[] = [];
  for (let k = 0; k < links; k++) {
    const a = k % count;
    let b = Math.floor(random() * count);
    if (b === a) b = (a + 1) % count;
    out.push({
      a,
      b,
      restLength: 3 + 6 * random(),
      stiffness: 0.2 + 0.4 * random(),
      kind: k % 4 === 3 ? 'bungee' : 'spring',
    });
  }
  return out;
}

/** The first index where two arrays differ (+0 and -0 equal), described, or null. */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): string | null {
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `[${i}]: ${a[i]} vs ${b[i]}`;
  return null;
}

export type Setup = (system: ParticleSystemApi) => void;

export function register(generators: readonly (ForceGenerator | [ForceGenerator, ForceTarget])[]): Setup {
  return (system) => {
    for (const entry of generators) {
      if (Array.isArray(entry)) system.forces.add(entry[0], entry[1]);
      else system.forces.add(entry);
    }
  };
}

/**
 * The same scene and forces on both backends; the GPU steps in batches (one
 * submission per checkpoint), the reference one step at a time with the
 * bound carried: forces bounded by test/support/forceBound.ts (and checked bit
 * for bit against the reference's own accumulators), then the step's bound of
 * test/support/errorBound.ts with that force error added.
 */
export async function runAgainstReference(
  device: GPUDevice,
  options: {
    particles: readonly ParticleInit[];
    setup: Setup;
    variant: Variant;
    dt: number;
    checkpoints: readonly number[];
    context: string;
    /** For the meta-test: set up the GPU differently from the reference. */
    gpuSetup?: Setup;
    /** The GPU system's `fuseForces` (default: the system's default, fused). */
    fuseForces?: boolean;
  },
): Promise<{ bound: StepErrorBound; failure: string | null }> {
  const count = options.particles.length;
  const system = await ParticleSystem.create(device, {
    capacity: count,
    ...options.variant,
    ...(options.fuseForces === undefined ? {} : { fuseForces: options.fuseForces }),
  });
  const reference = new CpuParticleSystem({ capacity: count, ...options.variant });
  try {
    await system.writeParticles(0, options.particles);
    reference.writeParticles(0, options.particles);
    (options.gpuSetup ?? options.setup)(system);
    options.setup(reference);
    const bound = new StepErrorBound(count, options.variant);
    const dt = Math.fround(options.dt);
    let done = 0;
    for (const target of options.checkpoints) {
      await system.stepMany(options.dt, target - done);
      for (; done < target; done++) {
        const forces = forceBound(
          reference.state,
          count,
          reference.forces,
          reference.springs,
          dt,
          bound.position,
          bound.velocity,
        );
        reference.accumulateForces(options.dt);
        // The tracked run must have computed exactly what the reference did.
        expect(
          firstDifference(forces.value, accumulators(reference.state, count)),
          `${options.context}: step ${done + 1}`,
        ).toBe(null);
        bound.advance(reference.state, dt, forces.error);
        reference.integrateOnly(options.dt);
      }
      const failure = compareWithBound(await system.readPacked(), await reference.readPacked(), bound, options.context);
      if (failure) return { bound, failure };
    }
    return { bound, failure: null };
  } finally {
    system.destroy();
  }
}
