/**
 * The ground grid the gallery, the playground and the render CLI draw: a
 * caller gives its size and colours, the rest (a plane through `centre`, a
 * major line every five, fading into the background) is the same everywhere;
 * a scene's ground is its first plane collider (planeCentre).
 */
import type { GridSpec } from './gridPass';

type Rgb = readonly [number, number, number];

/** The grid's spec from its size and colours; centred at the origin unless `centre` is given. */
export function groundGrid(spec: {
  halfSize: number;
  lineColor: Rgb;
  planeColor: Rgb;
  background: Rgb;
  centre?: readonly [number, number, number];
  spacing?: number;
}): GridSpec {
  return {
    centre: spec.centre ?? [0, 0, 0],
    halfSize: spec.halfSize,
    spacing: spec.spacing ?? 1,
    majorEvery: 5,
    lineColor: spec.lineColor,
    planeColor: spec.planeColor,
    fadeColor: spec.background,
  };
}

/** The point of a scene's first plane collider nearest the origin (its ground grid's centre), or null without one. */
export function planeCentre(colliders: readonly unknown[] | undefined): [number, number, number] | null {
  const plane = (colliders ?? []).find(
    (c): c is { type: 'plane'; normal: number[]; offset?: number } =>
      typeof c === 'object' && c !== null && (c as { type?: unknown }).type === 'plane',
  );
  if (!plane) return null;
  const [nx = 0, ny = 1, nz = 0] = plane.normal;
  const length = Math.hypot(nx, ny, nz) || 1;
  const d = (plane.offset ?? 0) / length;
  return [(nx / length) * d, (ny / length) * d, (nz / length) * d];
}
