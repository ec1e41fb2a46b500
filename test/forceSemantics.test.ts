/**
 * What each force must do, on the GPU and the CPU reference: Hooke's sign
 * both ways, drag at rest, equal and opposite pair springs and the momentum
 * of an isolated pair, an undamped anchored spring's amplitude against
 * Euler's own error, the stiff spring against the damped oscillator's closed
 * form, buoyancy continuous at both surfaces, turbulence divergence-free.
 *
 * Every tolerance is derived where it is used, from the per-operation rules of
 * test/support/forceBound.ts (whose `e` bounds |GPU - reference| and so, since
 * its 3u per operation covers each side's own rounding, |GPU - exact| too).
 */
import { describe, expect, it } from 'vitest';
import { dampedOscillator } from './support/oscillator';
import type { ParticleSystemApi } from '../src/core/api';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import type { ForceGenerator } from '../src/core/forces/generators';
import { stiffSpringCoefficients } from '../src/core/forces/records';
import { FOURIER_MODES, WAVE_MEAN_SQUARE, turbulenceOrigin, wave } from '../src/core/forces/turbulence';
import { FLOATS_PER_PARTICLE, attributeOffset } from '../src/core/layout';
import type { ParticleInit } from '../src/core/particles';
import type { Variant } from '../src/core/variants';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { U, accumulators, forceBound } from './support/forceBound';
import { useDevice } from './support/gpu';
import { seededRandom } from './support/random';

const gpu = useDevice();
const DT = 1 / 60;
const MULTIPLY_ADD = 3 * U;

type Backend = 'gpu' | 'cpu';
const BACKENDS: Backend[] = ['gpu', 'cpu'];

async function open(backend: Backend, capacity: number, variant: Partial<Variant> = {}): Promise<ParticleSystemApi> {
  return backend === 'gpu'
    ? ParticleSystem.create(gpu.get().device, { capacity, ...variant })
    : new CpuParticleSystem({ capacity, ...variant });
}

/**
 * Accumulated forces on `particles` under `setup`, from `backend`, with
 * the derived bound on their distance from the exact forces.
 */
async function forcesOn(
  backend: Backend,
  particles: readonly ParticleInit[],
  setup: (s: ParticleSystemApi) => void,
  dt = DT,
): Promise<{ force: Float32Array; error: Float64Array; reference: Float32Array }> {
  const system = await open(backend, particles.length);
  const reference = new CpuParticleSystem({ capacity: particles.length });
  for (const s of [system, reference]) {
    await s.writeParticles(0, particles);
    setup(s);
  }
  const bound = forceBound(reference.state, particles.length, reference.forces, reference.springs, Math.fround(dt));
  await system.accumulateForces(dt);
  reference.accumulateForces(dt);
  const force = accumulators(await system.readPacked(), particles.length);
  system.destroy();
  return { force, error: bound.error, reference: accumulators(reference.state, particles.length) };
}

