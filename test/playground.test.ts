/**
 * The playground's pure parts, in Node: a refusal's JSON path found in the
 * text (what the editor marks), the share link's round trip, and the gizmos'
 * geometry. The page itself is tested in Chromium (browser.playground.test.ts).
 */
import { jsonLanguage } from '@codemirror/lang-json';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../src/demos/playground/examples';
import { box, circle, planeAxes, sceneExtent } from '../src/demos/playground/gizmos';
import { locateJsonPath, parseJsonPath } from '../src/demos/playground/jsonPath';
import { readHash, shareHash } from '../src/demos/playground/share';
import { checkScene } from '../src/demos/playground/validate';
import { parseScene } from '../src/scene/scene';

const check = (text: string) => checkScene(text, 'scene.json', jsonLanguage.parser.parse(text));

/** The span checkScene marks, as text; and the message, which must be parseScene's. */
function marked(text: string): { path: string; span: string; message: string } {
  const result = check(text);
  if (result.ok) throw new Error('expected a refusal');
  expect(() => parseScene(text, 'scene.json')).toThrow(result.message);
  return { path: result.path, span: text.slice(result.from, result.to), message: result.message };
}

describe('the playground: where a refusal is in the text', () => {
  it('reads the paths parseScene writes', () => {
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('$.particles[12].mass')).toEqual(['particles', 12, 'mass']);
    expect(parseJsonPath('$["odd key"][0]')).toEqual(['odd key', 0]);
    expect(parseJsonPath('$["say \\"hi\\""]')).toEqual(['say "hi"']);
    expect(() => parseJsonPath('particles')).toThrow(SyntaxError);
  });

  it('marks the property refused, an unknown key with its value, and the object a required key is missing from', () => {
    const bad = '{"particles": [{"position": [0, 0, 0]}, {"position": [1, 0, 0], "mass": -2}]}';
    expect(marked(bad)).toMatchObject({ path: '$.particles[1].mass', span: '"mass": -2' });
    const unknown = '{"particles": [{"position": [0, 0, 0], "mas": 2}]}';
    expect(marked(unknown)).toMatchObject({ path: '$.particles[0].mas', span: '"mas": 2' });
    const collider =
      '{"particles": [{"position": [0, 0, 0]}], "colliders": [{"type": "sphere", "center": [0, 0, 0], "radius": -1}]}';
    expect(marked(collider)).toMatchObject({ path: '$.colliders[0].radius', span: '"radius": -1' });
    // "particles" left out: the top-level object is marked.
    const missing = '{"radius": 1}';
    expect(marked(missing)).toMatchObject({ path: '$.particles', span: missing });
    // Duplicate keys: JSON.parse keeps the last, so does the mark.
    const twice = '{"particles": [{"position": [0, 0, 0], "mass": 1, "mass": -1}]}';
    expect(marked(twice)).toMatchObject({ path: '$.particles[0].mass', span: '"mass": -1' });
  });

  it('marks a syntax error where JSON.parse stops', () => {
    const text = '{"particles": [{"position": [0, 0, 0],}]}';
    const result = check(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.path).toBe('$');
    expect(text[result.from]).toBe('}');
  });

  it('finds every example valid', () => {
    for (const { id } of EXAMPLES) {
      expect(check(readFileSync(`public/scenes/${id}.json`, 'utf8')).ok, id).toBe(true);
    }
  });

  it('leads a path into a whole file to the value it names', () => {
    const text = readFileSync('public/scenes/bridge.json', 'utf8');
    const tree = jsonLanguage.parser.parse(text);
    const scene = JSON.parse(text) as { links: { maxLength?: number }[] };
    const at = locateJsonPath(tree, text, ['links', 3, 'maxLength']);
    expect(at.exact).toBe(true);
    expect(JSON.parse(`{${text.slice(at.from, at.to)}}`)).toEqual({ maxLength: scene.links[3]!.maxLength });
    expect(locateJsonPath(tree, text, ['links', 999]).exact).toBe(false);
  });
});

describe('the playground: the share link', () => {
  it('restores the exact text and name, whatever the characters', () => {
    const text = '{\r\n\t"description": "é — ✓ 🔥 100% & #hash ?q=1 \\u0000 \u2028",\n"particles": [{}]\n}  ';
    const hash = shareHash({ text, name: 'my scene #1.json' });
    expect(hash).toMatch(/^#scene=[A-Za-z0-9+\-$]+&name=/);
    expect(readHash(hash)).toEqual({ shared: { text, name: 'my scene #1.json' } });
    expect(readHash('#example=bridge')).toEqual({ example: 'bridge' });
    expect(readHash('')).toBeNull();
    // A link cut short does not decompress: nothing is restored rather than a wrong text.
    expect(readHash(hash.slice(0, 20))).toBeNull();
  });
});

describe('the playground: gizmos', () => {
  it('draws a box as twelve edges and a circle closed, at its radius', () => {
    const strips = box([1, 2, 3], [1, 2, 3]);
    const segments = strips.reduce((n, s) => n + s.length / 3 - 1, 0);
    expect(segments).toBe(12);
    const ring = circle([0, 0, 0], [0, 0, 1], 2);
    expect(ring.slice(0, 3)).toEqual(ring.slice(-3).map((x) => expect.closeTo(x, 12)));
    for (let i = 0; i < ring.length; i += 3) {
      expect(Math.hypot(ring[i]!, ring[i + 1]!)).toBeCloseTo(2, 12);
      expect(ring[i + 2]).toBeCloseTo(0, 12);
    }
  });

  it('spans a plane with two unit axes across its normal', () => {
    for (const normal of [
      [0, 1, 0],
      [1, 0, 0],
      [0.6, 0, 0.8],
    ] as [number, number, number][]) {
      const [u, v] = planeAxes(normal);
      const dot = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
      expect(dot(u, normal)).toBeCloseTo(0, 12);
      expect(dot(v, normal)).toBeCloseTo(0, 12);
      expect(dot(u, v)).toBeCloseTo(0, 12);
      expect(dot(u, u)).toBeCloseTo(1, 12);
      expect(dot(v, v)).toBeCloseTo(1, 12);
    }
  });

  it('frames what a scene places', () => {
    const scene = parseScene('{"particles": [{"position": [-1, 0, 0]}, {"position": [3, 0, 0]}]}', 'scene.json');
    expect(sceneExtent(scene)).toEqual({ centre: [1, 0, 0], radius: 2 });
  });
});
