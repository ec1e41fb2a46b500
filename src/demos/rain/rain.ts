/**
 * Rain on a ground plane, from the scene file public/scenes/rain.json and its
 * look: drops fall as pale streaks; where one lands the ground kills it
 * (`onHit: "die"`) and its collision event (`onCollision`) spawns a splash of
 * firework rule 1, droplets drawn in a draw of their own. Everything the page
 * draws is the scene's (src/demos/shared/sceneLook.ts).
 */
import type { DemoContext, DemoDefinition, DemoScene } from '../shared/demo';
import type { ParamValues } from '../shared/params';
import { SceneDrawing, loadScene, sceneLookDemo } from '../shared/sceneLook';
import { RAIN_PARAMS } from './params';

type Params = ParamValues<typeof RAIN_PARAMS>;

const BACKGROUND = [0.03, 0.035, 0.05] as const;

export async function createRain(context: DemoContext<Params>): Promise<DemoScene> {
  const { params } = context;
  const scene = await loadScene('rain');
  const drawing = await SceneDrawing.create(context as DemoContext<unknown>, scene, params);
  return sceneLookDemo(context as DemoContext<unknown>, drawing, {
    label: 'Rain',
    ground: { halfSize: 12, lineColor: [0.16, 0.19, 0.26], planeColor: [0.05, 0.06, 0.08], background: BACKGROUND },
    intensity: () => params.intensity,
    trails: () => true,
    describes: 'drops and splashes',
  });
}

export const rain: DemoDefinition<typeof RAIN_PARAMS> = {
  id: 'rain',
  title: 'Rain',
  params: RAIN_PARAMS,
  camera: { target: [0, 2, 0], distance: 11, yaw: 0.6, pitch: 0.28 },
  background: BACKGROUND,
  create: createRain,
};
