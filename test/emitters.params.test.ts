/**
 * Bad emitter and firework parameters are refused before anything is built,
 * with a SparkworksInputError that names the value (its path) and the limit;
 * the runtime setters change nothing when they refuse. Pure TypeScript.
 */
import { describe, expect, it } from 'vitest';
import { CYCLONE_FIREWORK_RULES, cycloneLaunchers } from '../src/core/emitters/cyclone';
import { EmitterSet, fixedPointIncrement } from '../src/core/emitters/emitterSet';
import { MAX_EMITTERS, MAX_LIFECYCLE_CAPACITY, SHAPE, VELOCITY_MODE } from '../src/core/emitters/gpuRecords';
import { prepareLifecycle } from '../src/core/emitters/options';
import { packColor } from '../src/core/emitters/params';
import { prepareSpawnRules } from '../src/core/emitters/spawnRules';
import { NO_FLOOR, type EmitterInit, type FireworkRuleInit } from '../src/core/emitters/types';
import { refusal } from './support/refusal';
import { EXAMPLE_EMITTER } from './support/scenes';

const emitter = (fields: Record<string, unknown>) => [fields as EmitterInit];

describe('emitter parameters', () => {
  it.each([
    [
      'a negative rate',
      { rate: -1 },
      'emitters[0].rate',
      /-1 is invalid: particles per second, finite and in \[0, 1000000000\]/,
    ],
    ['a NaN rate', { rate: Number.NaN }, 'emitters[0].rate', /NaN is invalid/],
    ['an infinite rate', { rate: Number.POSITIVE_INFINITY }, 'emitters[0].rate', /Infinity is invalid/],
    ['a fractional burst', { burst: 1.5 }, 'emitters[0].burst', /must be an integer in \[0, 2147483647\]/],
    ['a negative burst', { burst: -3 }, 'emitters[0].burst', /-3 is invalid/],
    ['an empty lifetime range', { lifetime: [2, 1] }, 'emitters[0].lifetime', /an empty range: min 2 > max 1/],
    ['a negative lifetime', { lifetime: [-1, 1] }, 'emitters[0].lifetime[0]', /seconds, finite and >= 0/],
    [
      'a non-finite lifetime',
      { lifetime: [1, Number.POSITIVE_INFINITY] },
      'emitters[0].lifetime[1]',
      /Infinity is invalid/,
    ],
    ['a zero mass', { mass: [0, 1] }, 'emitters[0].mass[0]', /mass must be finite and > 0/],
    ['a damping above 1', { damping: 1.5 }, 'emitters[0].damping', /damping must be in \[0, 1\]/],
    ['an empty damping range', { damping: [0.9, 0.5] }, 'emitters[0].damping', /min 0.9 > max 0.5/],
    ['a negative speed', { velocity: { speed: [-1, 2] } }, 'emitters[0].velocity.speed[0]', /finite and >= 0/],
    ['a spread past pi', { velocity: { spread: 4 } }, 'emitters[0].velocity.spread', /\[0, pi\] radians/],
    [
      'a zero direction',
      { velocity: { direction: [0, 0, 0] } },
      'emitters[0].velocity.direction',
      /non-zero direction/,
    ],
    [
      'an empty velocity box',
      { velocity: { min: [0, 5, 0], max: [1, 1, 1] } },
      'emitters[0].velocity.min[1]',
      /min 5 > max 1/,
    ],
    [
      'a NaN in a velocity box',
      { velocity: { min: [0, Number.NaN, 0], max: [1, 1, 1] } },
      'emitters[0].velocity.min[1]',
      /finite as a float32/,
    ],
    ['a float32 overflow', { acceleration: [0, 1e39, 0] }, 'emitters[0].acceleration[1]', /finite as a float32/],
    [
      'an unknown shape',
      { shape: { type: 'torus' } },
      'emitters[0].shape.type',
      /one of point, sphere, box, disc, cone/,
    ],
    ['a negative radius', { shape: { type: 'sphere', radius: -1 } }, 'emitters[0].shape.radius', /finite and >= 0/],
    [
      'a negative half extent',
      { shape: { type: 'box', halfExtents: [1, -1, 1] } },
      'emitters[0].shape.halfExtents[1]',
      />= 0/,
    ],
    [
      'a right cone',
      { shape: { type: 'cone', angle: Math.PI / 2, height: 1 } },
      'emitters[0].shape.angle',
      /\[0, pi\/2\)/,
    ],
    [
      'a zero disc normal',
      { shape: { type: 'disc', radius: 1, normal: [0, 0, 0] } },
      'emitters[0].shape.normal',
      /non-zero/,
    ],
    ['a colour past 1', { color: [2, 0, 0] }, 'emitters[0].color[0]', /must be in \[0, 1\]/],
    ['a negative seed', { seed: -1 }, 'emitters[0].seed', /integer in \[0, 4294967295\]/],
    ['a seed past 2^32', { seed: 2 ** 32 }, 'emitters[0].seed', /integer in \[0, 4294967295\]/],
    ['a misspelt field', { lifetme: 2 }, 'emitters[0].lifetme', /unknown field \(known: rate, burst/],
    ['an unknown firework', { firework: 3 }, 'emitters[0].firework', /no firework rule has this type/],
  ])('refuses %s, naming the value and the limit', (_, fields, what, message) => {
    const error = refusal(() => prepareSpawnRules(emitter(fields)));
    expect(error.what).toBe(what);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`${what} = `)).toBe(true);
  });

  it('accepts the issue’s example and the defaults', () => {
    const rules = prepareSpawnRules([EXAMPLE_EMITTER, {}]);
    expect(rules.emitterCount).toBe(2);
    expect(rules.table.get(0, 'seed')).toBe(7);
    expect(rules.table.get(1, 'lifetimeMin')).toBe(1);
    // A rate of 0 and no burst emit nothing; the defaults are Cyclone's particle: mass 1, damping 1.
    expect(rules.emitters[1]).toEqual({ rate: 0, burst: 0, center: [0, 0, 0], velocity: [0, 0, 0] });
    expect(rules.table.get(1, 'massMin')).toBe(1);
    expect(rules.table.get(1, 'dampingMax')).toBe(1);
  });

  it(`refuses more than ${MAX_EMITTERS} emitters`, () => {
    const error = refusal(() => prepareSpawnRules(Array.from({ length: MAX_EMITTERS + 1 }, () => ({}))));
    expect(error.what).toBe('emitters.length');
    expect(error.message).toMatch(/at most 32 emitters/);
  });

  it('packs colours as WGSL’s pack4x8unorm', () => {
    expect(packColor('c', [1, 0, 0])).toBe(0xff0000ff);
    expect(packColor('c', [0, 0.5, 1, 0])).toBe(0x00ff8000);
  });
});

