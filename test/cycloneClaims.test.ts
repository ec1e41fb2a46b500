/**
 * The docs' statements about Cyclone, checked numerically (issue 17 point 11):
 * what the stiff spring (Cyclone's ParticleFakeSpring) does under each
 * integration order, what is left of Cyclone's buoyancy formula since its 2020
 * fix, and which velocity update the damping modes follow (Cyclone's code,
 * not the book's printed equations 3.5 and 3.6). The sources are quoted where
 * they are used: Cyclone's Particle::integrate from the seed text
 * (../shared/seeds/000_9ee6b4ae08432aee.txt, the book's listing), equations
 * 3.5 and 3.6 from ../shared/seeds/003_2eedbff3115d40df.txt, and the force
 * generators and contact generation from Cyclone's repository
 * (idmillington/cyclone-physics at d75c8d9: src/pfgen.cpp, src/plinks.cpp),
 * which the seeds do not include. Last, the contact resolver comparison of
 * docs/collisions.md (scripts/compare-resolvers.ts prints it) against
 * Cyclone's resolver given Cyclone's contact generation.
 *
 * Everything runs on the CPU reference: in float64 where an identity is
 * checked (only the algorithm matters), in float32 (as the GPU rounds) where a
 * run's growth or boundedness is the claim.
 */
import { describe, expect, it } from 'vitest';
import { dampedOscillator } from './support/oscillator';
import { prepareLinks } from '../src/core/collisions/links';
import { generateContacts } from '../src/core/collisions/sequential';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { stiffSpringCoefficients } from '../src/core/forces/records';
import { floatIndex } from '../src/core/layout';
import { packParticles } from '../src/core/particles';
import type { IntegrationOrder } from '../src/core/variants';
import {
  CYCLONE_SKIN,
  RESOLVER_SCENES,
  compareResolvers,
  type ComparisonSkins,
  type ResolverScene,
} from './support/resolverScenes';

/** One particle on a stiff spring to the origin, from x0 (along x) with velocity v0, damping mode off. */
function stiffSpringRun(
  integrator: IntegrationOrder,
  k: number,
  d: number,
  x0: number,
  v0: number,
  precision: 'float32' | 'float64',
): CpuParticleSystem {
  const system = new CpuParticleSystem({ capacity: 1, integrator, damping: 'off', precision });
  system.writeParticles(0, [{ position: [x0, 0, 0], velocity: [v0, 0, 0], mass: 2 }]);
  system.forces.add({ type: 'stiffSpring', anchor: [0, 0, 0], stiffness: k, damping: d });
  return system;
}

const x = (system: CpuParticleSystem) => system.state[floatIndex(0, 'position', 0)] as number;

/**
 * The spectral radius of one step of the stiff spring as a linear map of
 * (x, v dt), from the coefficients the host computes (acceleration = A x + B v):
 * explicit x1 = x + v dt, v1 dt = v dt + (A dt² x + B dt v dt); semi-implicit
 * v1 dt first, then x1 = x + v1 dt. Above 1, the run grows by that factor a step.
 */
function stepRadius(integrator: IntegrationOrder, k: number, d: number, dt: number): number {
  const [a, b] = stiffSpringCoefficients(k, d, dt);
  const p = a * dt * dt;
  const q = 1 + b * dt;
  const [m11, m12, m21, m22] = integrator === 'explicit' ? [1, 1, p, q] : [1 + p, q, p, q];
  const trace = m11 + m22;
  const det = m11 * m22 - m12 * m21;
  const disc = trace * trace - 4 * det;
  if (disc < 0) return Math.sqrt(det);
  return Math.max(Math.abs((trace + Math.sqrt(disc)) / 2), Math.abs((trace - Math.sqrt(disc)) / 2));
}

