/**
 * The gallery's ground grid: a demo gives its size and colours, the rest
 * (a plane through `centre`, a major line every five, fading into the
 * background) is the same everywhere.
 */
import type { GridSpec } from '../../render/gridPass';

type Rgb = readonly [number, number, number];

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
