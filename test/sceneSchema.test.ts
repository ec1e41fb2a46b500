/**
 * The scene format's JSON Schema (public/scene.schema.json, generated from
 * its zod definition by `npm run scene-schema`): the committed file is the
 * generated one, every example scene validates, and every scene the other
 * tests refuse fails the schema too, or is listed below with the reason the
 * schema cannot say it.
 */
import Ajv2020 from 'ajv/dist/2020';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SparkworksInputError } from '../src/core/errors';
import { sceneJsonSchema } from '../src/scene/jsonSchema';
import { parseScene } from '../src/scene/scene';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCHEMA_FILE = join(ROOT, 'public/scene.schema.json');
const committed = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ allErrors: true }).compile(committed);

/** The ajv errors of a scene, one line each ('' when it validates). */
function schemaErrors(scene: unknown): string {
  return validate(scene) ? '' : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join('\n');
}

describe('public/scene.schema.json', () => {
  it('is the schema generated from the zod definition (else: run npm run scene-schema)', () => {
    expect(committed, 'public/scene.schema.json is stale: run npm run scene-schema').toEqual(sceneJsonSchema());
  });

  it('describes every key with additionalProperties false where the format refuses unknown keys', () => {
    // Walk every object schema: each has its properties listed and closed (except the simulate output fields, free).
    const open: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (node === null || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (schema.type === 'object' && schema.additionalProperties !== false) open.push(path);
      for (const [key, child] of Object.entries(schema)) walk(child, `${path}/${key}`);
    };
    walk(committed, '#');
    expect(open).toEqual([]);
    // Every key has a description (the top-level anyOf only restates particles' count).
    const undescribed: string[] = [];
    const keys = (node: unknown, path: string) => {
      if (node === null || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      const properties = schema.properties as Record<string, { description?: string }> | undefined;
      if (properties && path !== '#/anyOf/0') {
        for (const [key, child] of Object.entries(properties))
          if (!child.description) undescribed.push(`${path}/${key}`);
      }
      for (const [key, child] of Object.entries(schema)) keys(child, `${path}/${key}`);
    };
    keys(committed, '#');
    expect(undescribed).toEqual([]);
    const emitter = (committed.properties as Record<string, { items: { properties: object } }>).emitters!.items;
    expect(Object.keys(emitter.properties)).toContain('onCollision');
  });
});

describe('example scenes validate against the schema', () => {
  const files = readdirSync(join(ROOT, 'public/scenes')).filter((f) => f.endsWith('.json'));
  it.each(files)('public/scenes/%s', (file) => {
    const scene = JSON.parse(readFileSync(join(ROOT, 'public/scenes', file), 'utf8'));
    expect(schemaErrors(scene)).toBe('');
    expect(scene.$schema).toBe('../scene.schema.json');
  });

  // Every ```json block of the docs that is a whole scene (a fragment such as `"forces": [...]` is wrapped in one).
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
  const blocks = docs.flatMap((file) =>
    [...readFileSync(join(ROOT, 'docs', file), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map(
      (m, k) => [`${file} block ${k}`, m[1]!] as const,
    ),
  );
  it('finds the docs example scenes', () => expect(blocks.length).toBeGreaterThanOrEqual(2));
  it.each(blocks)('%s', (_, text) => {
    const whole = text.trimStart().startsWith('{')
      ? text
      : `{"particles": ${JSON.stringify(Array.from({ length: 10 }, () => ({ position: [0, 0, 0] })))}, ${text}}`;
    parseScene(whole, 'docs.json'); // the docs' examples are scenes the format accepts
    expect(schemaErrors(JSON.parse(whole))).toBe('');
  });
});

// ---------------------------------------------------------------------------
// The scenes the repository's tests refuse (their case tables, copied here as
// scene texts: test/simulate.test.ts, test/sceneKeys.test.ts,
// test/collisionScenes.test.ts, test/forcesScene.test.ts,
// test/emitters.scene.test.ts, test/scene.look.test.ts).

const p = '{"position": [0, 1, 0]}';
const two = `[${p}, ${p}]`;
const four = '[{"position": [0, 0, 0]}, {"position": [1, 0, 0]}, {"position": [2, 0, 0]}, {"position": [3, 0, 0]}]';
const withParticles = (particles: string, extra = '') => `{"particles": ${particles}${extra}}`;
const forces = (list: string) => withParticles(four, `, "forces": ${list}`);
const emitterAt = (x: number, look?: unknown) => ({
  burst: 4,
  lifetime: 10,
  shape: { type: 'point', center: [x, 0.125, 0.5] },
  ...(look === undefined ? {} : { look }),
});
const rule = (look?: unknown) => ({ type: 1, fuse: [1, 2], ...(look === undefined ? {} : { look }) });
const lookScene = (extra: Record<string, unknown>) =>
  JSON.stringify({ capacity: 64, emitters: [emitterAt(-0.4), emitterAt(0.4)], fireworks: [rule()], ...extra });
const stops = (values: number[]) => values.map((value, i) => ({ at: i / Math.max(values.length - 1, 1), value }));
const white = [{ at: 0, color: [1, 1, 1] }];

const refusedScenes: [string, string][] = [
  // test/simulate.test.ts
  ['non-JSON', '{"particles": ['],
  ['a missing position', withParticles('[{"velocity": [1, 2, 3]}]')],
  ['a position of length 2', withParticles(`[${p}, {"position": [1, 2]}]`)],
  ['mass -1', withParticles('[{"position": [0, 0, 0], "mass": -1}]')],
  ['damping 1.5', withParticles('[{"position": [0, 0, 0], "damping": 1.5}]')],
  ['mass "NaN"', withParticles('[{"position": [0, 0, 0], "mass": "NaN"}]')],
  ['mass and inverseMass that disagree', withParticles('[{"position": [0, 0, 0], "mass": 3, "inverseMass": 0.5}]')],
  ['an unknown particle key', withParticles('[{"position": [0, 0, 0], "colour": "red"}]')],
  ['no particles', withParticles('[]')],
  ['a non-object', '"particles"'],
  // test/sceneKeys.test.ts
  ...['collider', 'force', 'emitter', 'capacty', 'Radius', 'firework', 'gravity'].map((key): [string, string] => [
    `the top-level key ${key}`,
    withParticles(`[${p}]`, `, "${key}": []`),
  ]),
  ['a position of 1e400', '{"particles": [{"position": [1e400, 0, 0]}]}'],
  ['a description of 3', withParticles(`[${p}]`, ', "description": 3')],
  // test/collisionScenes.test.ts
  [
    'a restitution of 2',
    withParticles(two, ', "colliders": [{"type": "plane", "normal": [0, 1, 0], "restitution": 2}]'),
  ],
  ['a plane with no normal', withParticles(two, ', "colliders": [{"type": "plane"}]')],
  ['an unknown collider type', withParticles(two, ', "colliders": [{"type": "torus"}]')],
  ['colliders not a list', withParticles(two, ', "colliders": {"type": "plane"}')],
  ['a link past the particles', withParticles(two, ', "links": [{"type": "rod", "a": 0, "b": 2, "length": 1}]')],
  [
    'a cable of negative length',
    withParticles(two, ', "links": [{"type": "cable", "a": 0, "anchor": [0, 2, 0], "maxLength": -1}]'),
  ],
  ['a negative scene radius', withParticles(two, ', "radius": -0.5')],
  ['a particle radius as a string', withParticles('[{"position": [0, 0, 0], "radius": "big"}]')],
  ['zero iterations', withParticles(two, ', "collisions": {"iterations": 0}')],
  ['an unknown solver setting', withParticles(two, ', "collisions": {"gravity": 1}')],
  ['colliders inside collisions', withParticles(two, ', "collisions": {"colliders": []}')],
  // test/forcesScene.test.ts
  ['forces not an array', forces('{"type": "gravity"}')],
  ['a force not an object', forces('[3]')],
  ['an unknown force type', forces('[{"type": "magnet"}]')],
  ['a missing vector', forces('[{"type": "gravity"}]')],
  ['a bad vector entry', forces('[{"type": "gravity", "g": [0, "a", 0]}]')],
  [
    'a negative stiffness',
    forces(
      '[{"type": "drag", "k1": 0, "k2": 0}, {"type": "anchoredSpring", "anchor": [0, 0, 0], "restLength": 1, "stiffness": -1}]',
    ),
  ],
  ['an unknown drag field', forces('[{"type": "drag", "k1": 0, "k2": 0, "k3": 1}]')],
  ['a spring end out of range', forces('[{"type": "spring", "a": 0, "b": 4, "restLength": 1, "stiffness": 1}]')],
  [
    'a spring joining a particle to itself',
    forces('[{"type": "bungee", "a": 2, "b": 2, "restLength": 1, "stiffness": 1}]'),
  ],
  [
    'a spring field that does not exist',
    forces('[{"type": "spring", "a": 0, "b": 1, "restLength": 1, "stiffness": 1, "kind": "bungee"}]'),
  ],
  ['a target particle out of range', forces('[{"type": "wind", "force": [1, 0, 0], "particle": 9}]')],
  ['a target list entry out of range', forces('[{"type": "wind", "force": [1, 0, 0], "particles": [0, -1]}]')],
  ['a target range too long', forces('[{"type": "wind", "force": [1, 0, 0], "range": {"start": 2, "count": 3}}]')],
  ['two targets', forces('[{"type": "wind", "force": [1, 0, 0], "particle": 1, "range": {"start": 0, "count": 2}}]')],
  ['a strength "NaN"', forces('[{"type": "turbulence", "strength": "NaN", "frequency": 1, "seed": 1}]')],
  ['a range key typo', forces('[{"type": "drag", "k1": 1, "k2": 0, "range": {"start": 0, "cuont": 1}}]')],
  // test/emitters.scene.test.ts
  ['a negative rate', '{"capacity": 8, "emitters": [{"rate": -1}]}'],
  ['an empty lifetime', '{"capacity": 8, "emitters": [{"lifetime": [2, 1]}]}'],
  ['a bad shape', '{"capacity": 8, "emitters": [{"shape": {"type": "sphere", "radius": -2}}]}'],
  [
    'an unknown payload',
    '{"capacity": 8, "fireworks": [{"type": 1, "fuse": 1, "payload": [{"type": 4, "count": 2}]}]}',
  ],
  ['emitters not an array', '{"capacity": 8, "emitters": {"rate": 1}}'],
  ['a capacity below the particles', '{"capacity": 1, "particles": [{"position": [0,0,0]}, {"position": [0,0,0]}]}'],
  ['a fractional capacity', '{"capacity": 2.5, "emitters": []}'],
  ['emitters and no capacity', '{"emitters": [{"burst": 3}]}'],
  // test/scene.look.test.ts
  ...(
    [
      3,
      { shape: 'disc' },
      { mode: 'quads' },
      { blend: 1 },
      { colorMode: 'hue' },
      { size: 0 },
      { intensity: -1 },
      { stretch: 'long' },
      { sort: 'front-to-back' },
      { curves: [] },
      { curves: { colour: white } },
      { curves: { color: [] } },
      { curves: { color: [...white, { at: -0.5, color: [1, 0, 0] }] } },
      {
        curves: {
          color: [
            { at: 0.5, color: [1, 1, 1] },
            { at: 0.25, color: [1, 0, 0] },
          ],
        },
      },
      { curves: { color: [{ at: 0, color: [1, 1] }] } },
      { curves: { color: [{ at: 0, color: [1, 1, 2] }] } },
      { curves: { size: stops([1, -1]) } },
      { curves: { opacity: stops([2]) } },
      { curves: { colorBySpeed: { speedRange: 0, gradient: white } } },
      { curves: { colorBySpeed: { speedRange: 1 } } },
      { sprite: { shape: 'cube' } },
      { sprite: { flipbook: { rows: 0, columns: 2 } } },
      { sprite: { flipbook: { rows: 2, columns: 65 } } },
      { sprite: { flipbook: { rows: 2, columns: 2, frames: 5 } } },
      { sprite: { flipbook: { rows: 1, columns: 2, mode: 'loop' } } },
      { sprite: { flipbook: { rows: 1, columns: 2, mode: 'fps' } } },
      { sprite: { flipbook: { rows: 1, columns: 2, cycles: 0 } } },
      { sprite: { flipbook: { rows: 1, columns: 2, blend: 1 } } },
      { sprite: { flipbook: { rows: 1, columns: 2, speed: 1 } } },
      { sprite: { rotation: [1, 0] } },
      { sprite: { spin: [0] } },
      { sprite: { spin: [0, 1e5] } },
      { sprite: { orient: 'up' } },
      { sprite: { softDistance: 0 } },
      { sprite: { filter: 'cubic' } },
      { sprite: { image: 'flame.png' } },
      { trails: 16 },
      { trails: {} },
      { trails: { length: 1 } },
      { trails: { length: 2.5 } },
      { trails: { length: 8, width: 0 } },
      { trails: { length: 8, curves: { width: stops([1]) } } },
      { trails: { length: 8, curves: { width: stops([-1]), color: white } } },
      { trails: { length: 8, blend: 'multiply' } },
      { trails: { length: 8, intensity: -2 } },
      { trails: { length: 8, fade: 1 } },
    ] as unknown[]
  ).map((look): [string, string] => [`look ${JSON.stringify(look)}`, lookScene({ look })]),
  [
    "an emitter look's opacity 1.5",
    lookScene({ emitters: [emitterAt(0), emitterAt(1, { curves: { opacity: stops([1.5]) } })] }),
  ],
  ['an emitter look []', lookScene({ emitters: [emitterAt(0, [])] })],
  ["an emitter look's trails of length 1", lookScene({ emitters: [emitterAt(0, { trails: { length: 1 } })] })],
  ["an emitter look's blend screen", lookScene({ emitters: [emitterAt(0, { blend: 'screen' })] })],
  ["a firework rule look's sprite shape x", lookScene({ fireworks: [rule({ sprite: { shape: 'x' } })] })],
  ["a firework rule look's size -1", lookScene({ fireworks: [rule({ size: -1 })] })],
];

/**
 * Refused scenes the schema accepts, each with the reason JSON Schema does
 * not say it (or the zod definition keeps it opaque). Kept honest: each must
 * really be accepted by the schema and refused by parseScene.
 */
const DIFFERENCES: Record<string, string> = {
  'non-JSON': 'not JSON: nothing to validate',
  'mass -1': "the particle's value rules are zod refinements (the core's predicates), which JSON Schema cannot carry",
  'damping 1.5': "the particle's value rules are zod refinements (the core's predicates)",
  'a negative scene radius': "the radius rule is a zod refinement (the core's predicate)",
  'mass and inverseMass that disagree': 'a rule across fields (mass = 1 / inverseMass)',
  'a link past the particles': 'an index range that depends on the particle count',
  'a spring end out of range': 'an index range that depends on the particle count',
  'a spring joining a particle to itself': 'a rule across fields (a != b)',
  'a target particle out of range': 'an index range that depends on the particle count',
  'a target range too long': 'an index range that depends on the particle count',
  'two targets': 'a rule across fields (one of particle, particles, range)',
  'an empty lifetime': 'a rule across fields (min <= max)',
  'an unknown payload': 'a reference across the rules (a payload names an existing firework type)',
  'a capacity below the particles': 'a rule across fields (capacity >= the particle count)',
  'look {"curves":{"color":[{"at":0.5,"color":[1,1,1]},{"at":0.25,"color":[1,0,0]}]}}':
    'a rule across entries (stops sorted by at)',
  'look {"sprite":{"flipbook":{"rows":2,"columns":2,"frames":5}}}': 'a rule across fields (frames <= rows * columns)',
  'look {"sprite":{"flipbook":{"rows":1,"columns":2,"mode":"fps"}}}': 'a rule across fields (fps required in fps mode)',
  'look {"sprite":{"rotation":[1,0]}}': 'a rule across fields (min <= max)',
};

describe('scenes the tests refuse fail the schema too (or are listed with the reason)', () => {
  it.each(refusedScenes)('%s', (name, text) => {
    expect(() => parseScene(text, 'scene.json')).toThrow(SparkworksInputError);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      expect(DIFFERENCES[name]).toBeDefined();
      return;
    }
    const errors = schemaErrors(json);
    if (name in DIFFERENCES) expect(errors, `listed as a difference: ${DIFFERENCES[name]}`).toBe('');
    else expect(errors, 'the schema accepts a scene the format refuses').not.toBe('');
  });

  it('lists no difference that is not a case', () => {
    const names = new Set(refusedScenes.map(([name]) => name));
    expect(Object.keys(DIFFERENCES).filter((name) => !names.has(name))).toEqual([]);
  });
});
