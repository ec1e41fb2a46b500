/**
 * Non-finite state is detected, not just printed (issue 17, item 5 and
 * deliverable 2): both backends count particles whose position or velocity
 * goes from finite to NaN or infinite, in the step and in the colliders pass,
 * and apply the system's policy (report, park, throw); `simulate` names the
 * first particle and step. The GPU is real (Dawn, SwiftShader here).
 */
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ParticleSystemApi, ParticleSystemOptions } from '../src/core/api';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { SparkworksInputError } from '../src/core/errors';
import { NonFiniteStateError, type NonFinitePolicy } from '../src/core/nonFinite';
import type { ParticleInit } from '../src/core/particles';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { main, runSimulate } from '../src/cli/simulate';
import { capture, useTempDir } from './support/cli';
import { useDevice } from './support/gpu';

const gpu = useDevice();
const dir = useTempDir('sparkworks-non-finite-');

/** Largest float32 is about 3.4e38: one step of dt 1 doubles this speed past it (accepted: each value is finite). */
const HUGE = 3e38;
const calm = (x: number): ParticleInit => ({ position: [x, 0, 0], velocity: [0, 1, 0], acceleration: [0, -9.81, 0] });
const overflowing: ParticleInit = { position: [0, 0, 0], velocity: [HUGE, 0, 0], acceleration: [HUGE, 0, 0] };
const particles = [calm(0), calm(1), overflowing, calm(3)];

const backends = [
  ['CPU', async (options: ParticleSystemOptions): Promise<ParticleSystemApi> => new CpuParticleSystem(options)],
  [
    'GPU',
    (options: ParticleSystemOptions): Promise<ParticleSystemApi> => ParticleSystem.create(gpu.get().device, options),
  ],
] as const;

describe.each(backends)('non-finite state on the %s', (_, create) => {
  /** The four particles under the policy `nonFinite` for `body`, the system destroyed after. */
  async function withSystem(
    nonFinite: NonFinitePolicy | undefined,
    body: (made: ParticleSystemApi) => Promise<void>,
  ): Promise<void> {
    const made = await create({ capacity: particles.length, ...(nonFinite ? { nonFinite } : {}) });
    try {
      await made.writeParticles(0, particles);
      await body(made);
    } finally {
      made.destroy();
    }
  }

  it('report (the default): counts the particle once, the step it overflows, and changes nothing else', () =>
    withSystem(undefined, async (made) => {
      expect(await made.readStats()).toMatchObject({ nonFinite: 0, firstNonFinite: -1 });
      await made.step(1);
      expect(await made.readStats()).toMatchObject({ nonFinite: 1, firstNonFinite: 2 });
      const after = await made.read(2, 1);
      expect(after.velocity[0]).toBe(Infinity);
      expect(after.inverseMass[0]).toBe(1);
      // Already non-finite: not counted again.
      await made.stepMany(1, 3);
      expect(await made.readStats()).toMatchObject({ nonFinite: 1, firstNonFinite: 2 });
      const others = await made.read(0, 2);
      expect([...others.position, ...others.velocity].every(Number.isFinite)).toBe(true);
    }));

  it('park: the particle is made immovable and collision-free, at rest where it went bad', () =>
    withSystem('park', async (made) => {
      await made.stepMany(1, 3);
      expect(await made.readStats()).toMatchObject({ nonFinite: 1, firstNonFinite: 2 });
      const parked = await made.read(2, 1);
      expect(parked.inverseMass[0]).toBe(0);
      expect(parked.radius[0]).toBe(-1);
      expect(Array.from(parked.velocity)).toEqual([0, 0, 0]);
      // It went bad in its velocity (3e38 + 3e38); the position moved with the old one and is still finite.
      expect(parked.position[0]).toBe(Math.fround(HUGE));
    }));

  it('throw: the next read throws, naming the count and the particle, once per new count', () =>
    withSystem('throw', async (made) => {
      await made.step(1);
      const error = await made.read().then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(NonFiniteStateError);
      expect((error as Error).message).toMatch(/^1 particle\(s\) became non-finite .*particle 2 first/);
      // Reported: the state can be read now, to look at it.
      expect((await made.read(2, 1)).velocity[0]).toBe(Infinity);
    }));

  it('off: nothing is looked for (the test compiled out), nothing counted, nothing changed', () =>
    withSystem('off', async (made) => {
      await made.step(1);
      expect(await made.readStats()).toMatchObject({ nonFinite: 0, firstNonFinite: -1 });
      const after = await made.read(2, 1);
      expect(after.velocity[0]).toBe(Infinity);
      expect(after.inverseMass[0]).toBe(1);
    }));

  it('counts what the colliders pass takes non-finite too: a particle 6e38 behind a plane', async () => {
    const made = await create({
      capacity: 1,
      collisions: { colliders: [{ type: 'plane', normal: [0, 1, 0], offset: HUGE, restitution: 1 }] },
    });
    try {
      // 3e38 below a plane 3e38 up: its distance, p.n - offset = -6e38, overflows, and the contact moves it
      // by the infinite penetration; the step itself keeps it finite.
      await made.writeParticles(0, [{ position: [0, -HUGE, 0], velocity: [0, -1, 0] }]);
      await made.step(1 / 60);
      const stats = await made.readStats();
      const state = await made.read(0, 1);
      const finite = [...state.position, ...state.velocity].every(Number.isFinite);
      expect(finite).toBe(false);
      expect(stats).toMatchObject({ nonFinite: 1, firstNonFinite: 0 });
    } finally {
      made.destroy();
    }
  });

  it('refuses a policy that is not one of report, park, throw, naming it', async () => {
    await expect(create({ capacity: 1, nonFinite: 'explode' as NonFinitePolicy })).rejects.toThrow(
      /nonFinite = "explode" is invalid: must be one of report, park, throw/,
    );
  });
});

