/**
 * Mutations of JSON documents for the scene-file properties: a document is
 * held as a tree that keeps what JSON text can say and a JavaScript object
 * cannot (a key given twice, a "__proto__" key, a number such as 1e400 that
 * parses to Infinity), mutated by plain-data operations (so fast-check can
 * shrink them and print them), and rendered back to text.
 */
import fc from 'fast-check';
import { sceneObject } from '../../src/scene/scene';

/** An object as JSON text writes it: entries in order, repeats and any key allowed. */
export class JsonObject {
  constructor(readonly entries: [string, Tree][]) {}
}
/** Text inserted as it is: numbers JavaScript cannot hold (1e400), deep nesting. */
export class RawJson {
  constructor(readonly text: string) {}
  /** fast-check prints counterexamples with this. */
  toString(): string {
    return this.text.length > 60 ? `raw(${this.text.slice(0, 30)}...${this.text.length} chars)` : `raw(${this.text})`;
  }
}
export type Tree = null | boolean | number | string | RawJson | JsonObject | Tree[];

/** A parsed JSON value as a tree. */
export function toTree(value: unknown): Tree {
  if (Array.isArray(value)) return value.map(toTree);
  if (value !== null && typeof value === 'object') {
    return new JsonObject(Object.entries(value).map(([key, item]) => [key, toTree(item)]));
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return new RawJson(value > 0 ? '1e400' : '-1e400');
  return value as Tree;
}

/** The tree as JSON text. */
export function render(tree: Tree): string {
  if (tree instanceof RawJson) return tree.text;
  if (tree instanceof JsonObject) {
    return `{${tree.entries.map(([key, value]) => `${JSON.stringify(key)}:${render(value)}`).join(',')}}`;
  }
  if (Array.isArray(tree)) return `[${tree.map(render).join(',')}]`;
  return JSON.stringify(tree);
}

/** Where a node sits: its parent and its key or index there. */
interface Slot {
  parent: JsonObject | Tree[];
  /** Index into the parent's entries or elements. */
  index: number;
}

/** Every node below the root, depth first. */
function slots(tree: Tree, out: Slot[] = []): Slot[] {
  if (tree instanceof JsonObject) {
    tree.entries.forEach(([, value], index) => {
      out.push({ parent: tree, index });
      slots(value, out);
    });
  } else if (Array.isArray(tree)) {
    tree.forEach((value, index) => {
      out.push({ parent: tree, index });
      slots(value, out);
    });
  }
  return out;
}

function valueAt({ parent, index }: Slot): Tree {
  return parent instanceof JsonObject ? (parent.entries[index] as [string, Tree])[1] : (parent[index] as Tree);
}

function setAt({ parent, index }: Slot, value: Tree): void {
  if (parent instanceof JsonObject) (parent.entries[index] as [string, Tree])[1] = value;
  else parent[index] = value;
}

function clone(tree: Tree): Tree {
  if (tree instanceof JsonObject) return new JsonObject(tree.entries.map(([k, v]) => [k, clone(v)]));
  if (Array.isArray(tree)) return tree.map(clone);
  return tree;
}

/** One change to a tree, at the `at`-th node (modulo the node count), as plain data. */
export type Mutation =
  | { kind: 'drop'; at: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'rename'; at: number; key: string }
  | { kind: 'replace'; at: number; value: Tree }
  | { kind: 'insert'; at: number; key: string; value: Tree }
  | { kind: 'nest'; at: number; depth: number; as: 'array' | 'object' }
  | { kind: 'renumber'; at: number; value: number };

/** Applies the mutations in order to a copy of `tree`. */
export function mutate(tree: Tree, mutations: readonly Mutation[]): Tree {
  let root = clone(tree);
  for (const m of mutations) {
    if (m.kind === 'renumber') {
      // The at-th number of the document, whatever it is.
      const numbers = slots(root).filter((slot) => typeof valueAt(slot) === 'number');
      if (numbers.length > 0) setAt(numbers[m.at % numbers.length] as Slot, m.value);
      continue;
    }
    const all = slots(root);
    if (m.kind === 'replace' && all.length === 0) {
      root = m.value;
      continue;
    }
    if (all.length === 0) continue;
    const slot = all[m.at % all.length] as Slot;
    const { parent, index } = slot;
    switch (m.kind) {
      case 'drop':
        if (parent instanceof JsonObject) parent.entries.splice(index, 1);
        else parent.splice(index, 1);
        break;
      case 'duplicate':
        if (parent instanceof JsonObject) {
          const [key, value] = parent.entries[index] as [string, Tree];
          parent.entries.splice(index + 1, 0, [key, clone(value)]);
        } else parent.splice(index + 1, 0, clone(parent[index] as Tree));
        break;
      case 'rename':
        if (parent instanceof JsonObject) (parent.entries[index] as [string, Tree])[0] = m.key;
        break;
      case 'replace':
        setAt(slot, m.value);
        break;
      case 'insert': {
        const target = valueAt(slot);
        if (target instanceof JsonObject) target.entries.push([m.key, m.value]);
        else if (Array.isArray(target)) target.push(m.value);
        else if (parent instanceof JsonObject) parent.entries.push([m.key, m.value]);
        break;
      }
      case 'nest': {
        let value = valueAt(slot);
        // Built as raw text: a deep tree would overflow render's own recursion.
        const inner = render(value);
        value = new RawJson(
          m.as === 'array'
            ? '['.repeat(m.depth) + inner + ']'.repeat(m.depth)
            : '{"a":'.repeat(m.depth) + inner + '}'.repeat(m.depth),
        );
        setAt(slot, value);
        break;
      }
    }
  }
  return root;
}

/** Names Object's prototype carries, and others a lookup table might trip on. */
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
  'length',
] as const;

