/**
 * Rain on a ground plane, from the scene file public/scenes/rain.json and its
 * look: drops fall as pale streaks; where one lands the ground kills it
 * (`onHit: "die"`) and its collision event (`onCollision`) spawns a splash of
 * firework rule 1, droplets drawn in a draw of their own. Everything the page
 * draws is the scene's (src/demos/shared/sceneLook.ts).
 */
import type { DemoContext, DemoDefinition, DemoScene, SceneFrame } from '../shared/demo';
import { groundGrid } from '../shared/ground';
import { LiveStatsPoller } from '../shared/liveStats';
import type { ParamValues } from '../shared/params';
import { SceneDrawing, loadScene } from '../shared/sceneLook';
import { RAIN_PARAMS } from './params';

type Params = ParamValues<typeof RAIN_PARAMS>;

const BACKGROUND = [0.03, 0.035, 0.05] as const;

export async function createRain(context: DemoContext<Params>): Promise<DemoScene> {
  const { params, passes } = context;
  const scene = await loadScene('rain');
  const drawing = await SceneDrawing.create(context as DemoContext<unknown>, scene, params);
  const grid = drawing.groundGrid(
    groundGrid({ halfSize: 12, lineColor: [0.16, 0.19, 0.26], planeColor: [0.05, 0.06, 0.08], background: BACKGROUND }),
  );
  const ground = grid ? passes.grid.bind('Rain.ground') : null;
  const live = new LiveStatsPoller(drawing.system);
  return {
    get particleCount() {
      return live.stats?.live ?? 0;
    },
    beforeSteps() {
      live.poll();
    },
    encodeSteps(encoder, dt, steps) {
      drawing.encodeSteps(encoder, dt, steps);
    },
    submitted() {
      drawing.system.submitted();
    },
    render(pass, frame: SceneFrame) {
      if (ground && grid) passes.grid.draw(pass, ground, grid, frame.view);
      drawing.render(pass, frame, { intensity: params.intensity, trails: true });
    },
    status() {
      const n = (x: number) => x.toLocaleString('en-US');
      if (!live.stats) return `${n(drawing.capacity)} slots · drops and splashes`;
      return `${n(live.stats.live)} live of ${n(drawing.capacity)} slots · drops and splashes`;
    },
    check() {
      const s = live.stats;
      return s && { live: s.live, emitted: s.emitted, killed: s.killed, shortfall: s.shortfall };
    },
    dispose() {
      live.stop();
      ground?.destroy();
      drawing.destroy();
    },
  };
}

export const rain: DemoDefinition<typeof RAIN_PARAMS> = {
  id: 'rain',
  title: 'Rain',
  params: RAIN_PARAMS,
  camera: { target: [0, 2, 0], distance: 11, yaw: 0.6, pitch: 0.28 },
  background: BACKGROUND,
  create: createRain,
};