describe('firework rules', () => {
  const rule = (fields: Record<string, unknown>) => [{ type: 1, fuse: 1, ...fields } as FireworkRuleInit];

  it.each([
    ['a missing fuse', [{ type: 1 }], 'fireworks[0].fuse', /is required/],
    ['an empty fuse', rule({ fuse: [2, 1] }), 'fireworks[0].fuse', /min 2 > max 1/],
    ['a type of 0', rule({ type: 0 }), 'fireworks[0].type', /integer in \[1, 2147483647\]/],
    ['a duplicate type', [...rule({}), ...rule({})], 'fireworks[1].type', /unique/],
    [
      'a payload of an unknown type',
      rule({ payload: [{ type: 9, count: 1 }] }),
      'fireworks[0].payload[0].type',
      /no firework rule has this type \(types: 1\)/,
    ],
    [
      'a negative payload count',
      rule({ payload: [{ type: 1, count: -1 }] }),
      'fireworks[0].payload[0].count',
      /integer in \[0, 255\]/,
    ],
    [
      'a payload summing past 255',
      rule({
        payload: [
          { type: 1, count: 200 },
          { type: 1, count: 100 },
        ],
      }),
      'fireworks[0].payload[1].count',
      /sum to at most 255/,
    ],
    [
      'five payload entries',
      rule({ payload: Array.from({ length: 5 }, () => ({ type: 1, count: 1 })) }),
      'fireworks[0].payload.length',
      /at most 4 payload entries/,
    ],
    ['a NaN floor', rule({ floor: Number.NaN }), 'fireworks[0].floor', /finite height or null/],
  ])('refuses %s', (_, fireworks, what, message) => {
    const error = refusal(() => prepareSpawnRules([], fireworks as FireworkRuleInit[]));
    expect(error.what).toBe(what);
    expect(error.message).toMatch(message);
  });

  it('refuses an emitter that launches fireworks and also sets what the rule sets', () => {
    const error = refusal(() => prepareSpawnRules([{ firework: 1, lifetime: 2 }], rule({})));
    expect(error.what).toBe('emitters[0].lifetime');
    expect(error.message).toMatch(/takes its lifetime from firework rule 1/);
  });

  it('says which shapes, velocity modes and floor the rules use, for the kernels that compile the rest out', () => {
    const point: EmitterInit = { shape: { type: 'point' }, velocity: { spread: 0.2, speed: 1 }, lifetime: 1 };
    const boxed: EmitterInit = {
      shape: { type: 'box', halfExtents: [1, 1, 1] },
      velocity: { min: [0, 0, 0], max: [1, 1, 1] },
      lifetime: 1,
      floor: -2,
    };
    const one = prepareSpawnRules([point]);
    expect([one.shapes, one.velocityModes, one.sharedFloor]).toEqual([
      1 << SHAPE.point,
      1 << VELOCITY_MODE.cone,
      NO_FLOOR,
    ]);
    const two = prepareSpawnRules([point, boxed]);
    expect([two.shapes, two.velocityModes, two.sharedFloor]).toEqual([
      (1 << SHAPE.point) | (1 << SHAPE.box),
      (1 << VELOCITY_MODE.cone) | (1 << VELOCITY_MODE.box),
      null,
    ]);
    // Cyclone's rules all have the floor 0; their launchers too.
    expect(prepareSpawnRules(cycloneLaunchers(), CYCLONE_FIREWORK_RULES).sharedFloor).toBe(0);
    expect(prepareSpawnRules([]).sharedFloor).toBe(null);
  });

  it('packs Cyclone’s nine rules, their payloads pointing at table entries', () => {
    const rules = prepareSpawnRules(cycloneLaunchers(), CYCLONE_FIREWORK_RULES);
    expect(rules.emitterCount).toBe(9);
    expect(rules.ruleCount).toBe(9);
    expect(rules.hasPayloads).toBe(true);
    const type1 = rules.ruleIndex.get(1) as number;
    expect(rules.table.get(type1, 'payloadRules', 0)).toBe(rules.ruleIndex.get(3));
    expect(rules.table.get(type1, 'payloadCounts', 0)).toBe(5);
    expect(rules.table.get(type1, 'payloadRules', 1)).toBe(rules.ruleIndex.get(5));
    // Emitter 0 launches type 1: its particles carry rule 1's tag, so they burst as type 1.
    expect(rules.table.get(0, 'tag')).toBe(type1);
    expect(rules.table.get(type1, 'floor')).toBe(0);
    expect(rules.table.get(type1, 'acceleration', 1)).toBe(Math.fround(-9.81));
  });
});

