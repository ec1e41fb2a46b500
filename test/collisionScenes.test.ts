/**
 * Colliders, links and radii in scene files and the `simulate` CLI: the
 * example scenes run on both backends (the bouncing ball checked GPU against
 * CPU within the chained float32 bound, the bridge and the cradle by their
 * physics), and malformed collision input is refused with its JSON path.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { collide } from '../src/core/collisions/collide';
import { prepareColliders } from '../src/core/collisions/colliders';
import { SparkworksInputError } from '../src/core/errors';
import { integrate } from '../src/core/integrate';
import { FLOATS_PER_PARTICLE, attributeOffset } from '../src/core/layout';
import { packParticles } from '../src/core/particles';
import { DEFAULT_VARIANT } from '../src/core/variants';
import { main, runSimulate } from '../src/cli/simulate';
import { parseScene, sceneToCollisions, sceneToParticles } from '../src/scene/scene';
import { advanceThroughColliders } from './support/collisionBound';
import { capture, scenePath, simulateOnBoth, useTempDir } from './support/cli';
import { StepErrorBound } from './support/errorBound';
import { useAcquiredDevices } from './support/gpu';
import { LARGE } from './support/tiers';

// The CLI acquires its own devices: each is checked for uncaptured GPU errors after every test.
vi.mock('../src/node/device', async (original) =>
  (await import('./support/acquired')).watchingAcquisitions(await original()),
);
useAcquiredDevices();

const dir = useTempDir('sparkworks-collisions-');

describe('scene files: colliders, links and radii', () => {
  const particle = '{"position": [0, 1, 0]}';
  const scene = (extra: string, particles = `[${particle}, ${particle}]`) => `{"particles": ${particles}${extra}}`;
  it.each([
    [
      'a restitution of 2',
      scene(', "colliders": [{"type": "plane", "normal": [0, 1, 0], "restitution": 2}]'),
      /\$\.colliders\[0\]\.restitution: restitution must be in \[0, 1\].*; got 2$/,
    ],
    [
      'a plane with no normal',
      scene(', "colliders": [{"type": "plane"}]'),
      /\$\.colliders\[0\]\.normal: must be 3 numbers.*; got nothing$/,
    ],
    [
      'an unknown collider type',
      scene(', "colliders": [{"type": "torus"}]'),
      /\$\.colliders\[0\]\.type: must be one of .*; got "torus"$/,
    ],
    ['colliders not a list', scene(', "colliders": {"type": "plane"}'), /\$\.colliders: must be an array of colliders/],
    [
      'a link past the particles',
      scene(', "links": [{"type": "rod", "a": 0, "b": 2, "length": 1}]'),
      /\$\.links\[0\]\.b: must be a particle index, an integer in \[0, 1\].*; got 2$/,
    ],
    [
      'a cable of negative length',
      scene(', "links": [{"type": "cable", "a": 0, "anchor": [0, 2, 0], "maxLength": -1}]'),
      /\$\.links\[0\]\.maxLength: maxLength must be finite and > 0; got -1$/,
    ],
    ['a negative scene radius', scene(', "radius": -0.5'), /\$\.radius: radius must be finite and >= 0.*; got -0\.5$/],
    [
      'a particle radius as a string',
      scene('', '[{"position": [0, 0, 0], "radius": "big"}]'),
      /\$\.particles\[0\]\.radius: must be a finite number; got "big"$/,
    ],
    [
      'zero iterations',
      scene(', "collisions": {"iterations": 0}'),
      /\$\.collisions\.iterations: iterations must be an integer in \[1, 256\]; got 0$/,
    ],
    [
      'an unknown solver setting',
      scene(', "collisions": {"gravity": 1}'),
      /\$\.collisions\.gravity: unknown field.*; got 1$/,
    ],
    [
      'colliders inside collisions',
      scene(', "collisions": {"colliders": []}'),
      /\$\.collisions\.colliders: colliders go at the top level of the scene; got \[\]$/,
    ],
  ])('refuses %s, naming the JSON path and the value', (_, text, message) => {
    expect(() => parseScene(text, 'scene.json')).toThrow(SparkworksInputError);
    expect(() => parseScene(text, 'scene.json')).toThrow(message);
  });

  it('gives every particle the scene-wide radius unless it has its own, and passes colliders, links and settings on', () => {
    const parsed = parseScene(
      '{"radius": 0.1, "particles": [{"position": [0, 0, 0]}, {"position": [1, 0, 0], "radius": 0.3}],' +
        ' "colliders": [{"type": "plane", "normal": [0, 1, 0]}], "links": [{"type": "rod", "a": 0, "b": 1, "length": 1}],' +
        ' "collisions": {"iterations": 4, "particleCollisions": true}}',
      'scene.json',
    );
    expect(sceneToParticles(parsed).map((p) => p.radius)).toEqual([0.1, 0.3]);
    expect(sceneToCollisions(parsed)).toEqual({
      iterations: 4,
      particleCollisions: true,
      colliders: [{ type: 'plane', normal: [0, 1, 0] }],
      links: [{ type: 'rod', a: 0, b: 1, length: 1 }],
    });
    expect(sceneToCollisions(parseScene('{"particles": [{"position": [0, 0, 0]}]}', 's.json'))).toBeUndefined();
  });
});

describe('simulate: the example scenes', () => {
  it('bouncing-ball.json: GPU and CPU agree within the float32 bound chained through the colliders', async () => {
    const file = scenePath('bouncing-ball.json');
    const steps = 300;
    const dt = 0.01;
    const { gpu, cpu } = await simulateOnBoth(['--scene', file, '--steps', String(steps), '--dt', String(dt)]);

    // The twin, driven step by step with the bound carried through the step
    // (test/support/errorBound.ts) and the colliders (test/support/collisionBound.ts).
    const scene = parseScene(await readFile(file, 'utf8'), file);
    const particles = sceneToParticles(scene);
    const colliders = prepareColliders(sceneToCollisions(scene)!.colliders!);
    const params = { dt: Math.fround(dt), skin: Math.fround(1e-4) };
    const state = packParticles(particles);
    const bound = new StepErrorBound(particles.length, DEFAULT_VARIANT);
    for (let s = 0; s < steps; s++) {
      bound.advance(state, Math.fround(dt));
      integrate(state, particles.length, Math.fround(dt), DEFAULT_VARIANT, Math.fround);
      advanceThroughColliders(bound, state, colliders, params);
      collide(state, particles.length, colliders, params, Math.fround);
    }
    particles.forEach((_, i) => {
      const base = i * FLOATS_PER_PARTICLE;
      const twin = {
        position: Array.from(
          state.subarray(base + attributeOffset('position'), base + attributeOffset('position') + 3),
        ),
        velocity: Array.from(
          state.subarray(base + attributeOffset('velocity'), base + attributeOffset('velocity') + 3),
        ),
      };
      // The CPU backend is the twin, bit for bit.
      expect(cpu.particles[i]!.position).toEqual(twin.position);
      expect(cpu.particles[i]!.velocity).toEqual(twin.velocity);
      expect(gpu.particles[i]!.radius).toBe(0.25);
      for (let c = 0; c < 3; c++) {
        expect(Math.abs(gpu.particles[i]!.position[c]! - twin.position[c]!)).toBeLessThanOrEqual(
          bound.position[i * 3 + c]!,
        );
        expect(Math.abs(gpu.particles[i]!.velocity[c]! - twin.velocity[c]!)).toBeLessThanOrEqual(
          bound.velocity[i * 3 + c]!,
        );
      }
    });
    // Still bouncing after 3 s (restitution 0.7), above the ground and below its first apex.
    expect(gpu.particles[0]!.position[1]).toBeGreaterThanOrEqual(0.25);
    expect(gpu.particles[0]!.position[1]).toBeLessThan(0.25 + 0.49 * 4.75);
  });

  // 500 steps: a resolver that let the links stretch would let the bridge sink further every step.
  it('bridge.json: Cyclone’s bridge hangs from its cables on both backends, its links holding', LARGE, async () => {
    const file = scenePath('bridge.json');
    const dt = 0.01;
    const scene = parseScene(await readFile(file, 'utf8'), file);
    const links = sceneToCollisions(scene)!.links!;
    for (const cpu of [false, true]) {
      const flags = ['--scene', file, '--steps', '500', '--dt', String(dt), ...(cpu ? ['--cpu'] : [])];
      const { output } = await runSimulate(flags, capture());
      const position = (i: number) => output.particles[i]!.position;
      // Each step gravity stretches the loaded links by about g dt^2 (1 mm
      // here) and the 32 iterations take it out again; a resolver that did not
      // would let the bridge sink further every step. So after 5 s every rod
      // is within g dt^2 of its length and no cable longer than that past its own.
      const stretch = 9.81 * dt * dt;
      for (const link of links) {
        const other = link.b !== undefined ? position(link.b) : Array.from(link.anchor!);
        const length = Math.hypot(...position(link.a).map((x, c) => x - other[c]!));
        if (link.type === 'rod') expect(Math.abs(length - link.length)).toBeLessThanOrEqual(stretch);
        else expect(length - link.maxLength).toBeLessThanOrEqual(stretch);
      }
      // It hangs: the deck has dropped from y = 4 but stays above the ground.
      for (const particle of output.particles) {
        expect(particle.position[1]).toBeLessThan(4);
        expect(particle.position[1]).toBeGreaterThan(1);
      }
    }
  });

  it('cradle.json: the last ball leaves with the first one’s speed', async () => {
    const flags = ['--scene', scenePath('cradle.json'), '--steps', '10', '--dt', '0.015625'];
    const { output } = await runSimulate(flags, capture());
    expect(output.particles.slice(0, 4).every((p) => Math.hypot(...p.velocity) < 1e-4)).toBe(true);
    expect(Math.abs(output.particles[4]!.velocity[0]! - 1)).toBeLessThan(1e-4);
  });

  it('writes a killed particle with radius -1 and no mass', async () => {
    const file = join(dir.path, 'kill.json');
    await writeFile(
      file,
      JSON.stringify({
        particles: [
          { position: [0, 1, 0], velocity: [0, -10, 0], radius: 0.1 },
          { position: [0, 5, 0], radius: 0.1 },
        ],
        colliders: [{ type: 'plane', normal: [0, 1, 0], kill: true }],
      }),
    );
    const { output } = await runSimulate(['--scene', file, '--steps', '10', '--dt', '0.01', '--cpu'], capture());
    expect(output.particles[0]).toMatchObject({ inverseMass: 0, radius: -1, velocity: [0, 0, 0] });
    expect(output.particles[0]!.mass).toBeUndefined();
    expect(output.particles[1]).toMatchObject({ inverseMass: 1, radius: Math.fround(0.1) });
  });

  it('reports a bad collider as one line on stderr, exit code 1', async () => {
    const file = join(dir.path, 'bad.json');
    await writeFile(
      file,
      '{"particles": [{"position": [0, 0, 0]}], "colliders": [{"type": "sphere", "center": [0, 0, 0], "radius": 0}]}',
    );
    const io = capture();
    expect(await main(['--scene', file, '--steps', '1', '--dt', '0.1', '--cpu'], io)).toBe(1);
    expect(io.stderr).toMatch(
      /^simulate: .*bad\.json: \$\.colliders\[0\]\.radius: radius must be finite and > 0; got 0\n$/,
    );
  });
});
