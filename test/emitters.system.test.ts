/**
 * Emitters inside the particle systems: a system without emitters is
 * unchanged; the field forces run over the live list and agree with the CPU
 * reference within the carried bound; kill colliders return particles to the
 * pool; the permanent slots are the only ones the host writes; refused
 * emitters build nothing.
 */
import { describe, expect, it } from 'vitest';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import type { Emission } from '../src/core/emitters/lifecycle';
import { SparkworksInputError } from '../src/core/errors';
import { floatIndex } from '../src/core/layout';
import { DEFAULT_VARIANT } from '../src/core/variants';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { StepErrorBound } from './support/errorBound';
import { forceBound } from './support/forceBound';
import { useDevice } from './support/gpu';
import { lifecycleInvariantFailure } from './support/lifecycleChecks';
import { boundBirths } from './support/spawnBound';

const gpu = useDevice();
const DT = 1 / 64;

describe('a system without emitters', () => {
  it('has every slot live, no emitters and no lifecycle, on both backends', async () => {
    const system = await ParticleSystem.create(gpu.get().device, { capacity: 10 });
    const reference = new CpuParticleSystem({ capacity: 10 });
    try {
      for (const s of [system, reference]) {
        expect(s.emitters).toBeNull();
        expect(await s.readLifecycle()).toBeNull();
        expect(await s.readStats()).toMatchObject({ live: 10, free: 0, emitted: 0, killed: 0, shortfall: 0 });
      }
      expect(system.lifecycle).toBeNull();
    } finally {
      system.destroy();
    }
  });
});

describe('forces over the live list', () => {
  // Fused into the step over the live list (the default), and as a pass of their own before it.
  it.each([true, false])(
    'a wind and a drag on emitted particles (fuseForces %s): the GPU within the carried bound of the CPU reference, every frame',
    async (fuseForces) => {
      const options = {
        fuseForces,
        capacity: 1500,
        emitters: [
          {
            rate: 2000,
            burst: 400,
            // [0, 2^-1]: exact lifetimes, so both backends kill the same particles (test/emitters.lifecycle.test.ts).
            lifetime: [0, 0.5] as [number, number],
            shape: { type: 'sphere' as const, radius: 1 },
            velocity: { spread: Math.PI, speed: [1, 3] as [number, number] },
            mass: [0.5, 2] as [number, number],
            seed: 5,
          },
        ],
      };
      const system = await ParticleSystem.create(gpu.get().device, options);
      const reference = new CpuParticleSystem(options);
      const lifecycle = reference.lifecycle!;
      const table = lifecycle.rules.table;
      const bound = new StepErrorBound(options.capacity, DEFAULT_VARIANT);
      const inverseMassBound = new Float64Array(options.capacity);
      let births: Emission[] = [];
      lifecycle.onEmit = (b) => births.push(b);
      try {
        for (const s of [system, reference]) {
          s.forces.add({ type: 'wind', force: [3, 0, -1] });
          s.forces.add({ type: 'drag', k1: 0.5, k2: 0.1 });
        }
        for (let frame = 1; frame <= 40; frame++) {
          // The reference's step in its halves, carrying the bound between them:
          // forces (with their own bound), the step, then the lifecycle.
          const forces = forceBound(
            reference.state,
            options.capacity,
            reference.forces,
            null,
            DT,
            bound.position,
            bound.velocity,
          );
          lifecycle.beforeStep();
          reference.accumulateForces(DT);
          // The GPU's inverse mass is the reference's within its bound: f * w moves by |f| dw more.
          for (let slot = 0; slot < options.capacity; slot++) {
            const w = reference.state[floatIndex(slot, 'inverseMass')] as number;
            if (w <= 0) continue;
            for (let c = 0; c < 3; c++) {
              const f = Math.abs(reference.state[floatIndex(slot, 'forceAccum', c)] as number);
              forces.error[3 * slot + c] =
                (forces.error[3 * slot + c] as number) + (f * (inverseMassBound[slot] as number)) / w;
            }
          }
          bound.advance(reference.state, DT, forces.error);
          reference.integrateOnly(DT);
          births = [];
          lifecycle.afterStep(reference.state, DT);
          for (const { birth, spawn } of boundBirths(table, births, bound)) {
            inverseMassBound[birth.slot] = spawn.inverseMass;
          }
          await system.step(DT);

          const [state, view, expected] = await Promise.all([
            system.readPacked(),
            system.readLifecycle(),
            reference.readLifecycle(),
          ]);
          if (view!.live.join() !== expected!.live.join()) expect.fail(`frame ${frame}: the GPU's live list differs`);
          for (const slot of view!.live) {
            for (const name of ['position', 'velocity'] as const) {
              for (let c = 0; c < 3; c++) {
                const at = floatIndex(slot, name, c);
                const diff = Math.abs((state[at] as number) - (reference.state[at] as number));
                const allowed = bound[name][3 * slot + c] as number;
                if (!(diff <= allowed)) {
                  expect.fail(
                    `particle in slot ${slot} ${name}[${'xyz'[c]}] after frame ${frame}: |diff| ${diff} > allowed ${allowed}`,
                  );
                }
              }
            }
          }
        }
        // Had the GPU skipped the forces, the wind alone would have moved every velocity by
        // |F| w dt >= 3 * 0.5 / 64 a step, far outside the bound: the forces ran over the live list.
        const stats = await system.readStats();
        expect(stats.killed).toBeGreaterThan(500);
      } finally {
        system.destroy();
      }
    },
  );
});