describe('the stiff spring (Cyclone’s ParticleFakeSpring) under each integration order', () => {
  const dt = Math.fround(1 / 60); // what the CPU reference steps with
  const regimes = [
    [100, 2],
    [1e4, 0],
    [25, 10],
    [1, 20],
  ] as const;
  const starts = [
    [1, 0],
    [0, 1],
    [-2, 3],
  ] as const;

  it.each(regimes)('k %d, d %d: one semi-implicit step lands on x(dt)', (k, d) => {
    for (const [x0, v0] of starts) {
      const system = stiffSpringRun('semi-implicit', k, d, x0, v0, 'float64');
      system.step(dt);
      const exact = dampedOscillator(k, d, x0, v0, dt);
      // A few dozen float64 operations on values of size |x0| + |v0| dt + |x(dt)| (+ the acceleration's
      // |A x0 + B v0| dt², at most |x(dt) - x0 - v0 dt|): 2^-40 of that is far above their rounding.
      const size = Math.abs(x0) + Math.abs(v0 * dt) + 2 * Math.abs(exact) + Math.abs(x0 + v0 * dt);
      expect(Math.abs(x(system) - exact), `x0 ${x0}, v0 ${v0}`).toBeLessThanOrEqual(2 ** -40 * size);
    }
  });

  it.each(regimes)('k %d, d %d: explicit steps do not get there a step later: two land at x(dt) + v0 dt', (k, d) => {
    for (const [x0, v0] of starts) {
      const system = stiffSpringRun('explicit', k, d, x0, v0, 'float64');
      system.step(dt);
      // The first step moves with the old velocity, so the force has not acted on the position yet.
      expect(x(system)).toBe(x0 + v0 * dt);
      // Its velocity is (x(dt) - x0)/dt, the chord to where the oscillator is after dt.
      const exact = dampedOscillator(k, d, x0, v0, dt);
      system.step(dt);
      // So the second step (whatever force it adds) lands at x0 + v0 dt + (x(dt) - x0) = x(dt) + v0 dt.
      const size = Math.abs(x0) + 2 * Math.abs(v0 * dt) + 2 * Math.abs(exact);
      expect(Math.abs(x(system) - (exact + v0 * dt)), `x0 ${x0}, v0 ${v0}`).toBeLessThanOrEqual(2 ** -40 * size);
      // That is x(dt) only when v0 = 0 (and x(2 dt) in no case here).
      if (v0 !== 0) expect(Math.abs(x(system) - exact)).toBeGreaterThan(0.99 * Math.abs(v0 * dt));
      expect(Math.abs(x(system) - dampedOscillator(k, d, x0, v0, 2 * dt))).toBeGreaterThan(1e-6);
    }
  });

  it('k = 1e4 at dt = 1/60 (γ dt = 1.67): semi-implicit stays bounded, explicit grows x1.30 a step to Infinity', () => {
    const k = 1e4;
    // Predicted from the coefficients: semi-implicit shrinks (0.77 a step: the chord velocity loses energy),
    // explicit grows (1.30 a step).
    const semiRadius = stepRadius('semi-implicit', k, 0, dt);
    const explicitRadius = stepRadius('explicit', k, 0, dt);
    expect(semiRadius).toBeCloseTo(0.7728, 3);
    expect(explicitRadius).toBeCloseTo(1.3011, 3);

    // Measured in float32, as the GPU steps: 600 steps (10 s) from 1 m at rest.
    const semi = stiffSpringRun('semi-implicit', k, 0, 1, 0, 'float32');
    const explicit = stiffSpringRun('explicit', k, 0, 1, 0, 'float32');
    let semiLargest = 0;
    let firstNonFinite = -1;
    const explicitAt: number[] = [];
    for (let step = 1; step <= 600; step++) {
      semi.step(dt);
      explicit.step(dt);
      semiLargest = Math.max(semiLargest, Math.abs(x(semi)));
      if (firstNonFinite < 0 && !Number.isFinite(x(explicit))) firstNonFinite = step;
      explicitAt[step] = Math.abs(x(explicit));
    }
    expect(semiLargest).toBeLessThanOrEqual(1);
    expect(Math.abs(x(semi))).toBeLessThan(1e-30);
    // Explicit: the amplitude over steps 100-109 against 200-209 grows as the radius predicts (the
    // phase of the rotation moves a window's largest value by well under 10% of the exponent).
    const window = (from: number) => Math.max(...explicitAt.slice(from, from + 10));
    const rate = Math.log(window(200) / window(100)) / 100;
    expect(Math.abs(rate / Math.log(explicitRadius) - 1)).toBeLessThan(0.1);
    // ... and overflows float32 (Infinity, then NaN) from 1 m at rest after about 300 steps (5 s): at step 306
    // here, 309 for a particle of mass 1 (the force's rounding differs).
    expect(firstNonFinite).toBeGreaterThanOrEqual(300);
    expect(firstNonFinite).toBeLessThanOrEqual(320);
  });

  it('semi-implicit is bounded only for γ dt < π, and again past about 4.058 (undamped), unlike Hooke’s ω dt < 2', () => {
    const radius = (k: number) => stepRadius('semi-implicit', k, 0, dt);
    const theta = (k: number) => Math.sqrt(k) * dt;
    // Hooke's spring under semi-implicit Euler is bounded for ω dt < 2, k < 14,400 at 1/60; the stiff
    // spring up to γ dt = π, k ≈ 35,530: the range where it is stable and Hooke's is not.
    for (const k of [100, 1e4, 14_400, 22_500, 35_000]) expect(radius(k), `k ${k}`).toBeLessThan(1);
    // Past π its step matrix has a root below -1 (1 + cos θ + 2 sin θ / θ < 0) up to θ ≈ 4.058.
    for (const k of [36_000, 4e4, 5e4, 59_000]) {
      expect(theta(k)).toBeGreaterThan(Math.PI);
      expect(radius(k), `k ${k}`).toBeGreaterThan(1);
    }
    for (const k of [60_000, 1e5, 1e6]) expect(radius(k), `k ${k}`).toBeLessThan(1);
    // Measured: k = 4e4 (γ dt = 3.33) grows from 1 m to over 1e20 m in 600 steps.
    const run = stiffSpringRun('semi-implicit', 4e4, 0, 1, 0, 'float32');
    run.stepMany(dt, 600);
    expect(Math.abs(x(run))).toBeGreaterThan(1e20);
  });

  it('explicit grows for every undamped stiffness with γ dt < 4.493 (tan θ = θ), however soft', () => {
    for (const k of [1, 100, 1e4, 4e4, 72_000]) {
      expect(stepRadius('explicit', k, 0, dt), `k ${k}`).toBeGreaterThan(1);
    }
    // Damping can hold a soft one (d = 2: bounded below γ dt ≈ 0.22), not a stiff one.
    expect(stepRadius('explicit', 100, 2, dt)).toBeLessThan(1);
    expect(stepRadius('explicit', 1e4, 2, dt)).toBeGreaterThan(1);
  });
});

