/**
 * Events on collision (issue 14 item 5): a rule's onCollision payload spawned
 * where one of its particles starts touching a collider, and each collider's
 * onHit (bounce, die, stick). The GPU against the CPU reference: the same
 * particles in the same slots, the same lists and stats every frame; one
 * event a contact start; bad values refused with their path.
 */
import { describe, expect, it } from 'vitest';
import {
  CONTACT_TOUCHED_BEFORE,
  CONTACT_TRACKED,
  prepareColliders,
  type ColliderInit,
} from '../src/core/collisions/colliders';
import { CONTACT_LANE } from '../src/core/collisions/collide';
import { prepareSpawnRules } from '../src/core/emitters/spawnRules';
import type { EmitterInit, FireworkRuleInit } from '../src/core/emitters/types';
import { FLOATS_PER_PARTICLE, OFFSET } from '../src/core/layout';
import { parseScene } from '../src/scene/scene';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { expectSameBytes } from './support/galleryScenes';
import { useDevice } from './support/gpu';
import { cpuRig, gpuRig, type LifeRig, type RigOptions } from './support/lifecycleRig';

const gpu = useDevice();

/**
 * Exact by construction, so both backends' lists and the rain's states can be
 * compared exactly: dt, the rain's start height, velocity and acceleration
 * are small dyadic numbers, so every position and velocity of the fall is a
 * float32 with no rounding (WGSL's fused or reordered + and * change nothing
 * where no step rounds), and the plane's contact (normal (0, 1, 0), offset 0,
 * radius 0, restitution 0) moves the particle to y = 0 exactly: y + (-y) * 1.
 * Both backends then see the same contact on the same frame.
 */
const DT = 1 / 64;
const RAIN_DROPS = 8;
const SPLASH = 2;

const RAIN: EmitterInit = {
  burst: RAIN_DROPS,
  lifetime: 4,
  shape: { type: 'box', center: [0, 1, 0], halfExtents: [1, 0, 1] },
  velocity: { min: [0, -4, 0], max: [0, -4, 0] },
  acceleration: [0, -4, 0],
  onCollision: { payload: [{ type: 1, count: SPLASH }] },
};
// Splashes fly up and away: they never reach the plane (no event of theirs to compare near a threshold).
const SPLASHES: FireworkRuleInit = {
  type: 1,
  fuse: 0.25,
  velocity: { min: [-1, 1, -1], max: [1, 3, 1] },
  acceleration: [0, 0, 0],
  floor: null,
};

// The same drops as firework rule 2's, launched by an emitter: a death payload (1 of type 3) and a collision payload
// (2 of type 1), so each slot's rule shows which payload made it (compared with the CPU's, slot by slot).
const DROP_RULE: FireworkRuleInit = {
  type: 2,
  fuse: 4,
  velocity: { min: [0, -4, 0], max: [0, -4, 0] },
  acceleration: [0, -4, 0],
  floor: null,
  payload: [{ type: 3, count: 1 }],
  onCollision: { payload: [{ type: 1, count: SPLASH }] },
};
const DROP_LAUNCHER: EmitterInit = {
  burst: RAIN_DROPS,
  shape: { type: 'box', center: [0, 1, 0], halfExtents: [1, 0, 1] },
  firework: 2,
};

function options(onHit: 'bounce' | 'die' | 'stick', launched = false): { rig: RigOptions; colliders: ColliderInit[] } {
  return {
    rig: launched
      ? { capacity: 64, emitters: [DROP_LAUNCHER], fireworks: [SPLASHES, DROP_RULE, { ...SPLASHES, type: 3 }] }
      : { capacity: 64, emitters: [RAIN], fireworks: [SPLASHES] },
    colliders: [{ type: 'plane', normal: [0, 1, 0], offset: 0, onHit }],
  };
}

/** The rain's slots (emitter 0's rule, or firework rule 2's: table index 0 or 2) among the live ones. */
async function rainSlots(rig: LifeRig): Promise<number[]> {
  const view = await rig.readLifecycle();
  return Array.from(view.live).filter((slot) => [0, 2].includes(view.life.get(slot, 'rule')));
}

