/**
 * Colliders on the GPU against the CPU twin, every collider kind inside and
 * outside, with the float32 bound of test/support/collisionBound.ts chained
 * after the step's (test/support/errorBound.ts); and the physics they promise:
 * a dropped ball bounces to the height restitution predicts and comes to rest
 * without sinking or jitter, nothing passes through a plane or leaves a
 * container at the speeds the README names, killed particles stay dead, and
 * bad collider parameters are refused with the state unchanged.
 */
import { describe, expect, it } from 'vitest';
import { collide } from '../src/core/collisions/collide';
import { prepareColliders, type ColliderInit } from '../src/core/collisions/colliders';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { SparkworksInputError } from '../src/core/errors';
import { integrate } from '../src/core/integrate';
import { OFFSET, FLOATS_PER_PARTICLE } from '../src/core/layout';
import { packParticles, type ParticleInit } from '../src/core/particles';
import type { ParticleSystemApi } from '../src/core/api';
import { variantName, type Variant } from '../src/core/variants';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { advanceThroughColliders } from './support/collisionBound';
import { StepErrorBound, UNIT_ROUNDOFF, compareWithBound } from './support/errorBound';
import { useDevice } from './support/gpu';
import { expectRefusedUnchanged } from './support/refusal';
import { seededRandom } from './support/random';

const gpu = useDevice();
const DT = 1 / 60;
const SKIN = 1e-4;
const u = UNIT_ROUNDOFF;
const { RADIUS, POSITION, VELOCITY } = OFFSET;

/** Particles scattered in a cube around `center`, thrown in random directions under gravity. */
function cloud(count: number, seed: number, center: number[], spread: number): ParticleInit[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const particle: ParticleInit = {
      position: center.map((c) => c + (random() * 2 - 1) * spread),
      velocity: [0, 1, 2].map(() => (random() * 2 - 1) * 4),
      acceleration: [0, -9.81, 0],
      damping: 0.99,
      radius: 0.02 + random() * 0.2,
    };
    if (i % 11 === 5)
      particle.inverseMass = 0; // immovable: never moved
    else particle.mass = 0.2 + random() * 3;
    return particle;
  });
}

/**
 * Runs a scene on the GPU and on the twin (the step, then the colliders,
 * driven function by function so the bound can be carried between them) and
 * checks the GPU: positions and velocities within the carried bound,
 * everything else bit for bit.
 *
 * `resync`: before each step the GPU is given the twin's state, so each step
 * is checked from identical inputs with a one-step bound. Without it the
 * bound is carried across all the steps; it is first-order and per component,
 * so each bounce may multiply it by up to ~3 (a reflection mixes the three
 * components' bounds), and only a few steps are compared that way.
 */
async function runBoth(
  particles: ParticleInit[],
  colliders: ColliderInit[],
  steps: number,
  options: { variant?: Variant; resync?: boolean } = {},
): Promise<{ state: Float32Array; touched: number }> {
  const variant = options.variant ?? { integrator: 'explicit', damping: 'per-second' };
  const count = particles.length;
  const system = await ParticleSystem.create(gpu.get().device, {
    capacity: count,
    ...variant,
    collisions: { colliders, skin: SKIN },
  });
  try {
    await system.writeParticles(0, particles);
    const state = packParticles(particles);
    const packed = prepareColliders(colliders);
    const params = { dt: Math.fround(DT), skin: Math.fround(SKIN) };
    let bound = new StepErrorBound(count, variant);
    const touched = new Set<number>();
    for (let step = 1; step <= steps; step++) {
      if (options.resync) {
        system.particles.write(0, state);
        bound = new StepErrorBound(count, variant);
      }
      await system.step(DT);
      bound.advance(state, Math.fround(DT));
      integrate(state, count, Math.fround(DT), variant, Math.fround);
      const predicted = advanceThroughColliders(bound, state, packed, params);
      const stepped = state.slice();
      collide(state, count, packed, params, Math.fround);
      for (let i = 0; i < count * FLOATS_PER_PARTICLE; i++) {
        if (stepped[i] !== state[i]) touched.add(Math.floor(i / FLOATS_PER_PARTICLE));
      }
      // The bound re-ran the twin op by op: it must have predicted it exactly.
      expect(Buffer.from(predicted.buffer).equals(Buffer.from(state.buffer)), 'the bound mirrors the twin').toBe(true);
      const got = await system.readPacked();
      const context = `${colliders.map((c) => c.type).join('+')} (${variantName(variant)}), ${count} particles, step ${step}`;
      expect(compareWithBound(got, state, bound, context)).toBeNull();
      for (let i = 0; i < count; i++) {
        const at = i * FLOATS_PER_PARTICLE + RADIUS;
        expect(got[at], `particle ${i} radius after step ${step}`).toBe(state[at]);
      }
    }
    return { state, touched: touched.size };
  } finally {
    system.destroy();
  }
}