describe('Cyclone’s ParticleBuoyancy since its 2020 fix: the band’s sign and the missing g remain', () => {
  // src/pfgen.cpp, ParticleBuoyancy::updateForce. Until commit 43640d7 (6 Aug 2020) the partly submerged
  // case read `(depth - maxDepth - waterHeight) / 2 * maxDepth`; since then `/ (2 * maxDepth)`.
  const liquidDensity = 1000;
  const volume = 0.1;
  const maxDepth = 0.5;
  const waterHeight = 0;
  function cyclone2020(y: number): number {
    if (y >= waterHeight + maxDepth) return 0;
    if (y <= waterHeight - maxDepth) return liquidDensity * volume;
    return (liquidDensity * volume * (y - maxDepth - waterHeight)) / (2 * maxDepth);
  }
  function cycloneBefore2020(y: number): number {
    if (y >= waterHeight + maxDepth) return 0;
    if (y <= waterHeight - maxDepth) return liquidDensity * volume;
    return ((liquidDensity * volume * (y - maxDepth - waterHeight)) / 2) * maxDepth;
  }
  /** The buoyancy force at height y (a float32, as particles are written), float64 arithmetic. */
  function sparkworks(y: number, gravity: number): number {
    const system = new CpuParticleSystem({ capacity: 1, precision: 'float64' });
    system.writeParticles(0, [{ position: [0, y, 0] }]);
    expect(system.state[floatIndex(0, 'position', 1)]).toBe(y);
    system.forces.add({ type: 'buoyancy', maxDepth, volume, waterHeight, liquidDensity, gravity });
    system.accumulateForces(1 / 60);
    return system.state[floatIndex(0, 'forceAccum', 1)] as number;
  }
  const band = [-0.49, -0.25, 0, 0.2, 0.49].map(Math.fround);

  it('in the band, Sparkworks’ force is -g times Cyclone’s: the same magnitude, upward, in newtons', () => {
    for (const y of band) {
      const mine = sparkworks(y, 9.81);
      expect(cyclone2020(y)).toBeLessThanOrEqual(0);
      expect(Math.abs(mine - -9.81 * cyclone2020(y)), `y ${y}`).toBeLessThanOrEqual(1e-12 * Math.abs(mine) + 1e-12);
      // gravity: 1 gives Cyclone's magnitude (its "force" is a mass, ρV).
      expect(Math.abs(sparkworks(y, 1) - Math.abs(cyclone2020(y))), `y ${y}`).toBeLessThanOrEqual(1e-12);
    }
  });

  it('Cyclone’s is continuous at the upper surface and jumps from -ρV to +ρV at the lower; the pre-2020 scale was off', () => {
    const top = waterHeight + maxDepth;
    const bottom = waterHeight - maxDepth;
    const eps = 2 ** -20;
    expect(Math.abs(cyclone2020(top - eps))).toBeLessThan(1e-3);
    expect(cyclone2020(bottom + eps)).toBeCloseTo(-liquidDensity * volume, 3);
    expect(cyclone2020(bottom)).toBe(liquidDensity * volume);
    // Sparkworks': continuous at both.
    expect(Math.abs(sparkworks(top - eps, 9.81))).toBeLessThan(1e-3);
    // Within the band's slope times eps (981 N per m here): 1e-3 N.
    expect(Math.abs(sparkworks(bottom + eps, 9.81) - sparkworks(bottom - eps, 9.81))).toBeLessThan(2e-3);
    // Before the fix the band was multiplied by maxDepth where it should divide: maxDepth² times the fixed
    // value, 4 times too small at maxDepth 0.5 (the two agree only when maxDepth = 1).
    for (const y of band) expect(cycloneBefore2020(y) / cyclone2020(y)).toBeCloseTo(maxDepth * maxDepth, 12);
  });
});