const { POSITION, VELOCITY, INVERSE_MASS } = OFFSET;

/**
 * Steps both backends `frames` times, comparing lists, stats, and the rain's states exactly; calls `check` with the
 * CPU's frame. From frame `removedAt` on (when given) neither has colliders.
 */
async function runBoth(
  onHit: 'bounce' | 'die' | 'stick',
  frames: number,
  check: (frame: number, cpu: ReturnType<typeof cpuRig>) => Promise<void>,
  launched = false,
  removedAt?: number,
): Promise<void> {
  const { device } = gpu.get();
  const { rig, colliders } = options(onHit, launched);
  const system = await gpuRig(device, rig);
  const reference = cpuRig(rig);
  await system.system.setColliders(colliders);
  reference.system.setColliders(colliders);
  try {
    for (let frame = 1; frame <= frames; frame++) {
      if (frame === removedAt) {
        await system.system.setColliders([]);
        reference.system.setColliders([]);
      }
      await system.stepMany(DT, 1);
      reference.step(DT);
      const [view, state, expected] = await Promise.all([
        system.readLifecycle(),
        system.readPacked(),
        reference.readLifecycle(),
      ]);
      if (view.live.join() !== expected.live.join()) expect.fail(`frame ${frame}: the GPU's live list differs`);
      if (view.free.join() !== expected.free.join()) expect.fail(`frame ${frame}: the GPU's free list differs`);
      expect(view.stats, `frame ${frame}`).toEqual(expected.stats);
      for (const slot of view.live) {
        for (const field of ['rule', 'generation', 'age'] as const) {
          if (view.life.get(slot, field) !== expected.life.get(slot, field))
            expect.fail(
              `frame ${frame}: slot ${slot} ${field}: GPU ${view.life.get(slot, field)}, CPU ${expected.life.get(slot, field)}`,
            );
        }
      }
      for (const slot of await rainSlots(reference)) {
        const base = slot * FLOATS_PER_PARTICLE;
        for (let i = 0; i < FLOATS_PER_PARTICLE; i++) {
          if (!Object.is(state[base + i], reference.state[base + i]))
            expect.fail(
              `frame ${frame}: rain slot ${slot} float ${i}: GPU ${state[base + i]}, CPU ${reference.state[base + i]}`,
            );
        }
      }
      await check(frame, reference);
    }
  } finally {
    system.destroy();
    reference.destroy();
  }
}