describe('simulate names the first particle and step that went non-finite', () => {
  it.each([
    ['the GPU', []],
    ['the CPU', ['--cpu']],
  ])('on %s: one line, exit code 1', async (_, extra) => {
    const scene = join(dir.path, 'overflow.json');
    await writeFile(
      scene,
      JSON.stringify({
        particles: [
          { position: [0, 0, 0], velocity: [1, 0, 0] },
          // Accelerating at 1e37 m/s^2, explicit Euler: after step k the position is 1e37 k(k - 1)/2,
          // past float32's largest (3.4e38) at k = 9 (3.6e38), long before the speed (k = 35).
          { position: [0, 0, 0], acceleration: [1e37, 0, 0] },
        ],
      }),
    );
    const flags = ['--scene', scene, '--steps', '100', '--dt', '1', ...extra];
    await expect(runSimulate(flags, capture())).rejects.toThrow(SparkworksInputError);
    const io = capture();
    expect(await main(flags, io)).toBe(1);
    expect(io.stderr).toMatch(/^simulate: [^\n]+\n$/);
    expect(io.stderr).toMatch(
      /particles\[1\] became non-finite at step 9 of 100 \(dt 1\): position \[Infinity, 0, 0\]/,
    );
  });
});

/**
 * The physics that produced NaN from accepted input (issue 17, item 5) is
 * made finite: a softening floor for attractors and vortices, and spring
 * lengths that do not overflow when squared.
 */
