/**
 * A demo's parameters, declared once: their defaults, ranges and panel
 * folders give the lil-gui panel, the shareable URL (only values that differ
 * from the defaults are written) and the parsing of that URL back, with a
 * note for every value refused.
 */
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';

interface ParamBase {
  /** Panel folder; none: the panel's top level. */
  folder?: string;
  label?: string;
  /** Changing it rebuilds the demo (a new system); otherwise it applies on the next frame. */
  rebuild?: boolean;
  /** Kept out of the URL (e.g. pause). */
  transient?: boolean;
}

export interface NumberParam extends ParamBase {
  kind: 'number';
  value: number;
  min: number;
  max: number;
  step?: number;
  integer?: boolean;
}

export interface ChoiceParam<T extends string = string> extends ParamBase {
  kind: 'choice';
  value: T;
  options: readonly T[];
}

export interface BooleanParam extends ParamBase {
  kind: 'boolean';
  value: boolean;
}

export type ParamDef = NumberParam | ChoiceParam | BooleanParam;
export type ParamDefs = Record<string, ParamDef>;

export type ParamValues<D extends ParamDefs> = {
  -readonly [K in keyof D]: D[K] extends ChoiceParam<infer T>
    ? T
    : D[K] extends NumberParam
      ? number
      : D[K] extends BooleanParam
        ? boolean
        : never;
};

/** Typed helpers so a choice keeps its union type. */
export const param = {
  number: (value: number, min: number, max: number, rest: Omit<NumberParam, 'kind' | 'value' | 'min' | 'max'> = {}) =>
    ({ kind: 'number', value, min, max, ...rest }) as NumberParam,
  integer: (value: number, min: number, max: number, rest: Omit<NumberParam, 'kind' | 'value' | 'min' | 'max'> = {}) =>
    ({ kind: 'number', value, min, max, step: 1, integer: true, ...rest }) as NumberParam,
  choice: <T extends string>(
    value: NoInfer<T>,
    options: readonly T[],
    rest: Omit<ChoiceParam<T>, 'kind' | 'value' | 'options'> = {},
  ) => ({ kind: 'choice', value, options, ...rest }) as ChoiceParam<T>,
  boolean: (value: boolean, rest: Omit<BooleanParam, 'kind' | 'value'> = {}) =>
    ({ kind: 'boolean', value, ...rest }) as BooleanParam,
};

export function defaultValues<D extends ParamDefs>(defs: D): ParamValues<D> {
  const values: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(defs)) values[key] = def.value;
  return values as ParamValues<D>;
}

function coerce(def: ParamDef, raw: string): { value: unknown } | { problem: string } {
  switch (def.kind) {
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) return { problem: 'not a number' };
      if (def.integer && !Number.isInteger(n)) return { problem: 'not an integer' };
      if (n < def.min || n > def.max) return { problem: `outside [${def.min}, ${def.max}]` };
      return { value: n };
    }
    case 'choice':
      return def.options.includes(raw) ? { value: raw } : { problem: `not one of ${def.options.join(', ')}` };
    case 'boolean':
      if (raw === '1' || raw === 'true') return { value: true };
      if (raw === '0' || raw === 'false') return { value: false };
      return { problem: 'not true or false' };
  }
}

/** Values from a query string over the defaults; every refused value is named in `problems`. */
export function valuesFromQuery<D extends ParamDefs>(
  defs: D,
  search: string,
): { values: ParamValues<D>; problems: string[] } {
  const values = defaultValues(defs) as Record<string, unknown>;
  const problems: string[] = [];
  const query = new URLSearchParams(search);
  for (const [key, raw] of query) {
    const def = defs[key];
    if (!def) {
      problems.push(`?${key}: no such parameter`);
      continue;
    }
    const result = coerce(def, raw);
    if ('problem' in result) problems.push(`?${key}=${raw}: ${result.problem}; using ${String(def.value)}`);
    else values[key] = result.value;
  }
  return { values: values as ParamValues<D>, problems };
}

/** The query string for `values`: only what differs from the defaults, in declaration order. */
export function queryFromValues<D extends ParamDefs>(defs: D, values: ParamValues<D>): string {
  const query = new URLSearchParams();
  for (const [key, def] of Object.entries(defs)) {
    if (def.transient) continue;
    const value = (values as Record<string, unknown>)[key];
    if (value === def.value) continue;
    query.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/**
 * Adds a controller per parameter to `gui` (in folders), bound to `values`.
 * `changed(key, def)` runs after each change (on release for rebuilds).
 */
export function buildPanel<D extends ParamDefs>(
  gui: GUI,
  defs: D,
  values: ParamValues<D>,
  changed: (key: keyof D & string, def: ParamDef) => void,
): { controllers: Map<string, Controller>; folders: Map<string, GUI> } {
  const folders = new Map<string, GUI>();
  const controllers = new Map<string, Controller>();
  for (const [key, def] of Object.entries(defs)) {
    let parent = gui;
    if (def.folder) {
      let folder = folders.get(def.folder);
      if (!folder) {
        folder = gui.addFolder(def.folder);
        folders.set(def.folder, folder);
      }
      parent = folder;
    }
    const target = values as Record<string, unknown>;
    let controller: Controller;
    if (def.kind === 'number') controller = parent.add(target, key, def.min, def.max, def.step);
    else if (def.kind === 'choice') controller = parent.add(target, key, [...def.options]);
    else controller = parent.add(target, key);
    controller.name(def.label ?? key);
    // A rebuild waits for the slider's release; a cosmetic change applies while dragging.
    if (def.rebuild) controller.onFinishChange(() => changed(key, def));
    else controller.onChange(() => changed(key, def));
    controllers.set(key, controller);
  }
  return { controllers, folders };
}