/** The scene format's own words: a rename to one of them makes a plausible but wrong document. */
export const FORMAT_NAMES = [
  ...Object.keys(sceneObject.shape),
  'position',
  'velocity',
  'acceleration',
  'mass',
  'inverseMass',
  'damping',
  'type',
  'a',
  'b',
  'anchor',
  'particle',
  'range',
  'start',
  'count',
  'shape',
  'payload',
  'fuse',
  'firework',
  'center',
  'normal',
  'halfExtents',
  'rotation',
  'inside',
  'kill',
  'restitution',
  'iterations',
  'skin',
  'particleCollisions',
  'lifetime',
  'rate',
  'burst',
  'g',
  'k1',
  'strength',
  'softening',
  'axis',
  'seed',
  'gravity',
  'spring',
  'plane',
  'sphere',
  'box',
  'cable',
  'rod',
] as const;

/** A long string: the messages must cut it (test it with LONG_CHAR). */
export const LONG_CHAR = 'Z';

/** Numbers JSON can write but a float32 (or a double) cannot hold, and edge values of every rule. */
const RAW_NUMBERS = [
  '1e400',
  '-1e400',
  '1e39',
  '-1e39',
  '3.4028235677973366e38',
  '3.4028234663852886e38',
  '1e308',
  '1.7976931348623157e308',
  '5e-324',
  '1e-45',
  '1e-39',
  '1.1754943508222875e-38',
  '-0',
  '0',
  '0.0',
  '1E2',
  '-1',
  '0.5',
  '1.5',
  '2',
  '3',
  '64',
  '65',
  '255',
  '256',
  '257',
  '16777216',
  '16777217',
  '2147483647',
  '2147483648',
  '4294967295',
  '4294967296',
  '9007199254740993',
  '123456789012345678901234567890',
  '8.5e37',
  '8.6e37',
  '9.3e18',
  '9.2e18',
];

/** Values of the wrong kind, or of the right kind at the edge. */
export function hostileValue(): fc.Arbitrary<Tree> {
  const word = fc.constantFrom<string>(
    ...PROTOTYPE_NAMES,
    ...FORMAT_NAMES,
    'NaN',
    'Infinity',
    '-Infinity',
    '1e400',
    '',
    ' ',
    '0',
    'null',
    'true',
  );
  const leaf: fc.Arbitrary<Tree> = fc.oneof(
    fc.constantFrom(null, true, false),
    word,
    fc.constantFrom(...RAW_NUMBERS).map((text) => new RawJson(text)),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer({ min: -5, max: 70 }),
    fc.string({ maxLength: 8, unit: 'grapheme' }),
    fc.integer({ min: 101, max: 20_000 }).map((n) => LONG_CHAR.repeat(n)),
  );
  const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: leaf, weight: 6 },
      { arbitrary: fc.array(tie('tree'), { maxLength: 4 }), weight: 1 },
      {
        arbitrary: fc
          .array(fc.tuple(fc.oneof(word, fc.string({ maxLength: 6 })), tie('tree')), { maxLength: 4 })
          .map((entries) => new JsonObject(entries)),
        weight: 1,
      },
    ),
  }));
  return tree;
}

