/**
 * Unknown keys at a scene file's top level are refused, with the key they
 * were probably meant to be (issue 17, item 4); `$schema` and `description`
 * are allowed. Before, a typo such as "collider" ran without the collider.
 */
import { describe, expect, it } from 'vitest';
import { parseScene } from '../src/scene/scene';
import { sceneRefusal } from './support/refusal';

const scene = (extra: string) => `{"particles": [{"position": [0, 1, 0]}], ${extra}}`;

const message = (text: string): string => sceneRefusal(text, 'typo.json').message;

describe('scene file keys', () => {
  it.each([
    ['collider', 'colliders'],
    ['force', 'forces'],
    ['emitter', 'emitters'],
    ['capacty', 'capacity'],
    ['Radius', 'radius'],
    ['firework', 'fireworks'],
  ])('refuses the top-level key "%s", suggesting "%s"', (typo, meant) => {
    const text = message(scene(`"${typo}": []`));
    expect(text).toContain(`typo.json: $.${typo}: unknown scene key (did you mean "${meant}"?)`);
    expect(text.split('\n')).toHaveLength(1);
  });

  it('refuses an unrelated key without a guess, listing the known keys', () => {
    expect(message(scene('"gravity": [0, -9.8, 0]'))).toMatch(/\$\.gravity: unknown scene key \(known: .*particles/);
  });

  it('suggests the nearest particle field too', () => {
    expect(message('{"particles": [{"position": [0, 0, 0], "velocty": [1, 0, 0]}]}')).toContain(
      '$.particles[0].velocty: unknown particle field (did you mean "velocity"?)',
    );
  });

  it('names a misspelt required field as unknown, not the field it meant as missing', () => {
    expect(message('{"particles": [{"positon": [0, 1, 0]}]}')).toContain(
      '$.particles[0].positon: unknown particle field (did you mean "position"?)',
    );
  });

  it('refuses a JSON syntax error with its line and column, without echoing the file', () => {
    const text = message('{\n  "particles": [\n    {"position": [0, 1, 0]]\n}');
    expect(text).toMatch(/^typo\.json: \$: not valid JSON \(.*at position 45, line 3, column 27\)$/);
    expect(text).not.toContain('got');
  });

  it('names a number past float32 as out of its range', () => {
    expect(message('{"particles": [{"position": [0, 1e39, 0]}]}')).toMatch(
      /position\[1\]: .*; got 1e\+39 \(out of float32's range, magnitude at most 3\.4028235e\+38\)$/,
    );
    expect(message('{"particles": [{"position": [0, -1e400, 0]}]}')).toMatch(
      /position\[1\]: .*; got -Infinity \(as JSON reads a number past 1e308: out of float32's range/,
    );
  });

  it('refuses unknown keys in a force target range', () => {
    const text = message(scene('"forces": [{"type": "drag", "k1": 1, "k2": 0, "range": {"start": 0, "cuont": 1}}]'));
    expect(text).toMatch(/\$\.forces\[0\]\.range\.cuont/);
  });

  it('refuses 5,000 levels of nesting with one line naming the path, not a stack overflow (issue 17 item 3)', () => {
    const deep = (open: string, close: string) => open.repeat(5000) + close.repeat(5000);
    expect(message(scene(`"forces": [${deep('[', ']')}]`))).toMatch(/^typo\.json: \$\.forces\[0\]: must be an object/);
    expect(message(scene(`"emitters": [{"shape": ${deep('{"a":', '}').replace('{"a":}', '{"a":1}')}}]`))).toMatch(
      /^typo\.json: \$\.emitters\[0\]/,
    );
  });

  it('reads a file that starts with a UTF-8 byte-order mark, and names 1e400 as Infinity (issue 17 item 9)', () => {
    expect(parseScene(`\uFEFF${scene('"description": "bom"')}`, 'bom.json').particles).toHaveLength(1);
    expect(message('{"particles": [{"position": [1e400, 0, 0]}]}')).toMatch(
      /position\[0\]: must be a finite number; got Infinity/,
    );
  });

  it('accepts "$schema" and "description" as strings', () => {
    const parsed = parseScene(scene('"$schema": "./scene.schema.json", "description": "a ball"'), 'ok.json');
    expect(parsed.particles).toHaveLength(1);
    expect(message(scene('"description": 3'))).toMatch(/\$\.description: must be a string/);
  });
});
