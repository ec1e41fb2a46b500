/**
 * What render draws behind the particles: the colour each frame is cleared
 * to and the scene's first plane collider as the gallery's ground grid.
 */
import { groundGrid, planeCentre } from '../render/ground';
import type { GridSpec } from '../render/gridPass';
import type { Rgb } from '../render/particleLook';
import type { Scene } from '../scene/scene';

/** The background the frames are cleared to (the rain page's), and its ground grid's colours. */
export const BACKGROUND: Rgb = [0.02, 0.025, 0.04];
const GRID_COLORS = { lineColor: [0.16, 0.19, 0.26], planeColor: [0.05, 0.06, 0.08] } as const;

/** The scene's first plane collider as the gallery's ground grid, or null. */
export function sceneGrid(scene: Scene, halfSize: number): GridSpec | null {
  const centre = planeCentre(scene.colliders);
  return centre && groundGrid({ halfSize, ...GRID_COLORS, background: BACKGROUND, centre });
}