describe('collision events, GPU against the CPU reference', () => {
  it('bounce (restitution 0, resting): one event a drop, however long it rests; its splashes spawned', async () => {
    let landed = 0;
    await runBoth('bounce', 48, async (frame, cpu) => {
      const stats = (await cpu.readLifecycle()).stats;
      const slots = await rainSlots(cpu);
      const resting = slots.filter((slot) => cpu.state[slot * FLOATS_PER_PARTICLE + POSITION + 1] === 0).length;
      if (resting === RAIN_DROPS && landed === 0) landed = frame;
      // Resting, they touch the plane every step (gravity presses them in): the lane says "touched before".
      if (landed && frame > landed) {
        for (const slot of slots) {
          expect(cpu.state[slot * FLOATS_PER_PARTICLE + CONTACT_LANE]).toBe(CONTACT_TRACKED + CONTACT_TOUCHED_BEFORE);
        }
      }
      // The drops all fall together: no event before they land, one each after, however long they rest.
      expect(stats.emitters[0]?.hits).toBe(landed ? RAIN_DROPS : 0);
      expect(stats.fireworks[1]?.born).toBe(landed ? RAIN_DROPS * SPLASH : 0);
      expect(slots.length).toBe(RAIN_DROPS);
    });
    // They landed, and rested for many frames after.
    expect(landed).toBeGreaterThan(0);
    expect(landed).toBeLessThan(30);
  });

  it('bounce, then the plane taken away: the lane forgets the contact the next step, as on the CPU', async () => {
    const removedAt = 40;
    let checked = 0;
    await runBoth(
      'bounce',
      removedAt + 1,
      async (frame, cpu) => {
        // Resting on the plane until it goes; the step after, no contact: every tracked lane back to 4.
        const lanes = (await rainSlots(cpu)).map((slot) => cpu.state[slot * FLOATS_PER_PARTICLE + CONTACT_LANE]);
        if (frame === removedAt - 1) expect(lanes).toEqual(lanes.map(() => CONTACT_TRACKED + CONTACT_TOUCHED_BEFORE));
        if (frame === removedAt) {
          expect(lanes).toEqual(lanes.map(() => CONTACT_TRACKED));
          checked = lanes.length;
        }
      },
      false,
      removedAt,
    );
    expect(checked).toBe(RAIN_DROPS);
  });

  it('stick: each drop stays where it touched, at rest and immovable; one event each', async () => {
    let landed = 0;
    await runBoth('stick', 40, async (frame, cpu) => {
      const slots = await rainSlots(cpu);
      const stuck = slots.filter((slot) => cpu.state[slot * FLOATS_PER_PARTICLE + INVERSE_MASS] === 0);
      if (stuck.length === RAIN_DROPS && landed === 0) landed = frame;
      for (const slot of stuck) {
        const base = slot * FLOATS_PER_PARTICLE;
        expect(cpu.state[base + POSITION + 1]).toBe(0);
        expect([0, 1, 2].map((c) => cpu.state[base + VELOCITY + c])).toEqual([0, 0, 0]);
      }
      const stats = (await cpu.readLifecycle()).stats;
      expect(stats.emitters[0]?.hits).toBe(stuck.length);
      expect(stats.fireworks[1]?.born).toBe(stuck.length * SPLASH);
    });
    expect(landed).toBeGreaterThan(0);
  });

  it('die: each drop dies where it touched and frees its slot; its splashes spawned', async () => {
    let died = 0;
    await runBoth('die', 40, async (_frame, cpu) => {
      const view = await cpu.readLifecycle();
      const rule = view.stats.emitters[0];
      died = rule?.died ?? 0;
      expect(rule?.hits).toBe(rule?.died);
      expect(view.stats.fireworks[1]?.born).toBe((rule?.died ?? 0) * SPLASH);
      expect(view.live.length + view.free.length).toBe(64);
      expect((await rainSlots(cpu)).length).toBe(RAIN_DROPS - (rule?.died ?? 0));
    });
    expect(died).toBe(RAIN_DROPS);
  });
});

describe('collision events of a firework rule', () => {
  it('die on a rule with both payloads: one record each, its death payload then its collision payload', async () => {
    let died = 0;
    await runBoth(
      'die',
      40,
      async (_frame, cpu) => {
        const stats = (await cpu.readLifecycle()).stats;
        const drops = stats.fireworks[2];
        died = drops?.died ?? 0;
        expect(drops?.hits).toBe(died);
        expect(stats.emitters[0]?.hits).toBe(0);
        expect(stats.fireworks[1]?.born).toBe(died * SPLASH);
        expect(stats.fireworks[3]?.born).toBe(died);
      },
      true,
    );
    expect(died).toBe(RAIN_DROPS);
  });
});