const surface = { restitution: 0.6, friction: 0.3 };

describe('colliders: GPU against the CPU twin, within the derived float32 bound', () => {
  // Each scene's particles start around the collider's surface and move
  // through it for 40 steps; the bound throws (naming the particle) if one
  // ever comes within float32 rounding of a threshold where GPU and CPU could
  // branch apart (a contact starting, a kill, a box face chosen): these seeds
  // keep every particle clear of that, and the test would say if not.
  const box = { center: [0, 0, 0], halfExtents: [0.8, 0.5, 0.6], ...surface };
  /** The oriented boxes' quaternion. */
  const TURN = [0.3, 0.2, 0.1, 0.9];
  const cases: [string, ColliderInit[], number[], number][] = [
    ['a ground plane', [{ type: 'plane', normal: [0, 1, 0], offset: 0, ...surface }], [0, 0.6, 0], 0.6],
    ['an oblique plane', [{ type: 'plane', normal: [0.3, 1, -0.2], offset: 0.2, ...surface }], [0, 0.6, 0], 0.6],
    ['a sphere, outside', [{ type: 'sphere', center: [0, 0, 0], radius: 1, ...surface }], [0, 0, 0], 1.4],
    ['a sphere, inside', [{ type: 'sphere', center: [0, 0, 0], radius: 1, inside: true, ...surface }], [0, 0, 0], 0.9],
    ['a box, outside', [{ type: 'box', ...box }], [0, 0, 0], 1.3],
    ['a box, inside', [{ type: 'box', ...box, inside: true }], [0, 0, 0], 0.7],
    ['an oriented box, outside', [{ type: 'orientedBox', ...box, rotation: TURN }], [0, 0, 0], 1.3],
    ['an oriented box, inside', [{ type: 'orientedBox', ...box, rotation: TURN, inside: true }], [0, 0, 0], 0.6],
    ['a kill plane', [{ type: 'plane', normal: [0, 1, 0], offset: 0, kill: true }], [0, 0.6, 0], 0.6],
    ['a kill sphere', [{ type: 'sphere', center: [0, 0, 0], radius: 0.6, kill: true }], [0, 0, 0], 1.2],
  ];

  it.each(cases)('%s: 200 particles, each of 40 steps from the same state', async (_, colliders, center, spread) => {
    const { state, touched } = await runBoth(cloud(200, 11, center, spread), colliders, 40, { resync: true });
    // The scene exercises the collider: a fair share of the particles meet it
    // (60 to 190 of the 200 with these seeds; immovable ones never do).
    expect(touched).toBeGreaterThan(40);
    const killed = Array.from({ length: 200 }, (_, i) => state[i * FLOATS_PER_PARTICLE + RADIUS]).filter(
      (r) => r === -1,
    );
    if (colliders[0]?.kill) expect(killed.length).toBeGreaterThan(20);
    else expect(killed).toHaveLength(0);
  });

  it.each(cases.slice(0, 3))(
    '%s: 200 particles, the bound carried over 5 steps',
    async (_, colliders, center, spread) => {
      await runBoth(cloud(200, 11, center, spread), colliders, 5);
    },
  );

  it('every kind at once, in order, semi-implicit with per-step damping', async () => {
    const colliders = cases
      .filter(([name]) => !name.includes('kill') && !name.includes('inside'))
      .flatMap(([, c]) => c);
    colliders.push({ type: 'box', center: [0, 0, 0], halfExtents: [2, 2, 2], inside: true, restitution: 0.9 });
    const variant: Variant = { integrator: 'semi-implicit', damping: 'per-step' };
    await runBoth(cloud(300, 5, [0, 0, 0], 1.6), colliders, 40, { variant, resync: true });
  });

  it('the bound is tight enough to tell restitutions apart', async () => {
    // Meta-check: a GPU ground with restitution 0.6 must fail against a
    // reference with 0.59, or the bound would hide a wrong response.
    const particles = cloud(50, 3, [0, 0.3, 0], 0.3);
    const system = await ParticleSystem.create(gpu.get().device, {
      capacity: 50,
      collisions: { colliders: [{ type: 'plane', normal: [0, 1, 0], restitution: 0.6 }], skin: SKIN },
    });
    await system.writeParticles(0, particles);
    await system.stepMany(DT, 10);
    const variant: Variant = { integrator: 'explicit', damping: 'per-second' };
    const state = packParticles(particles);
    const packed = prepareColliders([{ type: 'plane', normal: [0, 1, 0], restitution: 0.59 }]);
    const params = { dt: Math.fround(DT), skin: Math.fround(SKIN) };
    const bound = new StepErrorBound(50, variant);
    for (let s = 0; s < 10; s++) {
      bound.advance(state, Math.fround(DT));
      integrate(state, 50, Math.fround(DT), variant, Math.fround);
      advanceThroughColliders(bound, state, packed, params);
      collide(state, 50, packed, params, Math.fround);
    }
    expect(compareWithBound(await system.readPacked(), state, bound, 'restitution 0.6 vs 0.59')).toMatch(/velocity/);
    system.destroy();
  });
});

