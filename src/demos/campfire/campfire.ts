/**
 * A campfire, from the scene file public/scenes/campfire.json and its look:
 * additive flames drawn from a flipbook (the atlas made here, flameAtlas.ts,
 * given to the look's `image` sprites), rising sparks as streaks with
 * trails, and alpha smoke in the built-in `smoke` shape sorted back to front
 * on the GPU. Everything the page draws is the scene's (src/demos/shared/sceneLook.ts).
 */
import type { DemoContext, DemoDefinition, DemoScene } from '../shared/demo';
import type { ParamValues } from '../shared/params';
import { SceneDrawing, loadScene, sceneLookDemo } from '../shared/sceneLook';
import { flameAtlas } from './flameAtlas';
import { CAMPFIRE_PARAMS } from './params';

type Params = ParamValues<typeof CAMPFIRE_PARAMS>;

const BACKGROUND = [0.012, 0.012, 0.02] as const;

export async function createCampfire(context: DemoContext<Params>): Promise<DemoScene> {
  const { params } = context;
  const scene = await loadScene('campfire');
  const drawing = await SceneDrawing.create(context as DemoContext<unknown>, scene, params, {
    spriteImage: flameAtlas(),
  });
  return sceneLookDemo(context as DemoContext<unknown>, drawing, {
    label: 'Campfire',
    ground: { halfSize: 8, lineColor: [0.1, 0.08, 0.07], planeColor: [0.03, 0.025, 0.02], background: BACKGROUND },
    intensity: () => params.intensity,
    trails: () => params.trails,
    describes: `${drawing.look.layers.length} draws (flames, sparks, sorted smoke)`,
  });
}

export const campfire: DemoDefinition<typeof CAMPFIRE_PARAMS> = {
  id: 'campfire',
  title: 'Campfire',
  params: CAMPFIRE_PARAMS,
  camera: { target: [0, 0.9, 0], distance: 5, yaw: 0.5, pitch: 0.22 },
  background: BACKGROUND,
  create: createCampfire,
};