describe.each(BACKENDS)('%s', (backend) => {
  it("Hooke's law: an anchored spring pulls when stretched and pushes when compressed", async () => {
    const spring: ForceGenerator = { type: 'anchoredSpring', anchor: [1, 2, 3], restLength: 2, stiffness: 3 };
    // Along a diagonal: stretched by 1.5, compressed by 1.5, and along x.
    const unit = [1, 1, 1].map((x) => x / Math.sqrt(3));
    const at = (length: number) => [1, 2, 3].map((a, c) => a + length * (unit[c] as number));
    const particles: ParticleInit[] = [
      { position: at(3.5) },
      { position: at(0.5) },
      { position: [4, 2, 3] },
      { position: [1.5, 2, 3] },
    ];
    const { force, error } = await forcesOn(backend, particles, (s) => s.forces.add(spring));
    // f = -k (|d| - rest) d/|d| in float64 from the stored (float32) positions: stretched by 1.5 it
    // pulls toward the anchor with 4.5, compressed by 1.5 it pushes out with 4.5; then -3 and +4.5 along x.
    particles.forEach((particle, i) => {
      const d = [0, 1, 2].map((c) => Math.fround(particle.position[c]!) - [1, 2, 3][c]!);
      const length = Math.hypot(...d);
      for (let c = 0; c < 3; c++) {
        const want = (-3 * (length - 2) * d[c]!) / length;
        expect(Math.abs(force[3 * i + c]! - want), `particle ${i} axis ${c}`).toBeLessThanOrEqual(error[3 * i + c]!);
      }
    });
    expect(Math.abs(Math.hypot(force[0]!, force[1]!, force[2]!) - 4.5)).toBeLessThan(1e-5);
    expect(force[0]).toBeLessThan(0); // stretched: pulled back toward the anchor
    expect(force[3]).toBeGreaterThan(0); // compressed: pushed out (Cyclone's abs() would pull here)
    expect(force[6]).toBeLessThan(0);
    expect(force[9]).toBeGreaterThan(0);
  });

  it('a bungee pulls when stretched and does nothing when slack; pair springs both ways', async () => {
    const particles: ParticleInit[] = [
      { position: [0, 0, 0] },
      { position: [4, 0, 0] }, // pair 0-1 stretched: rest 2
      { position: [10, 0, 0] },
      { position: [11, 0, 0] }, // pair 2-3 compressed: rest 2
      { position: [20, 0, 0] },
      { position: [21, 0, 0] }, // bungee 4-5 slack: rest 2
      { position: [30, 0, 0] },
      { position: [35, 0, 0] }, // bungee 6-7 stretched: rest 2
    ];
    const { force, error } = await forcesOn(backend, particles, (s) =>
      s.springs.setLinks([
        { a: 0, b: 1, restLength: 2, stiffness: 1 },
        { a: 2, b: 3, restLength: 2, stiffness: 1 },
        { a: 4, b: 5, restLength: 2, stiffness: 1, kind: 'bungee' },
        { a: 6, b: 7, restLength: 2, stiffness: 1, kind: 'bungee' },
      ]),
    );
    // Stretched: the ends pulled together; compressed: pushed apart; a slack bungee: nothing at all.
    const expected = [
      [2, 0, 0, -2, 0, 0],
      [-1, 0, 0, 1, 0, 0],
      [0, 0, 0, 0, 0, 0],
      [3, 0, 0, -3, 0, 0],
    ].flat();
    expected.forEach((want, j) => expect(Math.abs(force[j]! - want), `force[${j}]`).toBeLessThanOrEqual(error[j]!));
    expect(Array.from(force.subarray(12, 18))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('drag is exactly zero at rest (no NaN), and a resting particle stays put', async () => {
    const particles: ParticleInit[] = [{ position: [1, 2, 3] }, { position: [0, 0, 0], velocity: [3, -4, 0] }];
    const drag: ForceGenerator = { type: 'drag', k1: 0.5, k2: 0.25 };
    const { force, error } = await forcesOn(backend, particles, (s) => s.forces.add(drag));
    expect(Array.from(force.subarray(0, 3))).toEqual([0, 0, 0]);
    // |v| = 5: f = -v (k1 + k2 |v|) = -v * 1.75, opposing the motion.
    [3 * -1.75, -4 * -1.75, 0].forEach((want, c) => {
      expect(Math.abs((force[3 + c] as number) - want)).toBeLessThanOrEqual(error[3 + c] as number);
    });
    const system = await open(backend, 1, { damping: 'off' });
    await system.writeParticles(0, [particles[0]!]);
    system.forces.add(drag);
    await system.stepMany(DT, 100);
    const state = await system.read();
    expect(Array.from(state.position)).toEqual([1, 2, 3].map(Math.fround));
    expect(Array.from(state.velocity)).toEqual([0, 0, 0]);
    system.destroy();
  });

  it('gives every mass the acceleration g, and nothing to an immovable particle', async () => {
    const masses = [0.01, 0.1, 1, 7, 1000];
    const particles: ParticleInit[] = [
      ...masses.map((mass) => ({ position: [0, 0, 0], mass })),
      { position: [0, 0, 0], inverseMass: 0 },
    ];
    const system = await open(backend, particles.length, { damping: 'off' });
    await system.writeParticles(0, particles);
    await system.addForces(5, [1, 2, 3]); // an immovable particle keeps what it was given
    system.forces.add({ type: 'gravity', g: [0, -9.81, 0] });
    await system.step(DT);
    const state = await system.read();
    const g = Math.fround(-9.81);
    const dt = Math.fround(DT);
    masses.forEach((_, i) => {
      // Against exact arithmetic on the stored values: f = g/w within 2.5 ULP (5u), acc = f w and
      // v = acc dt within 1 ULP each (2u): 9u, first order; 12u covers the second-order terms.
      expect(Math.abs((state.velocity[3 * i + 1] as number) - g * dt)).toBeLessThanOrEqual(12 * U * Math.abs(g * dt));
    });
    expect(Array.from(state.forceAccum.subarray(15, 18))).toEqual([1, 2, 3]);
    system.destroy();
  });
});

describe('pair springs conserve momentum', () => {
  it.each(BACKENDS)(
    '%s: equal and opposite forces, and an isolated pair keeps its momentum for 300 steps',
    async (backend) => {
      const particles: ParticleInit[] = [
        { position: [0, 0, 0], velocity: [1, 2, -1], mass: 1 },
        { position: [3, 1, -2], velocity: [-0.5, 0, 1], mass: 3 },
      ];
      // The masses the step really uses: 1/w of the stored inverse masses, so that m w = 1 exactly.
      const masses = particles.map((p) => 1 / Math.fround(1 / p.mass!));
      const link = { a: 0, b: 1, restLength: 2, stiffness: 5 };
      const system = await open(backend, 2, { damping: 'off' });
      await system.writeParticles(0, particles);
      system.springs.setLinks([link]);
      const momentum = (v: ArrayLike<number>) => [0, 1, 2].map((c) => masses[0]! * v[c]! + masses[1]! * v[3 + c]!);
      const start = momentum((await system.read()).velocity);
      const drift = [0, 0, 0];
      const allowed = [0, 0, 0];
      for (let step = 0; step < 300; step++) {
        // The forces this step: the reference's on the same state, bounded.
        const state = await system.readPacked();
        const reference = new CpuParticleSystem({ capacity: 2, damping: 'off' });
        reference.state.set(state);
        reference.springs.setLinks([link]);
        const bound = forceBound(reference.state, 2, null, reference.springs, DT);
        reference.accumulateForces(DT);
        const f = accumulators(reference.state, 2);
        // The reference's forces are exactly opposite (the other end sees -d, the same length).
        for (let c = 0; c < 3; c++) expect(f[c]).toBe(-f[3 + c]!);
        await system.step(DT);
        // Per step and axis: m_a dv_a + m_b dv_b = dt (f_a + f_b) = 0 exactly; what float32 adds is
        // each side's velocity update (errorBound's 3u per multiply-add, acceleration then velocity)
        // and the GPU's force errors (|f_a + f_b| <= e_a + e_b, the reference's being exactly opposite).
        const dt = Math.fround(DT);
        for (let c = 0; c < 3; c++) {
          let perStep = dt * ((bound.error[c] as number) + (bound.error[3 + c] as number)) * (1 + MULTIPLY_ADD);
          for (let i = 0; i < 2; i++) {
            const w = 1 / masses[i]!;
            const v = Math.abs(state[i * FLOATS_PER_PARTICLE + attributeOffset('velocity') + c] as number);
            const fw = Math.abs((f[3 * i + c] as number) * w);
            perStep += masses[i]! * (dt * MULTIPLY_ADD * fw + MULTIPLY_ADD * (v + fw * dt));
          }
          allowed[c] = (allowed[c] as number) + perStep;
        }
      }
      const end = momentum((await system.read()).velocity);
      for (let c = 0; c < 3; c++) {
        drift[c] = Math.abs(end[c]! - start[c]!);
        // Start and end momenta are summed here in float64 from float32 velocities: exact enough (< 2^-50 relative).
        expect(drift[c], `momentum[${'xyz'[c]}]`).toBeLessThanOrEqual(allowed[c]! + 1e-14);
      }
      system.destroy();
    },
  );
});

describe('an undamped anchored spring keeps the amplitude Euler predicts', () => {
  // x'' = -ω² x, ω = 2π (k = 4π² m): the particle on the x axis, anchor at the origin, rest length 0.
  const mass = 2;
  const stiffness = 4 * Math.PI * Math.PI * mass;
  // ω² as stored: the float32 stiffness times the inverse mass 1/2 (exact).
  const omega = Math.sqrt(Math.fround(stiffness) / mass);
  const steps = 300;

  it.each([
    ['explicit', 'gpu'],
    ['explicit', 'cpu'],
    ['semi-implicit', 'gpu'],
    ['semi-implicit', 'cpu'],
  ] as const)('%s on %s', async (integrator, backend) => {
    const system = await open(backend, 1, { integrator, damping: 'off' });
    await system.writeParticles(0, [{ position: [1, 0, 0], velocity: [0, 0, 0], mass }]);
    system.forces.add({ type: 'anchoredSpring', anchor: [0, 0, 0], restLength: 0, stiffness });
    const dt = Math.fround(DT);
    const w2 = (omega * dt) ** 2;
    // Explicit Euler scales ω²x² + v² by exactly 1 + ω²dt² a step (its first-order energy error);
    // semi-implicit Euler keeps Q = ω²x² + v² - ω²dt x v exactly. Norms whose growth is exact:
    const norm = (x: number, v: number) =>
      Math.sqrt(
        integrator === 'explicit'
          ? omega * omega * x * x + v * v
          : omega * omega * x * x + v * v - omega * omega * dt * x * v,
      );
    const gain = integrator === 'explicit' ? Math.sqrt(1 + w2) : 1;
    let allowed = 0;
    let x = 1;
    let v = 0;
    const start = norm(x, v);
    for (let step = 0; step < steps; step++) {
      // The local float32 error of this step, from the GPU's own state: the force's bound, then
      // errorBound's 3u per multiply-add for the acceleration, velocity and position.
      const reference = new CpuParticleSystem({ capacity: 1, integrator, damping: 'off' });
      reference.writeParticles(0, [{ position: [x, 0, 0], velocity: [v, 0, 0], mass }]);
      reference.forces.add({ type: 'anchoredSpring', anchor: [0, 0, 0], restLength: 0, stiffness });
      const bound = forceBound(reference.state, 1, reference.forces, null, dt);
      const f = -Math.fround(stiffness) * x;
      const acc = f / mass;
      const errorV =
        dt * ((bound.error[0] as number) / mass + MULTIPLY_ADD * Math.abs(acc)) +
        MULTIPLY_ADD * (Math.abs(v) + Math.abs(acc * dt));
      const newV = v + acc * dt;
      const moveWith = integrator === 'explicit' ? v : newV;
      const errorX =
        MULTIPLY_ADD * (Math.abs(x) + Math.abs(moveWith * dt)) + (integrator === 'explicit' ? 0 : dt * errorV);
      // In the norm: explicit |η| <= ω e_x + e_v; semi-implicit Q(η) <= (1 + ω dt/2)(ω² e_x² + e_v²).
      const local =
        integrator === 'explicit'
          ? omega * errorX + errorV
          : Math.sqrt(1 + (omega * dt) / 2) * (omega * errorX + errorV);
      // Earlier local errors grow with the map: explicit scales every state by `gain` a step, semi-implicit is an isometry.
      allowed = allowed * gain + local;
      await system.step(DT);
      const state = await system.read();
      x = state.position[0] as number;
      v = state.velocity[0] as number;
    }
    const predicted = start * gain ** steps;
    expect(Math.abs(norm(x, v) - predicted)).toBeLessThanOrEqual(allowed);
    // Not a tolerance: a check that the rounding bound is small beside what Euler's order does
    // (explicit grows ~26-fold here), so the comparison above says something.
    expect(allowed).toBeLessThan(1e-3 * predicted);
    if (integrator === 'semi-implicit') {
      // Q sits between (1 ∓ ω dt/2)(ω²x² + v²): the physical amplitude stays within that ratio of its start.
      const amplitude = Math.sqrt(x * x + (v * v) / (omega * omega));
      const ratio = Math.sqrt((1 + (omega * dt) / 2) / (1 - (omega * dt) / 2));
      expect(amplitude).toBeLessThanOrEqual(ratio * (1 + allowed / start));
      expect(amplitude).toBeGreaterThanOrEqual((1 / ratio) * (1 - allowed / start));
    }
    system.destroy();
  });
});

describe('the stiff spring (Cyclone’s ParticleFakeSpring) against the damped oscillator’s closed form', () => {
  const regimes = [
    ['underdamped', 100, 2],
    ['critically damped', 25, 10],
    ['overdamped (Cyclone: NaN)', 1, 20],
    ['undamped and very stiff', 1e6, 0],
    ['no spring, only damping', 0, 3],
  ] as const;

  it.each(regimes)('%s: the host coefficients reproduce x(dt) in float64', (_, k, d) => {
    for (const dt of [1e-4, 1 / 60, 0.5]) {
      const [a, b] = stiffSpringCoefficients(k, d, dt);
      for (const [x0, v0] of [
        [1, 0],
        [0, 1],
        [-2, 3],
      ] as const) {
        const landed = x0 + v0 * dt + (a * x0 + b * v0) * dt * dt;
        const exact = dampedOscillator(k, d, x0, v0, dt);
        // Both are float64 evaluations of a few dozen operations on values of size |x0| + |v0| dt + |exact|
        // (and, for the landing, |A x0 + B v0| dt²); 2^-40 of that is far above their rounding.
        const size = Math.abs(x0) + Math.abs(v0 * dt) + Math.abs(exact) + Math.abs((a * x0 + b * v0) * dt * dt);
        expect(Math.abs(landed - exact), `dt ${dt}, x0 ${x0}, v0 ${v0}`).toBeLessThanOrEqual(2 ** -40 * size);
      }
    }
  });

  it.each(regimes.flatMap(([name, k, d]) => BACKENDS.map((backend) => [name, backend, k, d] as const)))(
    '%s on %s: one semi-implicit step lands on x(dt), no NaN',
    async (_, backend, k, d) => {
      const random = seededRandom(k + d);
      const particles: ParticleInit[] = Array.from({ length: 16 }, () => ({
        position: [0, 1, 2].map(() => random() * 4 - 2),
        velocity: [0, 1, 2].map(() => random() * 4 - 2),
        mass: 0.5 + 3 * random(),
      }));
      const anchor = [0.5, -0.25, 1];
      const system = await open(backend, particles.length, { integrator: 'semi-implicit', damping: 'off' });
      await system.writeParticles(0, particles);
      system.forces.add({ type: 'stiffSpring', anchor, stiffness: k, damping: d });
      const before = await system.readPacked();
      const reference = new CpuParticleSystem({ capacity: particles.length });
      reference.state.set(before);
      reference.forces.add({ type: 'stiffSpring', anchor, stiffness: k, damping: d });
      const dt = Math.fround(DT);
      const bound = forceBound(reference.state, particles.length, reference.forces, null, dt);
      reference.accumulateForces(DT);
      const f = accumulators(reference.state, particles.length);
      const [a, b] = stiffSpringCoefficients(k, d, dt);
      await system.step(DT);
      const after = await system.read();
      particles.forEach((_, i) => {
        const w = before[i * FLOATS_PER_PARTICLE + attributeOffset('inverseMass')] as number;
        for (let c = 0; c < 3; c++) {
          const x0 =
            (before[i * FLOATS_PER_PARTICLE + attributeOffset('position') + c] as number) - (anchor[c] as number);
          const v0 = before[i * FLOATS_PER_PARTICLE + attributeOffset('velocity') + c] as number;
          const exact = (anchor[c] as number) + dampedOscillator(k, d, x0, v0, dt);
          // x1 = x0 + (v0 + f w dt) dt lands exactly on x(dt) with exact A, B and arithmetic. Float32:
          // A and B rounded (u |A x0| + u |B v0|, also x0 = position - anchor's u|x0|), the force (bound e),
          // then errorBound's 3u per multiply-add for the acceleration, the velocity and the position.
          const accel = Math.abs((f[3 * i + c] as number) * w);
          const coefficients = U * (Math.abs(a * x0) + Math.abs(b * v0) + Math.abs(a) * U * Math.abs(x0));
          const errorV =
            dt * (w * (bound.error[3 * i + c] as number) + coefficients + MULTIPLY_ADD * accel) +
            MULTIPLY_ADD * (Math.abs(v0) + accel * dt);
          const v1 = Math.abs(v0) + accel * dt;
          const errorX = dt * errorV + MULTIPLY_ADD * (Math.abs(x0 + (anchor[c] as number)) + v1 * dt);
          const got = after.position[3 * i + c] as number;
          expect(Number.isFinite(got)).toBe(true);
          // The expected value itself: float64, < 2^-40 of its size (previous test); the anchor's float32 rounding: u.
          const slack = errorX + 2 ** -40 * (Math.abs(exact) + 1) + U * Math.abs(anchor[c] as number);
          expect(Math.abs(got - exact), `particle ${i} axis ${c}`).toBeLessThanOrEqual(slack);
        }
      });
      system.destroy();
    },
  );

  it.each(BACKENDS)('%s: stays bounded where Hooke’s spring of the same stiffness explodes', async (backend) => {
    // ω dt = 150/60 = 2.5: past 2, where semi-implicit Euler on -k x turns unstable (trace 2 - (ω dt)² < -2),
    // below π, where the stiff spring's own recurrence (characteristic roots of product sin(θ)/θ) stays inside
    // the unit circle. (Past π, undamped, it would not either: Cyclone's construction has that limit too.)
    const k = 150 * 150;
    const system = await open(backend, 2, { integrator: 'semi-implicit', damping: 'off' });
    await system.writeParticles(0, [
      { position: [1, 0, 0], mass: 1 },
      { position: [1, 0, 0], mass: 1 },
    ]);
    system.forces.add({ type: 'stiffSpring', anchor: [0, 0, 0], stiffness: k, damping: 0 }, { start: 0, count: 1 });
    system.forces.add(
      { type: 'anchoredSpring', anchor: [0, 0, 0], restLength: 0, stiffness: k },
      { start: 1, count: 1 },
    );
    await system.stepMany(DT, 20);
    const state = await system.read();
    expect(Math.abs(state.position[0] as number)).toBeLessThanOrEqual(1);
    expect(Math.abs(state.position[3] as number)).toBeGreaterThan(1e6);
    system.destroy();
  });
});

describe('buoyancy', () => {
  const buoyancy = {
    type: 'buoyancy',
    maxDepth: 0.5,
    volume: 0.1,
    waterHeight: 2,
    liquidDensity: 1000,
    gravity: 9.81,
  } as const;
  const full = 1000 * 0.1 * 9.81;
  const slope = full / (2 * 0.5);
  // y from below the band to above it, through both surfaces (1.5 and 2.5), and points right at them.
  const ys = [
    ...Array.from({ length: 801 }, (_, i) => 1.3 + i * 0.0005),
    1.5,
    2.5,
    2,
    Math.fround(1.5) - 1e-7,
    2.5 + 1e-7,
  ].sort((a, b) => a - b);

  it.each(BACKENDS)(
    '%s: full force below the band, none above it, continuous through both surfaces',
    async (backend) => {
      const particles = ys.map((y) => ({ position: [0, y, 0] }));
      const { force, error } = await forcesOn(backend, particles, (s) => s.forces.add(buoyancy));
      const up = (i: number) => force[3 * i + 1] as number;
      ys.forEach((y, i) => {
        expect(force[3 * i]).toBe(0);
        expect(force[3 * i + 2]).toBe(0);
        if (Math.fround(y) >= 2.5) expect(up(i), `y = ${y}`).toBe(0);
        if (Math.fround(y) <= 1.5) expect(up(i), `y = ${y}`).toBe(Math.fround(full));
      });
      for (let i = 1; i < ys.length; i++) {
        // The exact force is Lipschitz with slope ρVg/(2 maxDepth); each computed value is within
        // 2e of it (e = |GPU - reference|, and the reference's own rounding is within e).
        const dy = Math.abs(Math.fround(ys[i]!) - Math.fround(ys[i - 1]!));
        const allowed = slope * dy + 2 * ((error[3 * i + 1] as number) + (error[3 * i - 2] as number));
        expect(Math.abs(up(i) - up(i - 1)), `between y = ${ys[i - 1]} and ${ys[i]}`).toBeLessThanOrEqual(allowed);
      }
    },
  );

  it("the same check catches Cyclone's partly-submerged formula", () => {
    // pfgen.cpp: force.y = ρV (depth - maxDepth - waterHeight) / 2 * maxDepth, and ρV fully submerged.
    const cyclone = (y: number) => (y >= 2.5 ? 0 : y <= 1.5 ? 1000 * 0.1 : ((1000 * 0.1 * (y - 0.5 - 2)) / 2) * 0.5);
    const jump = Math.abs(cyclone(1.5 + 1e-6) - cyclone(1.5));
    // The rounding allowance above is 2e per side, under 1e-3 N for forces of 981 N.
    expect(jump).toBeGreaterThan(slope * 1e-6 + 1e-3);
  });
});

describe('turbulence', () => {
  const turbulence = { type: 'turbulence', strength: 2, frequency: 0.7, seed: 99, offset: [0.3, -0.2, 0.1] } as const;
  const S = turbulence.strength;
  /** The record's float32 frequency and origin: q = x f + origin. */
  const f = Math.fround(turbulence.frequency);
  const origin = turbulenceOrigin(turbulence.offset, f, turbulence.seed).map(Math.fround);
  const identity = (x: number) => x;
  const dotK = (k: readonly number[], q: readonly number[]) => k.reduce((s, kc, c) => s + kc * (q[c] as number), 0);
  const tOf = (mode: (typeof FOURIER_MODES)[number], x: readonly number[]) =>
    dotK(
      mode.k,
      x.map((xc, c) => xc * f + (origin[c] as number)),
    ) + mode.phase;

  /**
   * wave is piecewise quadratic in t, its second derivative ±32 jumping where
   * 2 t is an integer. Between those kinks each mode, and so each force
   * component along an axis, is a quadratic in the position, and a central
   * difference of a quadratic is its derivative at the midpoint exactly. So
   * sample points are drawn whose stencils (±h, and `slack` for the rounding
   * of the positions) cross no mode's kink.
   */
  function samples(count: number, h: number, seed: number): number[][] {
    const random = seededRandom(seed);
    const points: number[][] = [];
    const slack = 1e-3 * h + 1e-6;
    while (points.length < count) {
      const p = [0, 1, 2].map(() => random() * 20 - 10);
      const crosses = FOURIER_MODES.some((mode) =>
        [0, 1, 2].some((axis) => {
          const at = (step: number) =>
            tOf(
              mode,
              p.map((x, c) => (c === axis ? x + step : x)),
            );
          const reach = Math.abs(mode.k[axis] as number) * f * (h + slack);
          const t = at(0);
          return Math.floor(2 * (t - reach)) !== Math.floor(2 * (t + reach));
        }),
      );
      if (!crosses) points.push(p);
    }
    return points;
  }

  /** |∂²F_i/∂x_i∂x_j| summed over j, for the worst i: S f² Σ_m |A_mi| |k_mi| Σ_j |k_mj| 32. */
  const SECOND = Math.max(
    ...[0, 1, 2].map((i) =>
      FOURIER_MODES.reduce(
        (sum, m) =>
          sum + Math.abs(m.amplitude[i]!) * Math.abs(m.k[i]!) * m.k.reduce((t, kj) => t + Math.abs(kj), 0) * 32,
        0,
      ),
    ),
  );
  /** The exact field's divergence with the float32 table: f S Σ (A_m · k_m) wave'(t), |wave'| <= 8. */
  const TABLE_DIVERGENCE = 8 * f * S * FOURIER_MODES.reduce((sum, m) => sum + Math.abs(dotK(m.k, m.amplitude)), 0);

  it.each(BACKENDS)('%s: divergence-free up to the float32 bound', async (backend) => {
    const h = 0.01;
    const points = samples(40, h, 5);
    const particles: ParticleInit[] = points.flatMap((p) =>
      [0, 1, 2].flatMap((axis) => [-h, h].map((step) => ({ position: p.map((x, c) => (c === axis ? x + step : x)) }))),
    );
    const { force, error } = await forcesOn(backend, particles, (s) => s.forces.add(turbulence));
    const sizes: number[] = [];
    const bounds: number[] = [];
    points.forEach((_, k) => {
      let divergence = 0;
      let allowed = TABLE_DIVERGENCE;
      let size = 0;
      for (let axis = 0; axis < 3; axis++) {
        const minus = 6 * k + 2 * axis;
        const plus = minus + 1;
        const x = (i: number) => Math.fround(particles[i]!.position[axis]!);
        const span = x(plus) - x(minus);
        const partial = ((force[3 * plus + axis] as number) - (force[3 * minus + axis] as number)) / span;
        divergence += partial;
        size += Math.abs(partial);
        // No truncation (no kink in the stencil); each force within 2e of the exact field; the
        // stencil's midpoint off the point by the positions' rounding (u|x| per axis), times the
        // field's second derivatives.
        allowed += (2 * ((error[3 * plus + axis] as number) + (error[3 * minus + axis] as number))) / span;
        allowed += 3 * U * (Math.abs(x(plus)) + h) * S * f * f * SECOND;
      }
      expect(Math.abs(divergence), `point ${k}`).toBeLessThanOrEqual(allowed);
      sizes.push(size);
      bounds.push(allowed);
    });
    // Not a tolerance: for the check to mean anything the bound must sit well below the partial
    // derivatives it sums (a field that is not divergence-free leaves them unbalanced).
    const median = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1] as number;
    expect(median(bounds)).toBeLessThan(0.1 * median(sizes));
  });

  it('in float64 the divergence is the float32 table’s A·k residue, where a longitudinal field’s is not', () => {
    const reference = new CpuParticleSystem({ capacity: 1, precision: 'float64' });
    reference.forces.add(turbulence);
    const accumulator = attributeOffset('forceAccum');
    // Positions set in float64 directly (writeParticles would round them to float32).
    const F = (p: number[]) => {
      reference.state.set(p, attributeOffset('position'));
      reference.state.fill(0, accumulator, accumulator + 3);
      reference.accumulateForces(DT);
      return Array.from(reference.state.subarray(accumulator, accumulator + 3));
    };
    // The same modes with each amplitude turned along its wave vector: div = f S Σ |A||k| wave'(t) ≠ 0.
    const longitudinal = (p: number[]) =>
      FOURIER_MODES.reduce(
        (sum, mode) => {
          const length = Math.hypot(...mode.k);
          const size = Math.hypot(...mode.amplitude);
          const w = wave(tOf(mode, p), identity);
          return sum.map((v, c) => v + ((size * (mode.k[c] as number)) / length) * w * S);
        },
        [0, 0, 0],
      );
    const h = 1e-4;
    // float64 rounding of each force: t within 8 operations of 2^-53 (|t| + 1) each, wave's slope
    // 8, its own 4 roundings, then 16 products and sums: under 2^-53 (64 (max|t| + 1) + 64) S Σ|A|.
    const sumA = FOURIER_MODES.reduce((s, m) => s + m.amplitude.reduce((t, a) => t + Math.abs(a), 0), 0);
    const divergences: number[] = [];
    const contrasts: number[] = [];
    let allowed = 0;
    for (const p of samples(20, h, 6)) {
      const maxT = Math.max(...FOURIER_MODES.map((m) => Math.abs(tOf(m, p)) + Math.abs(m.k[0]!) + 1));
      allowed = TABLE_DIVERGENCE + (3 * 2 * 2 ** -53 * (64 * maxT + 64) * S * sumA) / (2 * h);
      let divergence = 0;
      let contrast = 0;
      for (let axis = 0; axis < 3; axis++) {
        const at = (step: number) => p.map((x, c) => (c === axis ? x + step : x));
        divergence += ((F(at(h))[axis] as number) - (F(at(-h))[axis] as number)) / (2 * h);
        contrast += ((longitudinal(at(h))[axis] as number) - (longitudinal(at(-h))[axis] as number)) / (2 * h);
      }
      expect(Math.abs(divergence)).toBeLessThanOrEqual(allowed);
      divergences.push(Math.abs(divergence));
      contrasts.push(Math.abs(contrast));
    }
    contrasts.sort((a, b) => a - b);
    expect(contrasts[contrasts.length >> 1]).toBeGreaterThan(1000 * allowed);
  });

  it('its modes are transverse, span two octaves and carry the stated spectrum', () => {
    const u = 2 ** -24;
    let energy = 0;
    const sizes: number[] = [];
    for (const { k, amplitude } of FOURIER_MODES) {
      // A ⊥ k before each was rounded to float32 (u relative per component).
      const products = k.reduce((s, kc, c) => s + Math.abs(kc * (amplitude[c] as number)), 0);
      expect(Math.abs(dotK(k, amplitude))).toBeLessThanOrEqual(3 * u * products + 1e-15);
      const frequency = Math.hypot(...k);
      expect(frequency).toBeGreaterThanOrEqual(0.5 * (1 - 2 * u));
      expect(frequency).toBeLessThanOrEqual(2 * (1 + 2 * u));
      const size = Math.hypot(...amplitude);
      energy += size * size;
      // Kolmogorov: amplitude ∝ frequency^(-1/3) for log-spaced modes.
      sizes.push(size * frequency ** (1 / 3));
    }
    for (const x of sizes) expect(Math.abs(x / (sizes[0] as number) - 1)).toBeLessThanOrEqual(8 * u);
    // Each component's mean square is Σ A_mc² <wave²>: the three sum to 3.
    expect(Math.abs(energy * WAVE_MEAN_SQUARE - 3)).toBeLessThanOrEqual(3 * 8 * u);
    // <wave²> = 8/15: wave is 4x - 4x² on [0, 1/2] and odd about 1/2; a midpoint rule on n cells
    // errs by at most max|(w²)''| / (24 n²) = 128 / (24 n²).
    const n = 4096;
    let meanSquare = 0;
    for (let i = 0; i < n; i++) meanSquare += wave((i + 0.5) / n, identity) ** 2 / n;
    expect(Math.abs(meanSquare - WAVE_MEAN_SQUARE)).toBeLessThanOrEqual(128 / (24 * n * n) + 1e-12);
  });

  it('is deterministic given its seed, and another seed is another field', async () => {
    const particles = samples(50, 0, 7).map((position) => ({ position }));
    const a = await forcesOn('gpu', particles, (s) => s.forces.add(turbulence));
    const b = await forcesOn('gpu', particles, (s) => s.forces.add(turbulence));
    const c = await forcesOn('gpu', particles, (s) => s.forces.add({ ...turbulence, seed: 100 }));
    expect(Array.from(b.force)).toEqual(Array.from(a.force));
    let differ = 0;
    c.force.forEach((x, j) => (differ += Math.abs(x - (a.force[j] as number)) > 0.1 * turbulence.strength ? 1 : 0));
    expect(differ).toBeGreaterThan(c.force.length / 2);
  });
});