describe('colliders: physics', () => {
  it('a ball dropped on the ground bounces to the height restitution predicts, then rests without sinking or jitter', async () => {
    const r = 0.1;
    const H = 2; // drop height of the ball's bottom
    const e = 0.5;
    const g = 9.81;
    const dt = 1 / 500;
    const system = await ParticleSystem.create(gpu.get().device, {
      capacity: 1,
      collisions: { colliders: [{ type: 'plane', normal: [0, 1, 0], restitution: e, friction: 0.2 }], skin: SKIN },
    });
    await system.writeParticles(0, [{ position: [0, r + H, 0], acceleration: [0, -g, 0], radius: r }]);
    const ys: number[] = [];
    const vs: number[] = [];
    for (let s = 0; s < 2000; s++) {
      await system.step(dt);
      const state = await system.readPacked();
      ys.push(state[POSITION + 1] as number);
      vs.push(state[VELOCITY + 1] as number);
    }
    system.destroy();

    // First apex after the first bounce. Derivation (explicit Euler, Cyclone's
    // order): the contact is met with the speed V_i after the step that crosses
    // the ground, within [V, V + 2 g dt] of the exact V = sqrt(2 g H); the
    // response leaves e (V_i - g dt) (the resting-contact term removes the
    // speed gravity built in that step); from speed W at the ground the
    // explicit recurrence peaks between (W + g dt / 2)^2 / 2g - g dt^2 / 8 and
    // (W + g dt / 2)^2 / 2g. So the apex above the ground lies in [lo, hi],
    // about e^2 H = 0.5 m +-1%; float32 rounding of y (u |y| a step, 2,000
    // steps) is far inside that.
    const V = Math.sqrt(2 * g * H);
    const lo = (e * (V - g * dt) + (g * dt) / 2) ** 2 / (2 * g) - (g * dt * dt) / 8;
    const hi = (e * (V + g * dt) + (g * dt) / 2) ** 2 / (2 * g);
    const firstBounce = vs.findIndex((v) => v > 0);
    const nextFall = vs.findIndex((v, s) => s > firstBounce && v <= 0);
    const apex = Math.max(...ys.slice(firstBounce, nextFall)) - r;
    const rounding = 2000 * 2 * u * (r + H);
    expect(apex).toBeGreaterThanOrEqual(lo - rounding);
    expect(apex).toBeLessThanOrEqual(hi + rounding);
    expect(Math.abs(apex - e * e * H)).toBeLessThan(0.01 * H); // the window is about e^2 H +-1%

    // Never sinks: a contact moves the ball back onto the ground, y = r up to
    // the rounding of y + (r - y) (exact when y >= r / 2, which the step here
    // keeps: dt V < r / 2), so no step ends below r (1 - 2u).
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(r * (1 - 2 * u));

    // At rest by t = 3 s, and no jitter: for the last second y does not change
    // and v is 0, up to the one rounding a fused multiply-add may leave in
    // e |vs| - e g dt (u e g dt), which moves y by far less than an ULP.
    const rest = ys.slice(1500);
    expect(Math.max(...rest) - Math.min(...rest)).toBeLessThanOrEqual(2 * u * r);
    for (const v of vs.slice(1500)) expect(Math.abs(v)).toBeLessThanOrEqual(u * e * g * dt);
    expect(rest[0]).toBeLessThanOrEqual(r + SKIN);
  });

  it.each([
    ['a ground plane', { type: 'plane', normal: [0, 1, 0], offset: 0 }],
    ['an oblique plane', { type: 'plane', normal: [0.3, 1, -0.2], offset: -1 }],
  ] as [string, ColliderInit][])(
    'nothing passes through %s at up to 2,000 m/s with dt = 1/60 (33 m a step)',
    async (_, plane) => {
      const count = 256;
      const random = seededRandom(9);
      const r = 0.05;
      const particles: ParticleInit[] = Array.from({ length: count }, (_, i) => {
        const speed = 10 ** (1 + (2.3 * i) / count); // 10 to 2,000 m/s
        const direction = [random() - 0.5, -1, random() - 0.5];
        const length = Math.hypot(...direction);
        return {
          position: [(random() - 0.5) * 10, 1 + random() * 10, (random() - 0.5) * 10],
          velocity: direction.map((x) => (x / length) * speed),
          acceleration: [0, -9.81, 0],
          radius: r,
        };
      });
      for (const integrator of ['explicit', 'semi-implicit'] as const) {
        const system = await ParticleSystem.create(gpu.get().device, {
          capacity: count,
          integrator,
          collisions: { colliders: [{ ...plane, restitution: 0.5 }], skin: SKIN },
        });
        await system.writeParticles(0, particles);
        const normal = Array.from(prepareColliders([plane]).floats.subarray(4, 7));
        const offset = (plane as { offset: number }).offset;
        for (let s = 0; s < 30; s++) {
          await system.step(DT);
          const state = await system.readPacked();
          for (let i = 0; i < count; i++) {
            const p = Array.from(state.subarray(i * FLOATS_PER_PARTICLE, i * FLOATS_PER_PARTICLE + 3));
            const distance = p.reduce((sum, x, k) => sum + x * (normal[k] as number), 0) - offset;
            // The correction p + n (r - distance) puts the centre at r from the
            // plane up to the rounding of a 3-term dot product, a subtraction
            // and 3 additions on coordinates at most |p|1 + 2,000 dt from the
            // origin: 16u (|p|1 + 2,000 dt + |offset| + r). Far below r: the
            // centre never ends behind the plane.
            const scale = p.reduce((sum, x) => sum + Math.abs(x), 0) + 2000 * DT + Math.abs(offset) + r;
            expect(distance, `${integrator}: particle ${i} after step ${s + 1}`).toBeGreaterThanOrEqual(
              r - 16 * u * scale,
            );
          }
        }
        system.destroy();
      }
    },
  );

  it.each([
    ['a sphere', { type: 'sphere', center: [0, 0, 0], radius: 2, inside: true }],
    [
      'an oriented box',
      {
        type: 'orientedBox',
        center: [0, 0, 0],
        halfExtents: [2, 1, 1.5],
        rotation: [0.1, 0.5, 0.2, 0.8],
        inside: true,
      },
    ],
  ] as [string, ColliderInit][])('no particle leaves %s container at up to 2,000 m/s', async (_, container) => {
    const count = 128;
    const random = seededRandom(4);
    const particles: ParticleInit[] = Array.from({ length: count }, (_, i) => ({
      position: [0, 1, 2].map(() => (random() - 0.5) * 0.5),
      velocity: [0, 1, 2].map(() => (random() - 0.5) * 2 * 10 ** (1 + (2.3 * i) / count)),
      radius: 0.05,
    }));
    const system = await ParticleSystem.create(gpu.get().device, {
      capacity: count,
      collisions: { colliders: [{ ...container, restitution: 1 }], skin: SKIN },
    });
    await system.writeParticles(0, particles);
    const packed = prepareColliders([container]);
    const axes = [4, 8, 12].map((at) => Array.from(packed.floats.subarray(at, at + 3)));
    for (let s = 0; s < 30; s++) {
      await system.step(DT);
      const state = await system.readPacked();
      for (let i = 0; i < count; i++) {
        const p = Array.from(state.subarray(i * FLOATS_PER_PARTICLE, i * FLOATS_PER_PARTICLE + 3));
        // Inside means within the shape shrunk by the radius, up to the
        // rounding of the correction on coordinates below 2,000 dt: 16u (2,000 dt + 2).
        const slack = 16 * u * (2000 * DT + 2);
        if (container.type === 'sphere') {
          expect(Math.hypot(...p), `particle ${i} after step ${s + 1}`).toBeLessThanOrEqual(2 - 0.05 + slack);
        } else {
          axes.forEach((axis, k) => {
            const q = p.reduce((sum, x, j) => sum + x * (axis[j] as number), 0);
            const half = (container as unknown as { halfExtents: number[] }).halfExtents[k] as number;
            expect(Math.abs(q), `particle ${i} axis ${k} after step ${s + 1}`).toBeLessThanOrEqual(half - 0.05 + slack);
          });
        }
      }
    }
    system.destroy();
  });

  it('kill: particles that touch become immovable, parked, radius -1, and stay so', async () => {
    const particles: ParticleInit[] = [
      { position: [0, 0.5, 0], velocity: [1, -3, 0], acceleration: [0, -9.81, 0], radius: 0.1 },
      { position: [1, 5, 0], acceleration: [0, -9.81, 0], radius: 0.1 }, // still falling at the end
      { position: [2, 0.2, 0], velocity: [0, -1, 0], radius: 0.1, inverseMass: 0 }, // immovable: never killed
    ];
    for (const make of [
      async () =>
        ParticleSystem.create(gpu.get().device, {
          capacity: 3,
          collisions: { colliders: [{ type: 'plane', normal: [0, 1, 0], kill: true }] },
        }),
      async () =>
        new CpuParticleSystem({
          capacity: 3,
          collisions: { colliders: [{ type: 'plane', normal: [0, 1, 0], kill: true }] },
        }),
    ]) {
      const system: ParticleSystemApi = await make();
      await system.writeParticles(0, particles);
      await system.stepMany(DT, 20);
      const first = await system.read();
      expect(first.inverseMass[0]).toBe(0);
      expect(first.radius[0]).toBe(-1);
      expect(Array.from(first.velocity.subarray(0, 3))).toEqual([0, 0, 0]);
      const parked = Array.from(first.position.subarray(0, 3));
      expect(parked[1]).toBeLessThanOrEqual(0.1 + SKIN);
      expect(first.inverseMass[1]).toBe(1);
      expect(first.radius[1]).toBe(Math.fround(0.1));
      expect(first.inverseMass[2]).toBe(0);
      expect(first.radius[2]).toBe(Math.fround(0.1));
      await system.stepMany(DT, 10);
      const later = await system.read();
      expect(Array.from(later.position.subarray(0, 3))).toEqual(parked);
      expect(later.radius[0]).toBe(-1);
      system.destroy();
    }
  });
});