describe('lifecycle options and runtime changes', () => {
  it('refuses a capacity past 2^31 - 1 with emitters, and a permanent count past the capacity', () => {
    let error = refusal(() => prepareLifecycle({ emitters: [{}] }, MAX_LIFECYCLE_CAPACITY + 1));
    expect(error.what).toBe('capacity');
    expect(error.message).toMatch(/at most 2147483647 slots \(its live lists are indexed in u32\)/);
    error = refusal(() => prepareLifecycle({ emitters: [{}], permanent: 11 }, 10));
    expect(error.what).toBe('permanent');
    error = refusal(() => prepareLifecycle({ permanent: 1 }, 10));
    expect(error.message).toMatch(/only a system with emitters or fireworks/);
    expect(prepareLifecycle({}, 10)).toBeNull();
  });

  it('refuses bad runtime changes and changes nothing', () => {
    const set = new EmitterSet(prepareSpawnRules([{ rate: 5, shape: { type: 'point', center: [1, 2, 3] } }]));
    const before = set.get(0);
    const version = set.version;
    expect(refusal(() => set.set(0, { rate: 10, position: [0, Number.NaN, 0] })).what).toBe('position[1]');
    expect(refusal(() => set.set(0, { rate: -2 })).what).toBe('rate');
    expect(refusal(() => set.burst(0, -1)).what).toBe('count');
    expect(refusal(() => set.burst(1, 1)).message).toMatch(/emitter = 1 is invalid: must be an integer in \[0, 0\]/);
    expect(set.get(0)).toEqual(before);
    expect(set.version).toBe(version);
  });

  it('carries the rate as a 32.32 fixed-point increment', () => {
    expect(fixedPointIncrement(1000, 1 / 64)).toEqual([15, 0.625 * 2 ** 32]);
    expect(fixedPointIncrement(0, 1)).toEqual([0, 0]);
    const [whole, fraction] = fixedPointIncrement(30, Math.fround(1 / 60));
    expect(Math.abs(whole + fraction / 2 ** 32 - 30 * Math.fround(1 / 60))).toBeLessThan(2 ** -32);
  });
});
