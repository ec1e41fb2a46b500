/**
 * Curves over a particle's life: a colour gradient, a size curve and an
 * opacity curve over its normalised age (age / lifetime, in [0, 1]), and
 * colour by speed through the same gradient type. Plain JSON-able data, so a
 * scene file can hold it as it is.
 *
 * Colour space: a gradient's stops are linear-light sRGB (the renderer's
 * colours are linear; it writes them unconverted, and an `-srgb` target
 * encodes them), and a gradient is interpolated linearly in that space,
 * component by component, alpha included (not premultiplied).
 *
 * A curve is piecewise linear through its stops, constant before the first
 * and after the last. Two stops at the same `at` make a step: the value
 * jumps there. evaluateCurve and evaluateGradient are the CPU twins of
 * shaders/render/particles.wgsl's `curveAt` and `gradientAt`, operation for
 * operation (the tests compare pixels with them).
 *
 * Pure data and arithmetic: nothing here knows the GPU.
 */
import { validator, type Validator } from '../validation';

/** The most stops a curve or gradient holds (the GPU record has room for this many). */
export const MAX_CURVE_STOPS = 8;

/** A stop of a gradient: at normalised age (or speed) `at` in [0, 1], the colour `color` (r, g, b[, a] in [0, 1], linear-light sRGB; a defaults to 1). */
export interface ColorStop {
  /** Normalised age (or speed), in [0, 1]; stops sorted by it. */
  readonly at: number;
  /** r, g, b[, a], each in [0, 1], linear-light sRGB, straight alpha (a defaults to 1). */
  readonly color: readonly [number, number, number] | readonly [number, number, number, number];
}

/** A stop of a scalar curve: `value` at normalised age `at` in [0, 1]. */
export interface CurveStop {
  /** Normalised age, in [0, 1]; stops sorted by it. */
  readonly at: number;
  /** The curve's value at `at` (its range is the curve's: size >= 0, opacity in [0, 1]). */
  readonly value: number;
}

/** Colour by speed: the gradient's `at` is speed / speedRange (clamped to [0, 1]). */
export interface ColorBySpeed {
  /** The speed, m/s, drawn at the gradient's end (at = 1). */
  readonly speedRange: number;
  /** Colour and alpha over speed / speedRange, in [0, 1]. */
  readonly gradient: readonly ColorStop[];
}

/**
 * What the curves of a draw (or of one emitter) set. Every field is optional:
 * one left out leaves that property to the look's colour mode and size.
 * Colour over life and colour by speed, when both are given, multiply (as in
 * Unity's particle modules).
 */
export interface LookCurves {
  /** Colour and alpha over normalised age. */
  readonly color?: readonly ColorStop[];
  /** A multiplier of the drawn size over normalised age (>= 0). */
  readonly size?: readonly CurveStop[];
  /** A multiplier of alpha over normalised age, in [0, 1]. */
  readonly opacity?: readonly CurveStop[];
  /** Colour and alpha by speed. */
  readonly colorBySpeed?: ColorBySpeed;
}

/** The fields of LookCurves, as a scene file's keys. */
export const LOOK_CURVE_KEYS = ['color', 'size', 'opacity', 'colorBySpeed'] as const;

const check: Validator = validator();

const inUnit = (x: number): boolean => x >= 0 && x <= 1;

/** Stops: a list of 1..MAX_CURVE_STOPS objects with `at` in [0, 1], sorted. */
function stopList(what: string, value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_CURVE_STOPS) {
    check.refuse(what, value, `must be a list of 1 to ${MAX_CURVE_STOPS} stops`);
  }
  let previous = 0;
  return value.map((stop: unknown, i) => {
    const at = `${what}[${i}]`;
    const object = check.object(at, stop);
    const position = check.finite(`${at}.at`, object.at, 'must be a number in [0, 1]', inUnit);
    if (i > 0 && position < previous) {
      check.refuse(`${at}.at`, position, `stops must be sorted by at: ${position} < ${previous} (the stop before)`);
    }
    previous = position;
    return object;
  });
}

/** A gradient, checked: stops sorted in [0, 1], colours of 3 or 4 components in [0, 1]. Returns the stops with alpha filled in. */
export function validateGradient(what: string, value: unknown): ColorStop[] {
  return stopList(what, value).map((stop, i) => {
    const at = `${what}[${i}]`;
    check.keys(at, stop, ['at', 'color']);
    const c = stop.color as unknown[] | undefined;
    const length = Array.isArray(c) && c.length === 3 ? 3 : 4;
    const rgba = check.vector(`${at}.color`, c, 'must be [r, g, b] or [r, g, b, a]', {
      length,
      componentRule: 'must be a number in [0, 1]',
    });
    rgba.forEach((x, k) => {
      if (!inUnit(x)) check.refuse(`${at}.color[${k}]`, x, 'must be a number in [0, 1]');
    });
    if (rgba.length === 3) rgba.push(1);
    return { at: stop.at as number, color: rgba as [number, number, number, number] };
  });
}

