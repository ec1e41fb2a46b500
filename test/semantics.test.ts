/**
 * Cyclone's semantics on the GPU: what the step must do exactly (bit for bit)
 * and what it must do up to a derived float32 bound.
 */
import { describe, expect, it } from 'vitest';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { FLOATS_PER_PARTICLE, attributeOffset } from '../src/core/layout';
import type { ParticleInit } from '../src/core/particles';
import { ALL_VARIANTS, variantName, type DampingMode, type Variant } from '../src/core/variants';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { StepErrorBound, UNIT_ROUNDOFF, powRelativeError } from './support/errorBound';
import { useDevice } from './support/gpu';
import { mixedScene } from './support/scenes';

const gpu = useDevice();
const DT = 1 / 60;
const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);

async function system(capacity: number, variant: Partial<Variant> = {}): Promise<ParticleSystem> {
  return ParticleSystem.create(gpu.get().device, { capacity, ...variant });
}

describe.each(ALL_VARIANTS.map((v) => [variantName(v), v] as const))('%s', (_, variant) => {
  it('leaves immovable particles unchanged bit for bit and clears the others’ accumulators', async () => {
    const count = 200;
    const scene = mixedScene(count, 11);
    const s = await system(count, variant);
    await s.writeParticles(0, scene.particles);
    await s.addForces(0, scene.forces);
    const before = await s.readPacked();
    await s.stepMany(DT, 25);
    const after = await s.readPacked();
    let immovable = 0;
    for (let i = 0; i < count; i++) {
      const record = (a: Float32Array) => bits(a.subarray(i * FLOATS_PER_PARTICLE, (i + 1) * FLOATS_PER_PARTICLE));
      if (before[i * FLOATS_PER_PARTICLE + attributeOffset('inverseMass')] === 0) {
        immovable++;
        // Cyclone returns before touching anything, the accumulator included.
        expect(record(after), `immovable particle ${i}`).toEqual(record(before));
      } else {
        const force = after.subarray(
          i * FLOATS_PER_PARTICLE + attributeOffset('forceAccum'),
          i * FLOATS_PER_PARTICLE + attributeOffset('forceAccum') + 3,
        );
        expect(Array.from(force), `particle ${i} forceAccum`).toEqual([0, 0, 0]);
      }
    }
    expect(immovable).toBeGreaterThan(20);
    s.destroy();
  });
});

