/**
 * One vocabulary for refusing input, shared by every module that checks it
 * (particles, collisions, forces, emitters, the scene file).
 *
 * A refusal names the value and the rule it broke, always in the same words:
 * `what = value is invalid: rule`, e.g.
 * `emitters[2].lifetime = [2,1] is invalid: an empty range: min 2 > max 1`.
 * `what` is a path in the caller's terms (`colliders[0].normal[1]`), which the
 * scene file turns back into a JSON path (`pathOf`). Values are shown
 * readably: numbers as JavaScript prints them (NaN, 1e+39), strings quoted,
 * arrays and objects as JSON, undefined as "nothing", and anything long cut.
 *
 * Every check is argued the same way: `(what, value, rule, ...)`. Each module
 * makes one Validator with the error its callers catch (a SparkworksInputError
 * or a subclass carrying the `rule`), and throws before changing anything.
 */
import { SparkworksInputError } from './errors';

/** Finite once stored as float32 (|x| below about 3.4e38). */
export function isFiniteFloat32(x: number): boolean {
  return typeof x === 'number' && Number.isFinite(Math.fround(x));
}

/** The most characters a shown value takes before it is cut (`...`). */
export const SHOWN_LENGTH = 100;

/**
 * A string as JSON writes it, with the line and paragraph separators (which
 * JSON leaves as they are) escaped too, so a refusal stays on one line.
 */