describe('with collisions', () => {
  it('a kill collider returns particles to the pool; the pool stays whole', async () => {
    const options = {
      capacity: 600,
      emitters: [
        {
          rate: 1500,
          lifetime: 10,
          shape: { type: 'disc' as const, center: [0, 2, 0], radius: 1 },
          velocity: { direction: [0, -1, 0], spread: 0.2, speed: [2, 4] as [number, number] },
          radius: 0.05,
        },
      ],
      collisions: { colliders: [{ type: 'plane' as const, normal: [0, 1, 0], offset: 0, kill: true }] },
    };
    for (const backend of ['GPU', 'CPU'] as const) {
      const system =
        backend === 'GPU' ? await ParticleSystem.create(gpu.get().device, options) : new CpuParticleSystem(options);
      try {
        await system.stepMany(DT, 120);
        const view = (await system.readLifecycle())!;
        const failure = lifecycleInvariantFailure(view, await system.readPacked(), options.capacity, 120);
        if (failure) expect.fail(`${backend} ${failure}`);
        // Lifetimes of 10 s: every death in 2 s is the floor's collider.
        expect(view.stats.killed, backend).toBeGreaterThan(500);
        expect(view.stats.emitted - view.stats.killed, backend).toBe(view.stats.live);
      } finally {
        system.destroy();
      }
    }
  });
});

describe('the host writes only the permanent slots', () => {
  it.each(['GPU', 'CPU'] as const)('%s: writes past them are refused and change nothing', async (backend) => {
    const options = { capacity: 8, permanent: 2, emitters: [{ burst: 3, lifetime: 5 }] };
    const system =
      backend === 'GPU' ? await ParticleSystem.create(gpu.get().device, options) : new CpuParticleSystem(options);
    try {
      await system.writeParticles(0, [{ position: [1, 2, 3] }, { position: [4, 5, 6] }]);
      await system.step(DT);
      const before = await system.readPacked();
      const refusals = [
        () => system.writeParticles(1, [{ position: [0, 0, 0] }, { position: [0, 0, 0] }]),
        () => system.setField('velocity', 2, [1, 1, 1]),
        () => system.addForces(0, [1, 0, 0, 1, 0, 0, 1, 0, 0]),
      ];
      for (const refused of refusals) {
        let error: unknown;
        try {
          await refused();
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(SparkworksInputError);
        expect((error as Error).message).toMatch(/reaches past the 2 permanent slots/);
      }
      expect(Array.from(await system.readPacked())).toEqual(Array.from(before));
      await system.setField('velocity', 0, [0, 1, 0, 0, 1, 0]); // within the permanent slots: fine
    } finally {
      system.destroy();
    }
  });

  it('refused emitters build nothing: no GPU error, the refusal names the value', async () => {
    const { device } = gpu.get();
    await expect(ParticleSystem.create(device, { capacity: 8, emitters: [{ rate: -5 }] })).rejects.toThrow(
      /emitters\[0\]\.rate = -5 is invalid/,
    );
    expect(() => new CpuParticleSystem({ capacity: 8, fireworks: [{ type: 1, fuse: [3, 1] }] })).toThrow(
      /fireworks\[0\]\.fuse = \[3,1\] is invalid: an empty range: min 3 > max 1/,
    );
  });
});

describe('a moving emitter', () => {
  it('emits from where the host moved it, and its particles inherit its velocity', async () => {
    const system = new CpuParticleSystem({
      capacity: 16,
      emitters: [{ rate: 0, lifetime: 5, inherit: 0.5, shape: { type: 'point', center: [0, 0, 0] } }],
    });
    system.emitters!.set(0, { position: [10, 0, 0], velocity: [4, 0, 2] });
    system.emitters!.burst(0, 2);
    system.step(DT);
    const { live } = (await system.readLifecycle())!;
    expect(live.length).toBe(2);
    for (const slot of live) {
      expect(system.state[floatIndex(slot, 'position')]).toBe(10);
      expect(system.state[floatIndex(slot, 'velocity')]).toBe(2);
      expect(system.state[floatIndex(slot, 'velocity', 2)]).toBe(1);
    }
  });
});
