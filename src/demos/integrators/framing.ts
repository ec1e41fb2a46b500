/**
 * How the Integrators page frames its trajectories: their extent over every
 * variant's CPU reference, the axis the orthographic camera looks along (the
 * thinner of x and z) and the backdrop grid behind them all.
 */
import type { GridSpec } from '../../render/gridPass';

/** The trajectories' extent and the plane they are best seen in. */
export interface Framing {
  centre: [number, number, number];
  /** The axis the camera looks along (the one with the least extent). */
  depthAxis: 0 | 1 | 2;
  /** Extent along the screen's right and up axes. */
  width: number;
  height: number;
  /** The backdrop: behind everything along the depth axis. */
  backdrop: GridSpec;
}

function niceSpacing(range: number): number {
  const raw = range / 16;
  const power = 10 ** Math.floor(Math.log10(raw));
  const mantissa = raw / power;
  return (mantissa < 2 ? 1 : mantissa < 5 ? 2 : 5) * power;
}

/** The extent of `trajectories` (xyz per particle per sample) and the view that fits it. */
export function frameTrajectories(trajectories: Float32Array[]): Framing {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const positions of trajectories) {
    for (let i = 0; i < positions.length; i++) {
      const c = i % 3;
      const x = positions[i] as number;
      if (Number.isFinite(x)) {
        min[c] = Math.min(min[c] as number, x);
        max[c] = Math.max(max[c] as number, x);
      }
    }
  }
  const extent = [0, 1, 2].map((c) => Math.max((max[c] as number) - (min[c] as number), 1e-3));
  const centre = [0, 1, 2].map((c) => ((max[c] as number) + (min[c] as number)) / 2) as [number, number, number];
  // Look along x (the screen shows z to the right, y up) unless z is the thinner axis.
  const depthAxis: 0 | 2 = (extent[0] as number) <= (extent[2] as number) ? 0 : 2;
  const rightAxis = depthAxis === 0 ? 2 : 0;
  const width = extent[rightAxis] as number;
  const height = extent[1] as number;
  const spacing = niceSpacing(Math.max(width, height));
  const behind = depthAxis === 0 ? (max[0] as number) + spacing : (min[2] as number) - spacing;
  const backdropCentre: [number, number, number] = [...centre];
  backdropCentre[depthAxis] = behind;
  return {
    centre,
    depthAxis,
    width,
    height,
    backdrop: {
      centre: backdropCentre,
      halfSize: Math.max(width, height) * 3,
      axisU: depthAxis === 0 ? [0, 0, 1] : [1, 0, 0],
      axisV: [0, 1, 0],
      spacing,
      majorEvery: 5,
      lineColor: [0.2, 0.23, 0.32],
      planeColor: [0.055, 0.06, 0.085],
      fadeColor: [0.055, 0.06, 0.085],
    },
  };
}
