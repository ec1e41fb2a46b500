/** Seeded test scenes: mixed masses (immovable ones too), dampings and forces. */
import type { EmitterInit } from '../../src/core/emitters/types';
import type { ParticleInit } from '../../src/core/particles';
import { seededRandom } from './random';

export interface TestScene {
  particles: ParticleInit[];
  /** A force for every particle, xyz, added once before the first step. */
  forces: Float32Array;
}

export function mixedScene(count: number, seed: number): TestScene {
  const random = seededRandom(seed);
  const spread = (scale: number) => [0, 1, 2].map(() => (random() * 2 - 1) * scale);
  const particles: ParticleInit[] = [];
  for (let i = 0; i < count; i++) {
    const particle: ParticleInit = {
      position: spread(10),
      velocity: spread(5),
      acceleration: [0, -9.81, 0].map((g) => g + (random() * 2 - 1)),
      // Edge dampings 0 and 1 and a spread in between, some near Cyclone's 0.995.
      damping: [0, 1, 0.995, 0.5, 0.05][i % 5] ?? 1,
    };
    if (i % 7 === 3)
      particle.inverseMass = 0; // immovable
    else if (i % 3 === 0) particle.inverseMass = random() * 4;
    else particle.mass = 0.1 + random() * 10;
    if (i % 5 >= 3) particle.damping = random();
    particles.push(particle);
  }
  const forces = Float32Array.from({ length: count * 3 }, () => (random() * 2 - 1) * 20);
  return { particles, forces };
}

/** The emitter issue's example: 1,000 a second in a unit sphere, living 1 to 2 s, upward at 2 to 4 m/s. */
export const EXAMPLE_EMITTER: EmitterInit = {
  rate: 1000,
  burst: 0,
  lifetime: [1, 2],
  shape: { type: 'sphere', center: [0, 0, 0], radius: 1 },
  velocity: { direction: [0, 1, 0], spread: 0.3, speed: [2, 4] },
  seed: 7,
};