export function quote(text: string): string {
  return JSON.stringify(text).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** A value as a refusal shows it: `nothing`, `NaN`, `"text"`, `[0,1,2]`, `{"type":"plane"}`. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = printed(value, new Set(), 0);
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH - 3)}...` : text;
}

/**
 * JSON, except that numbers print as JavaScript does (NaN, not null) and
 * typed arrays as arrays; stops once long, and once deep: each level prints
 * at least one character, so past SHOWN_LENGTH levels nothing more can show
 * (and a scene file nested thousands deep must not overflow the stack here).
 */
function printed(value: unknown, open: Set<object>, depth: number): string {
  switch (typeof value) {
    case 'string':
      return quote(value.length > SHOWN_LENGTH ? value.slice(0, SHOWN_LENGTH) : value);
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'object':
      break;
    default:
      return String(value);
  }
  if (value === null) return 'null';
  if (open.has(value)) return '(circular)';
  if (depth >= SHOWN_LENGTH) return '...';
  open.add(value);
  const list = Array.isArray(value) || ArrayBuffer.isView(value);
  const items = list ? (value as ArrayLike<unknown>) : null;
  const keys = list ? [] : Object.keys(value);
  const count = items ? items.length : keys.length;
  let out = '';
  for (let i = 0; i < count && out.length <= SHOWN_LENGTH; i++) {
    const key = keys[i] as string;
    const item = items
      ? printed(items[i], open, depth + 1)
      : `${quote(key)}:${printed((value as Record<string, unknown>)[key], open, depth + 1)}`;
    out += (i > 0 ? ',' : '') + item;
  }
  open.delete(value);
  return list ? `[${out}]` : `{${out}}`;
}

/** The one wording of a refusal. */
export function refusalMessage(what: string, value: unknown, rule: string): string {
  return `${what} = ${showValue(value)} is invalid: ${rule}`;
}

/** A key as a path shows it: cut (`...`) past SHOWN_LENGTH characters, as values are. */
export function shownKey(key: string): string {
  return key.length > SHOWN_LENGTH ? `${key.slice(0, SHOWN_LENGTH - 3)}...` : key;
}

/**
 * `what` for `key` inside `what`: `what.key`, or `what["a.b"]` for a key that
 * is not an identifier (an unknown key a user typed), so `pathOf` reads it
 * back whole; a long key is cut (shownKey).
 */
export function childWhat(what: string, key: string): string {
  const shown = shownKey(key);
  return /^[A-Za-z_$][\w$]*$/.test(shown) ? `${what}.${shown}` : `${what}[${quote(shown)}]`;
}

/**
 * `colliders[2].normal[1]` (a `what`) as a JSON path's keys: ['colliders', 2,
 * 'normal', 1]; a quoted key (`emitters[0]["a.b"]`, see childWhat) is one key.
 */
export function pathOf(what: string): PropertyKey[] {
  const keys: PropertyKey[] = [];
  for (const [, quoted, index, name] of what.matchAll(/\[("(?:[^"\\]|\\.)*")\]|\[(\d+)\]|([^.[\]]+)/g)) {
    if (quoted !== undefined) keys.push(JSON.parse(quoted) as string);
    else if (index !== undefined) keys.push(Number(index));
    else if (name !== undefined) keys.push(/^\d+$/.test(name) ? Number(name) : name);
  }
  return keys;
}

/** Makes the error a refusal throws; the message is already worded. */
export type RefusalError = (message: string, what: string, value: unknown, rule: string) => SparkworksInputError;

const plainError: RefusalError = (message, what, value, rule) => new SparkworksInputError(message, what, value, rule);

const always = (): boolean => true;

/**
 * The checks, each throwing the validator's error. Call them through a
 * typed `const check: Validator`, so that TypeScript knows `check.refuse`
 * does not return.
 */
export interface Validator {
  /** Throws `what = value is invalid: rule`. */
  refuse(what: string, value: unknown, rule: string): never;
  /** A number passing `ok` (which decides about NaN and infinities). */
  number(what: string, value: unknown, rule: string, ok: (x: number) => boolean): number;
  /** A number finite as a float32 and passing `ok`. */
  finite(what: string, value: unknown, rule: string, ok?: (x: number) => boolean): number;
  /** An integer in [min, max]; the rule defaults to `must be an integer in [min, max]` (or `>= min`). */
  integer(what: string, value: unknown, min: number, max: number, rule?: string): number;
  /**
   * `length` numbers, each finite as a float32, as a fresh array. A value
   * that is not a list of `length` is refused with `rule`, a bad component
   * (`what[c]`) with `componentRule` (default `rule`).
   */
  vector(what: string, value: unknown, rule: string, options?: { length?: number; componentRule?: string }): number[];
  /** A plain object (not null, not an array); with `known`, its keys checked too. */
  object(what: string, value: unknown, known?: readonly string[], rule?: string): Record<string, unknown>;
  /**
   * Refuses keys outside `known` (`ignore` is allowed but not listed), so a
   * typo is not silently ignored: `unknown <kind> field (known: ...)`.
   */
  keys(
    what: string,
    value: Record<string, unknown>,
    known: readonly string[],
    options?: { kind?: string; ignore?: readonly string[] },
  ): void;
  /** true or false; left out: false. */
  flag(what: string, value: unknown, rule?: string): boolean;
  /** One of `options`; the rule defaults to `must be one of a, b, c`. */
  oneOf<T extends string>(what: string, value: unknown, options: readonly T[], rule?: string): T;
}

/** A validator whose refusals are made by `error` (default: a plain SparkworksInputError). */
export function validator(error: RefusalError = plainError): Validator {
  const check: Validator = {
    refuse(what, value, rule) {
      throw error(refusalMessage(what, value, rule), what, value, rule);
    },
    number(what, value, rule, ok) {
      if (typeof value !== 'number' || !ok(value)) check.refuse(what, value, rule);
      return value;
    },
    finite(what, value, rule, ok = always) {
      return check.number(what, value, rule, (x) => isFiniteFloat32(x) && ok(x));
    },
    integer(what, value, min, max, rule) {
      const ok = (x: number) => Number.isInteger(x) && x >= min && x <= max;
      const range = max === Infinity ? `>= ${min}` : `in [${min}, ${max}]`;
      return check.number(what, value, rule ?? `must be an integer ${range}`, ok);
    },
    vector(what, value, rule, { length = 3, componentRule = rule } = {}) {
      const v = value as ArrayLike<unknown> | null;
      if (v === null || typeof v !== 'object' || typeof v.length !== 'number' || v.length !== length) {
        check.refuse(what, value, rule);
      }
      const out: number[] = [];
      for (let c = 0; c < length; c++) out.push(check.finite(`${what}[${c}]`, v[c], componentRule));
      return out;
    },
    object(what, value, known, rule = 'must be an object') {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) check.refuse(what, value, rule);
      const object = value as Record<string, unknown>;
      if (known) check.keys(what, object, known);
      return object;
    },
    keys(what, value, known, { kind, ignore = [] } = {}) {
      for (const key of Object.keys(value)) {
        if (!known.includes(key) && !ignore.includes(key)) {
          const field = kind === undefined ? 'field' : `${kind} field`;
          check.refuse(childWhat(what, key), value[key], `unknown ${field} (known: ${known.join(', ')})`);
        }
      }
    },
    flag(what, value, rule = 'must be true or false') {
      if (value === undefined) return false;
      if (typeof value !== 'boolean') check.refuse(what, value, rule);
      return value;
    },
    oneOf<T extends string>(what: string, value: unknown, options: readonly T[], rule?: string): T {
      if (typeof value !== 'string' || !(options as readonly string[]).includes(value)) {
        check.refuse(what, value, rule ?? `must be one of ${options.join(', ')}`);
      }
      return value as T;
    },
  };
  return check;
}

/** Edits (insert, delete, substitute, swap neighbours) between two short strings. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * ` (did you mean "colliders"?)` for a near miss among `known` (a few edits
 * away, or the same but for case or a plural), else nothing.
 */
export function nearMiss(key: string, known: readonly string[]): string {
  // More than 2 edits from every name (and the table would cost key.length rows): no guess.
  if (known.every((name) => Math.abs(name.length - key.length) > 2)) return '';
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of known) {
    const distance = editDistance(key.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  const allowed = Math.max(1, Math.min(2, Math.floor(key.length / 4)));
  return best !== null && bestDistance <= allowed ? ` (did you mean ${JSON.stringify(best)}?)` : '';
}
