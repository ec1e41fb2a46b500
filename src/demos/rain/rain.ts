/**
 * Rain on a ground plane, from the scene file public/scenes/rain.json and its
 * look: drops fall as pale streaks; where one lands the ground kills it
 * (`onHit: "die"`) and its collision event (`onCollision`) spawns a splash of
 * firework rule 1, droplets drawn in a draw of their own. Everything the page
 * draws is the scene's (src/demos/shared/sceneLook.ts).
 */
import { sceneFileDemo } from '../shared/sceneLook';
import { RAIN_PARAMS } from './params';

export const rain = sceneFileDemo('rain', 'Rain', RAIN_PARAMS, {
  camera: { target: [0, 2, 0], distance: 11, yaw: 0.6, pitch: 0.28 },
  background: [0.03, 0.035, 0.05],
  ground: { halfSize: 12, lineColor: [0.16, 0.19, 0.26], planeColor: [0.05, 0.06, 0.08] },
  describes: () => 'drops and splashes',
});