describe('damping', () => {
  const ball = (damping: number, acceleration = [0, 0, 0]): ParticleInit => ({
    position: [1, 2, 3],
    velocity: [3.25, -1.5, 0.1],
    acceleration,
    damping,
  });

  it.each(['per-second', 'per-step'] as DampingMode[])(
    '%s: damping 1 keeps velocity exactly, damping 0 zeroes it',
    async (mode) => {
      const s = await system(3, { damping: mode });
      await s.writeParticles(0, [ball(1), ball(0), ball(0, [0, -9.81, 0])]);
      await s.stepMany(DT, 10);
      const state = await s.read();
      expect(Array.from(state.velocity.subarray(0, 3))).toEqual(Array.from(Float32Array.from([3.25, -1.5, 0.1])));
      expect(Array.from(state.velocity.subarray(3, 9)).map(Math.abs)).toEqual([0, 0, 0, 0, 0, 0]);
      s.destroy();
    },
  );

  it('per-second damping removes the same share whether a span is one step or two halves', async () => {
    const dampings = [0.995, 0.9, 0.5, 0.2, 0.05, 0.001];
    const one = await system(dampings.length, { damping: 'per-second' });
    const two = await system(dampings.length, { damping: 'per-second' });
    const perStep = await system(dampings.length, { damping: 'per-step' });
    const particles = dampings.map((d) => ball(d));
    for (const s of [one, two, perStep]) await s.writeParticles(0, particles);
    const dt = 0.1;
    await one.step(dt);
    await two.stepMany(dt / 2, 2);
    await perStep.stepMany(dt / 2, 2);
    const [a, b, c] = await Promise.all([one.read(), two.read(), perStep.read()]);
    dampings.forEach((d, i) => {
      // One pow(d, dt) against two pow(d, dt/2), each within powRelativeError,
      // plus one rounding per multiplication (three in all).
      const relative = powRelativeError(d, dt) + 2 * powRelativeError(d, dt / 2) + 3 * 2 * UNIT_ROUNDOFF;
      for (let k = 0; k < 3; k++) {
        const x = a.velocity[i * 3 + k] as number;
        const y = b.velocity[i * 3 + k] as number;
        expect(Math.abs(x - y), `damping ${d} component ${k}: ${x} vs ${y}`).toBeLessThanOrEqual(
          Math.abs(x) * relative,
        );
        // Per-step damping does depend on the split (d vs d^2): the test can tell.
        const z = c.velocity[i * 3 + k] as number;
        expect(Math.abs(x - z)).toBeGreaterThan(Math.abs(x) * relative);
      }
    });
    for (const s of [one, two, perStep]) s.destroy();
  });

  it.each(['per-second', 'per-step'] as DampingMode[])(
    '%s: with no force and damping < 1 speed never grows',
    async (mode) => {
      const count = 64;
      const scene = mixedScene(count, 3);
      const particles = scene.particles.map((p, i) => ({
        ...p,
        acceleration: [0, 0, 0],
        damping: 0.01 + (0.98 * i) / count,
      }));
      const s = await system(count, { damping: mode, integrator: 'explicit' });
      await s.writeParticles(0, particles);
      let previous = (await s.read()).velocity;
      for (let step = 1; step <= 150; step++) {
        await s.step(DT);
        const velocity = (await s.read()).velocity;
        for (let i = 0; i < count; i++) {
          const speed = (v: Float32Array) =>
            Math.hypot(v[i * 3] as number, v[i * 3 + 1] as number, v[i * 3 + 2] as number);
          // Exact: each component is rounded from |v * k| <= |v|, and rounding is monotone.
          expect(speed(velocity), `particle ${i} at step ${step}`).toBeLessThanOrEqual(speed(previous));
        }
        previous = velocity;
      }
      s.destroy();
    },
  );
});

describe('ballistic particle against the closed form of each Euler recurrence', () => {
  const x0 = [1.5, 20, -3];
  const v0 = [4, 12.5, -0.75];
  const a = [0.5, -9.81, 0.25];
  const n = 600;

  it.each(['explicit', 'semi-implicit'] as const)('%s', async (integrator) => {
    const variant: Variant = { integrator, damping: 'off' };
    const s = await system(1, variant);
    const particle = { position: x0, velocity: v0, acceleration: a };
    await s.writeParticles(0, [particle]);
    await s.stepMany(DT, n);
    const state = await s.read();

    // The bound of float32 against exact arithmetic, carried along a float64 run.
    const exact = new CpuParticleSystem({ capacity: 1, ...variant, precision: 'float64' });
    exact.writeParticles(0, [particle]);
    const bound = new StepErrorBound(1, variant);
    for (let k = 0; k < n; k++) {
      bound.advance(exact.state, Math.fround(DT));
      exact.step(DT);
    }
    const dt = Math.fround(DT); // the step the GPU actually takes
    // explicit: x_n = x_0 + n dt v_0 + a dt^2 n(n-1)/2; semi-implicit: n(n+1)/2
    const triangle = integrator === 'explicit' ? (n * (n - 1)) / 2 : (n * (n + 1)) / 2;
    for (let c = 0; c < 3; c++) {
      const x =
        Math.fround(x0[c] as number) +
        n * dt * Math.fround(v0[c] as number) +
        Math.fround(a[c] as number) * dt * dt * triangle;
      const v = Math.fround(v0[c] as number) + n * Math.fround(a[c] as number) * dt;
      // The float64 reference is the closed form up to float64 rounding.
      expect(Math.abs((exact.state[attributeOffset('position') + c] as number) - x)).toBeLessThan(
        1e-9 * (1 + Math.abs(x)),
      );
      expect(Math.abs((state.position[c] as number) - x), `position[${c}]`).toBeLessThanOrEqual(
        bound.position[c] as number,
      );
      expect(Math.abs((state.velocity[c] as number) - v), `velocity[${c}]`).toBeLessThanOrEqual(
        bound.velocity[c] as number,
      );
    }
    s.destroy();
  });
});
