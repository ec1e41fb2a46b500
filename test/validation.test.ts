/**
 * The shared refusal vocabulary: one wording, values shown readably, and the
 * error each module asks for. Pure TypeScript.
 */
import { describe, expect, it } from 'vitest';
import { check as collisionCheck } from '../src/core/collisions/check';
import { SparkworksInputError } from '../src/core/errors';
import { refusal } from './support/refusal';
import { SHOWN_LENGTH, pathOf, refusalMessage, showValue, validator, type Validator } from '../src/core/validation';

describe('showValue', () => {
  it.each([
    [undefined, 'nothing'],
    [null, 'null'],
    [Number.NaN, 'NaN'],
    [-Infinity, '-Infinity'],
    [1e39, '1e+39'],
    [true, 'true'],
    ['abc', '"abc"'],
    [[0, Number.NaN, 1], '[0,NaN,1]'],
    [new Float32Array([1, 2]), '[1,2]'],
    [{ type: 'plane', normal: [0, 1, 0] }, '{"type":"plane","normal":[0,1,0]}'],
    [[[]], '[[]]'],
  ])('shows %s as %s', (value, shown) => {
    expect(showValue(value)).toBe(shown);
  });

  it('never shows [object Object], and cuts long values', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(showValue(cyclic)).toBe('{"a":1,"self":(circular)}');
    const long = showValue(Array.from({ length: 10000 }, (_, i) => i));
    expect(long.length).toBe(SHOWN_LENGTH);
    expect(long.startsWith('[0,1,2,')).toBe(true);
    expect(long.endsWith('...')).toBe(true);
    expect(showValue('x'.repeat(1000)).length).toBe(SHOWN_LENGTH);
  });
});

describe('validator', () => {
  const check: Validator = validator();

  it('words every refusal `what = value is invalid: rule` and keeps what and value', () => {
    const error = refusal(() => check.refuse('a.b[2]', [1, 2], 'must be good'));
    expect(error.message).toBe('a.b[2] = [1,2] is invalid: must be good');
    expect(error.message).toBe(refusalMessage('a.b[2]', [1, 2], 'must be good'));
    expect(error.what).toBe('a.b[2]');
    expect(error.value).toEqual([1, 2]);
  });

  it('checks numbers, integers, vectors, objects, keys, flags and choices', () => {
    expect(check.number('x', 2, 'must be > 1', (x) => x > 1)).toBe(2);
    expect(refusal(() => check.number('x', '2', 'must be > 1', (x) => x > 1)).message).toBe(
      'x = "2" is invalid: must be > 1',
    );
    expect(refusal(() => check.finite('x', 1e39, 'must be finite')).message).toBe(
      'x = 1e+39 is invalid: must be finite',
    );
    expect(refusal(() => check.integer('n', 1.5, 0, 9)).message).toBe(
      'n = 1.5 is invalid: must be an integer in [0, 9]',
    );
    expect(refusal(() => check.integer('n', -1, 0, Infinity)).message).toBe(
      'n = -1 is invalid: must be an integer >= 0',
    );
    expect(check.vector('v', new Float64Array([1, 2, 3]), 'must be 3 numbers')).toEqual([1, 2, 3]);
    expect(refusal(() => check.vector('v', [1, 2], 'must be 3 numbers')).message).toBe(
      'v = [1,2] is invalid: must be 3 numbers',
    );
    const component = refusal(() =>
      check.vector('v', [1, Number.NaN], 'must be 2', { length: 2, componentRule: 'finite' }),
    );
    expect(component.what).toBe('v[1]');
    expect(component.message).toBe('v[1] = NaN is invalid: finite');
    expect(refusal(() => check.object('o', [1], ['a'])).message).toBe('o = [1] is invalid: must be an object');
    expect(refusal(() => check.object('o', { a: 1, b: 2 }, ['a'])).message).toBe(
      'o.b = 2 is invalid: unknown field (known: a)',
    );
    expect(refusal(() => check.keys('o', { type: 'x', c: 1 }, ['a'], { kind: 'x', ignore: ['type'] })).message).toBe(
      'o.c = 1 is invalid: unknown x field (known: a)',
    );
    expect(check.flag('f', undefined)).toBe(false);
    expect(refusal(() => check.flag('f', 'yes')).message).toBe('f = "yes" is invalid: must be true or false');
    expect(check.oneOf('t', 'b', ['a', 'b'])).toBe('b');
    expect(refusal(() => check.oneOf('t', 'toString', ['a', 'b'])).message).toBe(
      't = "toString" is invalid: must be one of a, b',
    );
  });

  it('throws SparkworksInputError carrying the rule, for every module', () => {
    const error = refusal(() => collisionCheck.refuse('colliders[0].radius', -1, 'must be > 0'));
    expect(error).toBeInstanceOf(SparkworksInputError);
    expect(error.rule).toBe('must be > 0');
    expect(error.what).toBe('colliders[0].radius');
    expect(error.value).toBe(-1);
  });
});

describe('pathOf', () => {
  it('turns a `what` back into JSON path keys', () => {
    expect(pathOf('colliders[2].normal[1]')).toEqual(['colliders', 2, 'normal', 1]);
    expect(pathOf('forces[0].range.count')).toEqual(['forces', 0, 'range', 'count']);
  });
});