describe('bad values refused with their path', () => {
  const refusedAt = (what: string, f: () => unknown) => {
    try {
      f();
    } catch (error) {
      expect((error as { what?: string }).what).toBe(what);
      return;
    }
    expect.fail(`${what}: not refused`);
  };
  const plane = { type: 'plane', normal: [0, 1, 0] } as const;
  it.each([
    ['colliders[0].onHit', [{ ...plane, onHit: 'splat' }]],
    ['colliders[0].onHit', [{ ...plane, onHit: 3 }]],
    ['colliders[0].onHit', [{ ...plane, kill: true, onHit: 'stick' }]],
  ])('%s: %j', (what, colliders) => {
    refusedAt(what, () => prepareColliders(colliders as unknown as ColliderInit[]));
  });
  it('kill: true is onHit die; onHit die with kill: true is accepted', () => {
    const a = prepareColliders([{ ...plane, kill: true }]);
    const b = prepareColliders([{ ...plane, onHit: 'die', kill: true }]);
    expect(Array.from(a.words)).toEqual(Array.from(b.words));
  });

  const rule: FireworkRuleInit = { type: 1, fuse: 1 };
  it.each([
    ['emitters[0].onCollision', [{ onCollision: 5 }], [rule]],
    ['emitters[0].onCollision.payload', [{ onCollision: {} }], [rule]],
    ['emitters[0].onCollision.junk', [{ onCollision: { payload: [], junk: 1 } }], [rule]],
    ['emitters[0].onCollision.payload[0].type', [{ onCollision: { payload: [{ type: 9, count: 1 }] } }], [rule]],
    ['emitters[0].onCollision.payload[0].count', [{ onCollision: { payload: [{ type: 1, count: -1 }] } }], [rule]],
    ['emitters[0].onCollision', [{ firework: 1, onCollision: { payload: [] } }], [rule]],
    [
      'fireworks[0].onCollision.payload[0].count',
      [],
      [{ ...rule, onCollision: { payload: [{ type: 1, count: 256 }] } }],
    ],
    [
      'fireworks[0].onCollision.payload.length',
      [],
      [{ ...rule, onCollision: { payload: Array.from({ length: 5 }, () => ({ type: 1, count: 1 })) } }],
    ],
  ])('%s', (what, emitters, fireworks) => {
    refusedAt(what, () => prepareSpawnRules(emitters as EmitterInit[], fireworks as FireworkRuleInit[]));
  });

  it.each([
    [
      '{"particles": [{"position": [0, 1, 0]}], "colliders": [{"type": "plane", "normal": [0, 1, 0], "onHit": "splat"}]}',
      /\$\.colliders\[0\]\.onHit: .*; got "splat"$/,
    ],
    [
      '{"capacity": 8, "emitters": [{"onCollision": {"payload": [{"type": 2, "count": 1}]}}], "fireworks": [{"type": 1, "fuse": 1}]}',
      /\$\.emitters\[0\]\.onCollision\.payload\[0\]\.type: .*; got 2$/,
    ],
  ])('a scene file: %s', (text, message) => {
    expect(() => parseScene(text, 'scene.json')).toThrow(message);
  });
});

describe('collision events with the colliders fused into the step', () => {
  it('a particle the step parks as non-finite is no touch, as the colliders pass skips it: the same bytes fused or not', async () => {
    const { device } = gpu.get();
    // dt = 1: the drops' velocity overflows to -infinity in their first step (-3e38 + -3e38), while their position
    // (1 - 3e38) stays finite, far behind the floor, where the fused colliders would find a contact.
    const drops: EmitterInit = {
      burst: 4,
      lifetime: 10,
      shape: { type: 'point', center: [0, 1, 0] },
      velocity: { min: [0, -3e38, 0], max: [0, -3e38, 0] },
      acceleration: [0, -3e38, 0],
      floor: null,
      onCollision: { payload: [{ type: 1, count: SPLASH }] },
    };
    const make = (fuseColliders: boolean) =>
      ParticleSystem.create(device, {
        capacity: 64,
        emitters: [drops],
        fireworks: [SPLASHES],
        nonFinite: 'park',
        fuseColliders,
        collisions: { colliders: [{ type: 'plane', normal: [0, 1, 0], offset: 0, restitution: 0.5 }] },
      });
    const fused = await make(true);
    const unfused = await make(false);
    try {
      expect(fused.stepPasses).toContain('integrate+colliders');
      expect(unfused.stepPasses).toContain('collisions');
      for (let frame = 0; frame < 3; frame++) {
        await fused.stepMany(1, 1);
        await unfused.stepMany(1, 1);
        expectSameBytes(await fused.snapshot(), await unfused.snapshot(), `frame ${frame}`);
      }
      // The drops went bad and were parked, and none of them made an event.
      const stats = await fused.readStats();
      expect(stats.nonFinite).toBe(4);
      expect(stats.emitters[0]?.hits).toBe(0);
    } finally {
      fused.destroy();
      unfused.destroy();
    }
  });
});
