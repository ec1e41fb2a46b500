/**
 * The struct schema (src/core/schema.ts): WGSL's layout rules on the host, and
 * on the adapter that every record and uniform block the system declares sits
 * where the schema says (test/support/structCheck.ts).
 */
import { describe, expect, it } from 'vitest';
import { arrayOf, defineStruct, StructArray, type StructDef } from '../src/core/schema';
import { ALL_STRUCTS } from './support/structs';
import { checkStructOnGpu } from './support/structCheck';
import { useDevice } from './support/gpu';

const gpu = useDevice();

describe('struct schema: WGSL layout rules', () => {
  it('places members at multiples of their alignment and rounds the size to the largest (WGSL §14.4 example)', () => {
    // The spec's own example: struct A { u: f32, v: f32, w: vec2f, x: f32 } has offsets 0, 4, 8, 16, size 24.
    const a = defineStruct('A', { u: 'f32', v: 'f32', w: 'vec2f', x: 'f32' });
    expect(a.offsets).toEqual({ u: 0, v: 4, w: 8, x: 16 });
    expect([a.align, a.size]).toEqual([8, 24]);
    // struct B { a: vec2f, b: vec3f, c: f32, d: f32, e: A, f: vec3f, g: array<A, 3>, h: i32 }: offsets per the spec.
    const b = defineStruct('B', {
      a: 'vec2f',
      b: 'vec3f',
      c: 'f32',
      d: 'f32',
      e: a,
      f: 'vec3f',
      g: arrayOf(a, 3),
      h: 'i32',
    });
    expect(b.offsets).toEqual({ a: 0, b: 16, c: 28, d: 32, e: 40, f: 64, g: 80, h: 152 });
    expect([b.align, b.size]).toEqual([16, 160]);
  });

  it('prints the declaration with offsets and notes', () => {
    const s = defineStruct('S', { position: { type: 'vec3f', doc: 'metres' }, count: 'u32' });
    expect(s.wgsl()).toBe(
      [
        '// Generated from src/core/schema.ts: 16 bytes',
        'struct S {',
        '  position: vec3f, // offset 0: metres',
        '  count: u32, // offset 12',
        '}',
      ].join('\n'),
    );
  });

  it('reads and writes each field through the view of its own kind', () => {
    const s = defineStruct('Mixed', { x: 'f32', n: 'u32', k: 'i32', v: 'vec3f' });
    const records = s.array(2);
    records.set(1, 'x', 1.5).set(1, 'n', 0xffffffff).set(1, 'k', -7).set(1, 'v', [1, 2, 3]);
    expect([records.get(1, 'x'), records.get(1, 'n'), records.get(1, 'k')]).toEqual([1.5, 0xffffffff, -7]);
    expect(records.getVector(1, 'v', [0, 0, 0])).toEqual([1, 2, 3]);
    expect(records.index(1, 'v', 2)).toBe(8 + 4 + 2);
    // The u32 all-ones pattern is a NaN as a float: it never passes through the float view.
    expect(records.words[records.index(1, 'n')]).toBe(0xffffffff);
    expect(() => records.set(0, 'v', [1, 2, 3, 4])).toThrow(/holds 3 components, got 4/);
    const copy = StructArray.from(s, records.words);
    expect(copy.get(1, 'k')).toBe(-7);
  });

  it('views an array member of a struct as records of its element', () => {
    const inner = defineStruct('Inner', { center: 'vec3f', n: 'u32' });
    const outer = defineStruct('Outer', { dt: 'f32', count: 'u32', items: arrayOf(inner, 4) });
    expect(outer.offsets.items).toBe(16);
    const value = outer.value();
    value.member('items', inner).set(2, 'n', 9);
    expect(value.records.words[4 + 2 * 4 + 3]).toBe(9);
    expect(() => value.member('dt', inner)).toThrow(/not an array of Inner/);
  });
});

describe('struct schema on the adapter', () => {
  it.each(ALL_STRUCTS.map((s): [string, StructDef] => [s.name, s]))(
    '%s: every field at the offset the schema computed',
    async (_name, struct) => {
      expect(await checkStructOnGpu(gpu.get().device, struct)).toEqual([]);
    },
  );
});