describe('damping follows Cyclone’s code, v = (v + a dt) k, not the book’s printed v k + a dt', () => {
  // Cyclone's Particle::integrate (seed 000): velocity.addScaledVector(resultingAcc, duration); then
  // velocity *= real_pow(damping, duration). The book's eq. 3.5 and 3.6 (seed 003) print
  // p' = p' d + p'' t and p' = p' d^t + p'' t: the acceleration's own contribution undamped.
  it.each([
    ['per-step', (d: number) => d],
    ['per-second', (d: number, dt: number) => Math.pow(d, dt)],
  ] as const)('%s', (damping, keep) => {
    const dt = Math.fround(1 / 30);
    const d = Math.fround(0.5);
    const a = Math.fround(-9.81);
    const v0 = 2;
    const system = new CpuParticleSystem({ capacity: 1, damping, precision: 'float64' });
    system.writeParticles(0, [{ position: [0, 0, 0], velocity: [0, v0, 0], acceleration: [0, a, 0], damping: d }]);
    system.step(1 / 30);
    const got = system.state[floatIndex(0, 'velocity', 1)] as number;
    const k = keep(d, dt);
    expect(got).toBe((v0 + a * dt) * k);
    // The book's form differs by a dt (1 - k): 0.16 m/s per-step, 0.0075 m/s per-second here.
    expect(Math.abs(got - (v0 * k + a * dt))).toBeCloseTo(Math.abs(a * dt * (1 - k)), 12);
    expect(Math.abs(got - (v0 * k + a * dt))).toBeGreaterThan(1e-3);
  });
});

