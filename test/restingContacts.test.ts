/**
 * Resting contacts settle (issue 17, item 10 and deliverable 3): a ball of
 * radius 0.1 dropped from 1 m onto a ground plane (friction 0.2, thrown
 * sideways at 0.5 m/s) comes to rest within 5 s, for restitution 0.2, 0.5 and
 * 0.8 at dt = 1/30, 1/60, 1/120 and 1/240, on both backends: its vertical
 * speed is exactly 0 and its height constant from then on. Before the
 * resting-contact test (RESTING_CLOSING_STEPS) it hopped for ever: at
 * e = 0.5, dt = 1/120, heights 0.1000, 0.1005, 0.1002 in a cycle.
 *
 * Why 5 s is enough: in continuous time the bounces of a ball dropped from
 * height h take sqrt(2h/g) + 2 sqrt(2gh) / (g (1 - e)) in all: at h = 0.9 m
 * (the drop to contact), 1.50 s for e = 0.2, 2.14 s for 0.5, 4.71 s for 0.8;
 * giving up the last hops, slower than the resting threshold, ends it sooner.
 */
import { describe, expect, it } from 'vitest';
import type { ParticleSystemApi } from '../src/core/api';
import type { ColliderInit } from '../src/core/collisions/colliders';
import { DEFAULT_CONTACT_SETTINGS } from '../src/core/collisions/world';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import type { ParticleInit } from '../src/core/particles';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { useDevice } from './support/gpu';

const gpu = useDevice();

const RESTITUTIONS = [0.2, 0.5, 0.8];
const RATES = [30, 60, 120, 240];
const SETTLED_BY = 5;
const RADIUS = 0.1;
const G = 9.81;

const ball: ParticleInit = { position: [0, 1, 0], velocity: [0.5, 0, 0], acceleration: [0, -G, 0], radius: RADIUS };
const ground = (restitution: number): ColliderInit[] => [
  { type: 'plane', normal: [0, 1, 0], offset: 0, restitution, friction: 0.2 },
];

/** Height and vertical speed of the ball. */
async function heightAndSpeed(system: ParticleSystemApi): Promise<[number, number]> {
  const snapshot = await system.read(0, 1);
  return [snapshot.position[1] as number, snapshot.velocity[1] as number];
}

/**
 * At rest on the plane: its contact is seen within the skin, so its height is
 * the radius to within the skin (the contact pushes out of penetration, never
 * up past the surface), and float32 rounding of 0.1 (a few 1e-9).
 */
function expectOnTheGround(y: number): void {
  expect(y).toBeGreaterThanOrEqual(RADIUS - 1e-7);
  expect(y).toBeLessThanOrEqual(RADIUS + DEFAULT_CONTACT_SETTINGS.skin + 1e-7);
}

const cases = RESTITUTIONS.flatMap((e) => RATES.map((hz) => [e, hz] as const));

describe('resting contacts settle on a ground plane', () => {
  it.each(cases)('CPU reference: restitution %s at dt = 1/%i rests by 5 s and stays', async (e, hz) => {
    const dt = 1 / hz;
    const system = new CpuParticleSystem({ capacity: 1, collisions: { colliders: ground(e) } });
    system.writeParticles(0, [ball]);
    // The last step at which the ball moved vertically, over 6 s.
    let lastMove = 0;
    let previous = Number.NaN;
    let firstBounce = 0;
    for (let step = 1; step <= 6 * hz; step++) {
      system.step(dt);
      const [y, vy] = await heightAndSpeed(system);
      if (vy !== 0 || y !== previous) lastMove = step;
      if (vy > 0 && firstBounce === 0) firstBounce = vy;
      previous = y;
    }
    expect(lastMove * dt).toBeLessThanOrEqual(SETTLED_BY);
    expectOnTheGround(previous);
    // The first bounce is a real one: e times the impact speed of a 0.9 m fall (less the resolver's
    // removal of one step of gravity, Cyclone's accCausedSepVelocity, and a step's worth of landing).
    const impact = Math.sqrt(2 * G * (1 - RADIUS));
    expect(firstBounce).toBeGreaterThan(e * (impact - 2 * G * dt));
    expect(firstBounce).toBeLessThan(e * (impact + 2 * G * dt));
  });

  it.each(cases)('GPU: restitution %s at dt = 1/%i is at rest at 5 s and stays so', async (e, hz) => {
    const dt = 1 / hz;
    const system = await ParticleSystem.create(gpu.get().device, { capacity: 1, collisions: { colliders: ground(e) } });
    try {
      await system.writeParticles(0, [ball]);
      await system.stepMany(dt, SETTLED_BY * hz);
      const [y, vy] = await heightAndSpeed(system);
      expect(vy).toBe(0);
      for (const steps of [1, 1, hz - 2]) {
        await system.stepMany(dt, steps);
        expect(await heightAndSpeed(system)).toEqual([y, 0]);
      }
      expectOnTheGround(y);
    } finally {
      system.destroy();
    }
  });
});
