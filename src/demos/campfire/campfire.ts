/**
 * A campfire, from the scene file public/scenes/campfire.json and its look:
 * additive flames drawn from a flipbook (the atlas made here, flameAtlas.ts,
 * given to the look's `image` sprites), rising sparks as streaks with
 * trails, and alpha smoke in the built-in `smoke` shape sorted back to front
 * on the GPU. Everything the page draws is the scene's (src/demos/shared/sceneLook.ts).
 */
import { sceneFileDemo } from '../shared/sceneLook';
import { flameAtlas } from './flameAtlas';
import { CAMPFIRE_PARAMS } from './params';

export const campfire = sceneFileDemo('campfire', 'Campfire', CAMPFIRE_PARAMS, {
  camera: { target: [0, 0.9, 0], distance: 5, yaw: 0.5, pitch: 0.22 },
  background: [0.012, 0.012, 0.02],
  ground: { halfSize: 8, lineColor: [0.1, 0.08, 0.07], planeColor: [0.03, 0.025, 0.02] },
  spriteImage: flameAtlas,
  trails: (params) => params.trails,
  describes: (drawing) => `${drawing.look.layers.length} draws (flames, sparks, sorted smoke)`,
});