describe('the contact resolver against Cyclone’s, given Cyclone’s contact generation (docs/collisions.md)', () => {
  const SKINS: ComparisonSkins = { cyclone: CYCLONE_SKIN, jacobi: 1e-4, residual: CYCLONE_SKIN };
  const scene = (start: string): ResolverScene => RESOLVER_SCENES.find((s) => s.name.startsWith(start))!;
  const K = [1, 4, 8, 16, 32, 64];

  it('a cable is Cyclone’s contact once length >= maxLength: CYCLONE_SKIN gives that, skin 0 misses it, 1e-4 adds more', () => {
    // plinks.cpp, ParticleCable::addContact: `if (length < maxLength) return 0;`.
    const cable = (length: number) => {
      const state = Float64Array.from(packParticles([{ position: [0, 0, 0] }, { position: [length, 0, 0] }]));
      const links = prepareLinks([{ type: 'cable', a: 0, b: 1, maxLength: 1.5 }], 2);
      return (skin: number) => generateContacts(state, 2, { links, skin }).length;
    };
    expect(cable(1.5)(CYCLONE_SKIN)).toBe(1);
    expect(cable(1.5)(0)).toBe(0);
    const nearlyTaut = Math.fround(1.5 - 5e-5);
    expect(cable(nearlyTaut)(CYCLONE_SKIN)).toBe(0);
    expect(cable(nearlyTaut)(1e-4)).toBe(1);
  });

  it('Newton’s cradle: Cyclone’s velocities from 4 iterations (one per contact down the row)', () => {
    const rows = compareResolvers(scene("Newton's cradle"), [1, 2, 3, 4, 8, 64], SKINS);
    for (const row of rows.slice(0, 3)) expect(row.velocity).toBeGreaterThan(0.5);
    for (const row of rows.slice(3)) expect(row.velocity).toBeLessThanOrEqual(1e-12);
  });

  it.each(RESOLVER_SCENES.map((s) => [s.name, s] as const))(
    '%s: 32 iterations leave no more unresolved than Cyclone’s default, and less penetration',
    (_, s) => {
      const [thirtyTwo] = compareResolvers(s, [32], SKINS);
      const cyclone = thirtyTwo!.cycloneDefaultResidual;
      expect(thirtyTwo!.jacobiResidual.closing).toBeLessThanOrEqual(cyclone.closing + 1e-12);
      expect(thirtyTwo!.jacobiResidual.penetration).toBeLessThan(cyclone.penetration);
    },
  );

  it.each(RESOLVER_SCENES.filter((s) => !s.name.includes('restitution 0')).map((s) => [s.name, s] as const))(
    '%s: from 4 iterations no more unresolved than Cyclone’s default',
    (_, s) => {
      for (const row of compareResolvers(s, [4, 8, 16], SKINS)) {
        expect(row.jacobiResidual.closing).toBeLessThanOrEqual(row.cycloneDefaultResidual.closing + 1e-12);
        expect(row.jacobiResidual.penetration).toBeLessThanOrEqual(row.cycloneDefaultResidual.penetration + 1e-12);
      }
    },
  );

  it('the bridge with restitution 0: more closing speed than Cyclone’s default until 32 (+50% at 8, +17% at 16), less penetration', () => {
    const rows = compareResolvers(scene("Cyclone's bridge, loaded, restitution 0"), K, SKINS);
    const ratio = (i: number) => rows[i]!.jacobiResidual.closing / rows[i]!.cycloneDefaultResidual.closing;
    expect(ratio(2)).toBeGreaterThan(1.45);
    expect(ratio(2)).toBeLessThan(1.55);
    expect(ratio(3)).toBeGreaterThan(1.12);
    expect(ratio(3)).toBeLessThan(1.22);
    expect(ratio(4)).toBeLessThan(1);
    for (const row of rows) {
      expect(row.jacobiResidual.penetration).toBeLessThan(row.cycloneDefaultResidual.penetration);
    }
  });

  it('the loaded bridge: Jacobi stays at least 0.1 m/s from Cyclone’s result at every K; Cyclone’s default is within 1e-6', () => {
    const rows = compareResolvers(scene("Cyclone's bridge, loaded"), K, SKINS);
    expect(rows[0]!.cycloneDefaultVelocity).toBeLessThan(1e-6);
    for (const row of rows) expect(row.velocity).toBeGreaterThan(0.1);
    // And Cyclone's converged result leaves a cable its corrections pulled taut: 0.15 m/s closing.
    expect(rows[0]!.cycloneResidual.closing).toBeGreaterThan(0.1);
  });
});