describe('colliders: bad parameters are refused, naming the value and the limit, with nothing changed', () => {
  const plane = { type: 'plane', normal: [0, 1, 0] } as const;
  const cases: [string, unknown, RegExp][] = [
    [
      'an unknown type',
      [{ type: 'cylinder', center: [0, 0, 0] }],
      /colliders\[0\]\.type = "cylinder" .*one of plane, sphere, box, orientedBox/,
    ],
    ['restitution 1.5', [plane, { ...plane, restitution: 1.5 }], /colliders\[1\]\.restitution = 1\.5 .*\[0, 1\]/],
    ['restitution NaN', [{ ...plane, restitution: Number.NaN }], /colliders\[0\]\.restitution = NaN/],
    ['friction -0.1', [{ ...plane, friction: -0.1 }], /colliders\[0\]\.friction = -0\.1 .*>= 0/],
    ['a zero normal', [{ type: 'plane', normal: [0, 0, 0] }], /colliders\[0\]\.normal = \[0,0,0\] .*nonzero/],
    ['a normal of 2 numbers', [{ type: 'plane', normal: [0, 1] }], /colliders\[0\]\.normal = \[0,1\] .*3 numbers/],
    ['an infinite offset', [{ ...plane, offset: Infinity }], /colliders\[0\]\.offset = Infinity/],
    ['a sphere of radius 0', [{ type: 'sphere', center: [0, 0, 0], radius: 0 }], /colliders\[0\]\.radius = 0 .*> 0/],
    ['a sphere with no centre', [{ type: 'sphere', radius: 1 }], /colliders\[0\]\.center = nothing/],
    [
      'a negative half extent',
      [{ type: 'box', center: [0, 0, 0], halfExtents: [1, -1, 1] }],
      /colliders\[0\]\.halfExtents\[1\] = -1 .*> 0/,
    ],
    [
      'a zero quaternion',
      [{ type: 'orientedBox', center: [0, 0, 0], halfExtents: [1, 1, 1], rotation: [0, 0, 0, 0] }],
      /colliders\[0\]\.rotation = \[0,0,0,0\] .*nonzero quaternion/,
    ],
    ['inside on a plane', [{ ...plane, inside: true }], /colliders\[0\]\.inside = true .*unknown field/],
    ['kill not a boolean', [{ ...plane, kill: 'yes' }], /colliders\[0\]\.kill = "yes" .*true or false/],
    ['a misspelt field', [{ ...plane, restitusion: 0.5 }], /colliders\[0\]\.restitusion = 0\.5 .*unknown field/],
    ['too many', Array.from({ length: 65 }, () => plane), /colliders\.length = 65 .*at most 64/],
    ['not an array', { type: 'plane' }, /colliders = .* must be an array/],
  ];

  it.each(cases)('%s', async (_, colliders, message) => {
    const particles = cloud(10, 2, [0, 0.3, 0], 0.3);
    const good: ColliderInit[] = [{ type: 'plane', normal: [0, 1, 0], restitution: 0.5 }];
    // The colliders are unchanged too: the CPU system steps exactly as one never refused.
    await expectRefusedUnchanged(
      gpu.get().device,
      { options: { capacity: 10, collisions: { colliders: good } }, particles },
      (system) => system.setColliders(colliders as ColliderInit[]),
      message,
      { dt: DT, steps: 20 },
    );
  });

  it('refuses bad collision options at creation, on both backends', async () => {
    const device = gpu.get().device;
    const bad: [unknown, RegExp][] = [
      [{ iterations: 0 }, /collisions\.iterations = 0 .*integer in \[1, 256\]/],
      [{ restitution: -1 }, /collisions\.restitution = -1/],
      [{ skin: Number.NaN }, /collisions\.skin = NaN/],
      [{ particleCollisions: 'on' }, /collisions\.particleCollisions = "on" .*true or false/],
      [{ colliders: [{ type: 'sphere', center: [0, 0, 0], radius: -2 }] }, /collisions\.colliders\[0\]\.radius = -2/],
      [{ gravity: 9.81 }, /collisions\.gravity = 9\.81 .*unknown field/],
    ];
    for (const [collisions, message] of bad) {
      const options = { capacity: 4, collisions } as never;
      await expect(ParticleSystem.create(device, options)).rejects.toThrow(message);
      expect(() => new CpuParticleSystem(options)).toThrow(message);
    }
  });

  it('refuses a bad particle radius naming the particle, on both backends', async () => {
    const gpuSystem = await ParticleSystem.create(gpu.get().device, { capacity: 2 });
    for (const system of [gpuSystem, new CpuParticleSystem({ capacity: 2 })] as ParticleSystemApi[]) {
      await expect(async () =>
        system.writeParticles(0, [{ position: [0, 0, 0] }, { position: [0, 0, 0], radius: -0.1 }]),
      ).rejects.toThrow(/particles\[1\]\.radius = -0\.1 .*finite and >= 0/);
      await expect(async () => system.setField('radius', 0, [0.1, Number.POSITIVE_INFINITY])).rejects.toThrow(
        /radius\[1\] = Infinity/,
      );
    }
    gpuSystem.destroy();
  });
});