describe.each(backends)('accepted input stays finite on the %s', (_, create) => {
  type Snapshot = Awaited<ReturnType<ParticleSystemApi['read']>>;
  async function run(
    setUp: (system: ParticleSystemApi) => void,
    bodies: ParticleInit[],
  ): Promise<{ nonFinite: number; state: Snapshot }> {
    const made = await create({ capacity: bodies.length });
    try {
      await made.writeParticles(0, bodies);
      setUp(made);
      await made.stepMany(1 / 60, 3);
      return { nonFinite: (await made.readStats()).nonFinite, state: await made.read() };
    } finally {
      made.destroy();
    }
  }
  const finite = (state: Snapshot): boolean => [...state.position, ...state.velocity].every(Number.isFinite);

  it.each([
    ['attractor', 3],
    ['vortex', 2],
  ] as const)(
    'a %s refuses a softening below its floor; at the floor a particle at its centre stays finite',
    async (type, power) => {
      const strength = 5;
      const generator = (softening: number) =>
        (type === 'attractor'
          ? { type, position: [0, 0, 0], strength, softening }
          : { type, position: [0, 0, 0], axis: [0, 1, 0], strength, softening }) as never;
      // Tiny but allowed on its own (its square a normal float32): 0 x infinity = NaN at the centre before.
      const made = await create({ capacity: 1 });
      try {
        expect(() => made.forces.add(generator(2e-19))).toThrow(
          /generator\.softening = 2e-19 is invalid: must be >= [\d.e+-]+ for strength 5: \|strength\| \/ softening/,
        );
      } finally {
        made.destroy();
      }
      // Just above the floor: (strength / (float32's largest / 16)) to the 1/power.
      const floor = (strength / (3.4028234663852886e38 / 16)) ** (1 / power) * 1.01;
      const { nonFinite, state } = await run(
        (system) => void system.forces.add(generator(floor)),
        [{ position: [0, 0, 0] }, { position: [0, floor, 0] }, { position: [floor / 2, 0, 0] }],
      );
      expect(finite(state)).toBe(true);
      expect(nonFinite).toBe(0);
    },
  );

  it('refuses a radius whose squared contact reach would overflow (3e38 made NaN with particle collisions)', async () => {
    const made = await create({ capacity: 2, collisions: { particleCollisions: true } });
    try {
      await expect(async () => made.writeParticles(0, [{ position: [0, 0, 0], radius: HUGE }])).rejects.toThrow(
        /radius must be finite and >= 0 \(0: a point\), at most 4\.6e18/,
      );
      // At the limit two particles in contact stay finite.
      const { nonFinite, state } = await (async () => {
        await made.writeParticles(0, [
          { position: [0, 0, 0], radius: 2 ** 62 },
          { position: [2 ** 62, 0, 0], radius: 2 ** 62 },
        ]);
        await made.stepMany(1 / 60, 3);
        return { nonFinite: (await made.readStats()).nonFinite, state: await made.read() };
      })();
      expect(nonFinite).toBe(0);
      expect(finite(state)).toBe(true);
    } finally {
      made.destroy();
    }
  });

  it('a spring 1e20 long (its square overflows float32) pulls with its finite Hooke force', async () => {
    const length = 1e20;
    const bodies = [{ position: [0, 0, 0] }, { position: [length, 0, 0] }, { position: [0, 0, 0] }];
    const setUp = (system: ParticleSystemApi): void => {
      system.springs.setLinks([{ a: 0, b: 1, restLength: 9e19, stiffness: 1 }]);
      system.forces.add(
        { type: 'anchoredSpring', anchor: [0, -length, 0], restLength: 9e19, stiffness: 1 },
        { start: 2, count: 1 },
      );
    };
    const { nonFinite, state } = await run(setUp, bodies);
    expect(nonFinite).toBe(0);
    expect(finite(state)).toBe(true);
    // The same run in float64, where the squared length does not overflow: the scaled length
    // agrees to float32's rounding over three steps (a few ULPs; 1e-5 is far above them).
    const exact = new CpuParticleSystem({ capacity: 3, precision: 'float64' });
    exact.writeParticles(0, bodies);
    setUp(exact);
    exact.stepMany(1 / 60, 3);
    const reference = exact.readExact();
    for (const at of [0, 3, 7]) {
      const want = reference.velocity[at] as number;
      expect(Math.abs(want)).toBeGreaterThan(1e17);
      expect(Math.abs((state.velocity[at] as number) - want) / Math.abs(want)).toBeLessThan(1e-5);
    }
  });
});
