/**
 * How a scene file's refusals read: `scene.json: $.particles[1].mass: <rule>;
 * got <value>`, the JSON path of the first bad field and the value found
 * there, a number past float32's range named so, and the line and column of
 * a JSON syntax error.
 */
import { SparkworksInputError } from '../core/errors';
import { isFiniteFloat32 } from '../core/particles';
import { quote, showValue, shownKey } from '../core/validation';

/** The largest finite float32. */
const FLOAT32_MAX = (2 - 2 ** -23) * 2 ** 127;

/** `$.particles[3].mass`, or `$["odd key"]` for keys that are not identifiers; long keys cut, as values are. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path
    .map((key) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = shownKey(String(key));
      return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${quote(name)}]`;
    })
    .reduce((out, part) => out + part, '$');
}

/** A refusal in the scene file's words, `scene.json: $.particles[1].mass: <rule>; got <value>` (values shown as the core shows them). */
export function refuse(sourceName: string, path: readonly PropertyKey[], rule: string, value: unknown): never {
  const where = jsonPath(path);
  throw new SparkworksInputError(`${sourceName}: ${where}: ${rule}; got ${shownNumber(value)}`, where, value, rule);
}

/**
 * A refused value as shown, a number past float32's range named so: JSON
 * reads 1e400 as Infinity, and 1e39 is finite here but not on the GPU.
 */
function shownNumber(value: unknown): string {
  if (typeof value !== 'number' || Number.isNaN(value) || isFiniteFloat32(value)) return showValue(value);
  const overflow = Number.isFinite(value) ? '' : 'as JSON reads a number past 1e308: ';
  return `${showValue(value)} (${overflow}out of float32's range, magnitude at most ${FLOAT32_MAX.toPrecision(8)})`;
}

/** `, line L, column C` for V8's `at position N` in a JSON error, where it gives no line of its own. */
export function lineAndColumn(text: string, reason: string): string {
  const match = /at position (\d+)(?! \(line)/.exec(reason);
  if (!match) return '';
  const before = text.replace(/^\uFEFF/, '').slice(0, Number(match[1]));
  const lines = before.split('\n');
  return `, line ${lines.length}, column ${(lines.at(-1)?.length ?? 0) + 1}`;
}