/** A key to rename to or insert: the format's own words, prototype names, near misses, anything. */
export function hostileKey(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom<string>(...PROTOTYPE_NAMES),
    fc.constantFrom<string>(...FORMAT_NAMES),
    fc.constantFrom<string>(...FORMAT_NAMES).map((name) => name.slice(0, -1)),
    fc.constantFrom<string>(...FORMAT_NAMES).map((name) => name.toUpperCase()),
    fc.string({ maxLength: 10 }),
    fc.integer({ min: 101, max: 20_000 }).map((n) => LONG_CHAR.repeat(n)),
  );
}

/**
 * Finite float32 values of every magnitude, and their negatives: what a rule
 * with no upper limit accepts (speeds, accelerations, positions, strengths),
 * from the largest float32 down to the smallest normal one.
 */
export function extremeNumber(): fc.Arbitrary<number> {
  const magnitude = fc.oneof(
    fc.constantFrom(3.4e38, 3e38, 1e38, 8.5e37, 1e30, 1.8e19, 4.6e18, 1e10, 1.1754944e-38, 1e-30, 1e-10),
    fc.integer({ min: -37, max: 38 }).map((e) => 10 ** e),
  );
  return fc.tuple(magnitude, fc.boolean()).map(([x, negative]) => (negative ? -x : x));
}

/** A number of the document replaced by an extreme one. */
export function renumber(): fc.Arbitrary<Mutation> {
  return fc.record({ kind: fc.constant('renumber' as const), at: fc.nat({ max: 10_000 }), value: extremeNumber() });
}

export function mutation(): fc.Arbitrary<Mutation> {
  const at = fc.nat({ max: 10_000 });
  return fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), at }),
    renumber(),
    fc.record({ kind: fc.constant('duplicate' as const), at }),
    fc.record({ kind: fc.constant('rename' as const), at, key: hostileKey() }),
    { arbitrary: fc.record({ kind: fc.constant('replace' as const), at, value: hostileValue() }), weight: 3 },
    fc.record({ kind: fc.constant('insert' as const), at, key: hostileKey(), value: hostileValue() }),
    fc.record({
      kind: fc.constant('nest' as const),
      at,
      depth: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1000, max: 20_000 })),
      as: fc.constantFrom('array' as const, 'object' as const),
    }),
  );
}

/** One edit of JSON text: a character deleted, inserted or replaced at `at` (modulo the length). */
export interface TextEdit {
  at: number;
  op: 'delete' | 'insert' | 'replace';
  text: string;
}

export function textEdit(): fc.Arbitrary<TextEdit> {
  return fc.record({
    at: fc.nat({ max: 100_000 }),
    op: fc.constantFrom('delete' as const, 'insert' as const, 'replace' as const),
    text: fc.oneof(
      fc.constantFrom(
        '{',
        '}',
        '[',
        ']',
        ',',
        ':',
        '"',
        '\\',
        '-',
        '.',
        'e',
        '0',
        '9',
        ' ',
        '\n',
        '\u0000',
        '\uFEFF',
        'n',
        't',
      ),
      fc.string({ maxLength: 3, unit: 'binary' }),
    ),
  });
}

export function editText(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const { at, op, text: piece } of edits) {
    const i = out.length === 0 ? 0 : at % (out.length + (op === 'insert' ? 1 : 0));
    if (op === 'delete') out = out.slice(0, i) + out.slice(i + 1);
    else if (op === 'insert') out = out.slice(0, i) + piece + out.slice(i);
    else out = out.slice(0, i) + piece + out.slice(i + 1);
  }
  return out;
}
