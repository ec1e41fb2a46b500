/**
 * Forces in scene files and the simulate CLI: the example scene on both
 * backends within the carried bound, the scene's forces as the systems take
 * them, and every malformed force refused with its JSON path.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { SparkworksInputError } from '../src/core/errors';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { parseScene, sceneToForces, sceneToParticles } from '../src/scene/scene';
import { StepErrorBound } from './support/errorBound';
import { forceBound } from './support/forceBound';
import { scenePath, simulateOnBoth } from './support/cli';
import { useAcquiredDevices } from './support/gpu';

// The CLI acquires its own devices: each is checked for uncaptured GPU errors after every test.
vi.mock('../src/node/device', async (original) =>
  (await import('./support/acquired')).watchingAcquisitions(await original()),
);
useAcquiredDevices();

const FORCES = scenePath('forces.json');

describe('simulate: public/scenes/forces.json', () => {
  it('GPU and CPU agree within the carried float32 bound after 50 steps', async () => {
    const steps = 50;
    const dt = 0.01;
    const { gpu, cpu } = await simulateOnBoth(['--scene', FORCES, '--steps', String(steps), '--dt', String(dt)]);
    const scene = parseScene(await readFile(FORCES, 'utf8'), FORCES);
    const particles = sceneToParticles(scene);
    const { generators, links } = sceneToForces(scene);
    const reference = new CpuParticleSystem({ capacity: particles.length });
    reference.writeParticles(0, particles);
    for (const { generator, target } of generators) reference.forces.add(generator, target);
    reference.springs.setLinks(links);
    // The bound of test/forces.test.ts: forces tracked op by op, then the step's bound.
    const bound = new StepErrorBound(particles.length, reference.variant);
    for (let s = 0; s < steps; s++) {
      const forces = forceBound(
        reference.state,
        particles.length,
        reference.forces,
        reference.springs,
        Math.fround(dt),
        bound.position,
        bound.velocity,
      );
      reference.accumulateForces(dt);
      bound.advance(reference.state, Math.fround(dt), forces.error);
      reference.integrateOnly(dt);
    }
    const state = await reference.read();
    particles.forEach((_, i) => {
      for (let c = 0; c < 3; c++) {
        const j = 3 * i + c;
        expect(cpu.particles[i]!.position[c], `cpu particle ${i}`).toBe(state.position[j]);
        expect(
          Math.abs(gpu.particles[i]!.position[c]! - state.position[j]!),
          `gpu particle ${i} axis ${c}`,
        ).toBeLessThanOrEqual(bound.position[j]!);
        expect(
          Math.abs(gpu.particles[i]!.velocity[c]! - state.velocity[j]!),
          `gpu particle ${i} axis ${c}`,
        ).toBeLessThanOrEqual(bound.velocity[j]!);
      }
    });
    // Not a tolerance: the bound stays far below the motion, so the comparison means something.
    expect(Math.max(...bound.position)).toBeLessThan(1e-2);
  });

  it('the scene gives the systems its generators, targets and springs', async () => {
    const scene = parseScene(await readFile(FORCES, 'utf8'), FORCES);
    const { generators, links } = sceneToForces(scene);
    expect(generators.map((g) => g.generator.type)).toEqual([
      'gravity',
      'drag',
      'buoyancy',
      'attractor',
      'wind',
      'turbulence',
    ]);
    expect(generators.map((g) => g.target)).toEqual([
      'all',
      'all',
      { indices: [6] },
      { start: 7, count: 3 },
      { indices: [7, 8, 9] },
      { start: 7, count: 3 },
    ]);
    expect(generators[2]!.generator).toMatchObject({ liquidDensity: 1000, gravity: 9.81 }); // defaults filled in
    expect(links).toEqual([
      { a: 0, b: 1, restLength: 1.2, stiffness: 20, kind: 'spring' },
      { a: 1, b: 2, restLength: 1.2, stiffness: 20, kind: 'spring' },
      { a: 2, b: 3, restLength: 1.2, stiffness: 20, kind: 'spring' },
      { a: 3, b: 4, restLength: 1.2, stiffness: 20, kind: 'spring' },
      { a: 4, b: 5, restLength: 1.5, stiffness: 40, kind: 'bungee' },
    ]);
  });
});

describe('simulate: malformed forces', () => {
  const particles =
    '[{"position": [0, 0, 0]}, {"position": [1, 0, 0]}, {"position": [2, 0, 0]}, {"position": [3, 0, 0]}]';
  const refused = (forces: string) => () =>
    parseScene(`{"particles": ${particles}, "forces": ${forces}}`, 'scene.json');

  it.each([
    ['not an array', '{"type": "gravity"}', /\$\.forces: must be an array of forces/],
    ['not an object', '[3]', /\$\.forces\[0\]: must be an object/],
    [
      'an unknown type',
      '[{"type": "magnet"}]',
      /\$\.forces\[0\]\.type: must be one of gravity, drag, .*; got "magnet"$/,
    ],
    ['a missing vector', '[{"type": "gravity"}]', /\$\.forces\[0\]\.g: must be finite as a float32 .*; got nothing$/],
    [
      'a bad vector entry',
      '[{"type": "gravity", "g": [0, "a", 0]}]',
      /\$\.forces\[0\]\.g\[1\]: must be finite as a float32.*; got "a"$/,
    ],
    [
      'a negative stiffness',
      '[{"type": "drag", "k1": 0, "k2": 0}, {"type": "anchoredSpring", "anchor": [0, 0, 0], "restLength": 1, "stiffness": -1}]',
      /\$\.forces\[1\]\.stiffness: must be finite and >= 0; got -1$/,
    ],
    [
      'an unknown field',
      '[{"type": "drag", "k1": 0, "k2": 0, "k3": 1}]',
      /\$\.forces\[0\]\.k3: unknown drag field \(known: k1, k2\); got 1$/,
    ],
    [
      'a spring end out of range',
      '[{"type": "spring", "a": 0, "b": 4, "restLength": 1, "stiffness": 1}]',
      /\$\.forces\[0\]\.b: must be an integer in \[0, 3\] \(the capacity is 4\); got 4$/,
    ],
    [
      'a spring joining a particle to itself',
      '[{"type": "bungee", "a": 2, "b": 2, "restLength": 1, "stiffness": 1}]',
      /\$\.forces\[0\]\.b: joins particle 2 to itself .*; got 2$/,
    ],
    [
      'a spring field that does not exist',
      '[{"type": "spring", "a": 0, "b": 1, "restLength": 1, "stiffness": 1, "kind": "bungee"}]',
      /\$\.forces\[0\]\.kind: unknown spring field \(known: a, b, restLength, stiffness\)/,
    ],
    [
      'a target particle out of range',
      '[{"type": "wind", "force": [1, 0, 0], "particle": 9}]',
      /\$\.forces\[0\]\.particle: must be an integer in \[0, 3\].*; got 9$/,
    ],
    [
      'a target list entry out of range',
      '[{"type": "wind", "force": [1, 0, 0], "particles": [0, -1]}]',
      /\$\.forces\[0\]\.particles\[1\]: must be an integer in \[0, 3\].*; got -1$/,
    ],
    [
      'a target range too long',
      '[{"type": "wind", "force": [1, 0, 0], "range": {"start": 2, "count": 3}}]',
      /\$\.forces\[0\]\.range\.count: must be an integer >= 1 with start \+ count <= 4.*; got 3$/,
    ],
    [
      'two targets',
      '[{"type": "wind", "force": [1, 0, 0], "particle": 1, "range": {"start": 0, "count": 2}}]',
      /\$\.forces\[0\]\.range: give one of particle, particles, range/,
    ],
    [
      'NaN as a string',
      '[{"type": "turbulence", "strength": "NaN", "frequency": 1, "seed": 1}]',
      /\$\.forces\[0\]\.strength: must be finite .*; got "NaN"$/,
    ],
  ])('refuses %s, naming the JSON path and the value', (_, forces, message) => {
    expect(refused(forces)).toThrow(SparkworksInputError);
    expect(refused(forces)).toThrow(message);
  });
});