/** A scalar curve, checked: stops sorted in [0, 1], values finite and passing `ok` (`rule` names the limit). */
export function validateCurve(
  what: string,
  value: unknown,
  rule = 'must be a finite number',
  ok: (x: number) => boolean = () => true,
): CurveStop[] {
  return stopList(what, value).map((stop, i) => {
    const at = `${what}[${i}]`;
    check.keys(at, stop, ['at', 'value']);
    return { at: stop.at as number, value: check.finite(`${at}.value`, stop.value, rule, ok) };
  });
}

/** LookCurves, checked (`what` names it in refusals: `look.curves`, `look.rules[2]`). Returns a normalised copy. */
export function validateLookCurves(what: string, value: unknown): LookCurves {
  const object = check.object(what, value, LOOK_CURVE_KEYS);
  const out: {
    color?: ColorStop[];
    size?: CurveStop[];
    opacity?: CurveStop[];
    colorBySpeed?: ColorBySpeed;
  } = {};
  if (object.color !== undefined) out.color = validateGradient(`${what}.color`, object.color);
  if (object.size !== undefined) {
    out.size = validateCurve(`${what}.size`, object.size, 'must be a finite number >= 0', (x) => x >= 0);
  }
  if (object.opacity !== undefined) {
    out.opacity = validateCurve(`${what}.opacity`, object.opacity, 'must be a number in [0, 1]', inUnit);
  }
  if (object.colorBySpeed !== undefined) {
    const at = `${what}.colorBySpeed`;
    const speed = check.object(at, object.colorBySpeed, ['speedRange', 'gradient']);
    out.colorBySpeed = {
      speedRange: check.finite(`${at}.speedRange`, speed.speedRange, 'must be a finite number > 0', (x) => x > 0),
      gradient: validateGradient(`${at}.gradient`, speed.gradient),
    };
  }
  return out;
}

const f = Math.fround;

/**
 * The segment of `at` (n >= 2 positions) that `t` falls in and the share of
 * the way along it, as the shader finds them: the first i with t < at[i + 1]
 * (or the last segment), and clamp((t - at[i]) / (at[i + 1] - at[i]), 0, 1)
 * with a zero-length segment (a step) taken whole.
 */
function segmentOf(at: readonly number[], t: number): [number, number] {
  const n = at.length;
  let i = 0;
  while (i + 2 < n && t >= (at[i + 1] as number)) i++;
  const a = f(at[i] as number);
  const span = f(f(at[i + 1] as number) - a);
  const share = span > 0 ? f(f(t - a) / span) : t >= a ? 1 : 0;
  return [i, Math.min(Math.max(share, 0), 1)];
}

/** WGSL's mix in float32: a * (1 - s) + b * s. */
function mix(a: number, b: number, s: number): number {
  return f(f(f(a) * f(1 - s)) + f(f(b) * s));
}

/** A scalar curve at `t` (float32, as the shader computes it). */
export function evaluateCurve(stops: readonly CurveStop[], t: number): number {
  const first = stops[0];
  if (!first) throw new RangeError('evaluateCurve: a curve has at least one stop');
  if (stops.length === 1) return f(first.value);
  const [i, s] = segmentOf(
    stops.map((x) => x.at),
    f(t),
  );
  return mix((stops[i] as CurveStop).value, (stops[i + 1] as CurveStop).value, s);
}

/** A gradient at `t`, rgba into `out` (float32, as the shader computes it). */
export function evaluateGradient(stops: readonly ColorStop[], t: number, out: number[] = [0, 0, 0, 0]): number[] {
  const first = stops[0];
  if (!first) throw new RangeError('evaluateGradient: a gradient has at least one stop');
  const channel = (stop: ColorStop, k: number) => stop.color[k] ?? 1;
  if (stops.length === 1) {
    for (let k = 0; k < 4; k++) out[k] = f(channel(first, k));
    return out;
  }
  const [i, s] = segmentOf(
    stops.map((x) => x.at),
    f(t),
  );
  for (let k = 0; k < 4; k++) out[k] = mix(channel(stops[i] as ColorStop, k), channel(stops[i + 1] as ColorStop, k), s);
  return out;
}

/**
 * The curves of spawn rule `rule`: the rule's own fields, each falling back
 * to the draw's (`rules[rule]` may be missing or null: the draw's curves).
 */
export function curvesOfRule(
  draw: LookCurves | undefined,
  rules: readonly (LookCurves | null | undefined)[],
  rule: number,
): LookCurves {
  const own = rules[rule] ?? undefined;
  return { ...(draw ?? {}), ...Object.fromEntries(Object.entries(own ?? {}).filter(([, v]) => v !== undefined)) };
}
