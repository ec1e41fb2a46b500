/**
 * A campfire, from the scene file public/scenes/campfire.json and its look:
 * additive flames drawn from a flipbook (the atlas made here, flameAtlas.ts,
 * given to the look's `image` sprites), rising sparks as streaks with
 * trails, and alpha smoke in the built-in `smoke` shape sorted back to front
 * on the GPU. Everything the page draws is the scene's (src/demos/shared/sceneLook.ts).
 */
import type { DemoContext, DemoDefinition, DemoScene, SceneFrame } from '../shared/demo';
import { groundGrid } from '../shared/ground';
import { LiveStatsPoller } from '../shared/liveStats';
import type { ParamValues } from '../shared/params';
import { SceneDrawing, loadScene } from '../shared/sceneLook';
import { flameAtlas } from './flameAtlas';
import { CAMPFIRE_PARAMS } from './params';

type Params = ParamValues<typeof CAMPFIRE_PARAMS>;

const BACKGROUND = [0.012, 0.012, 0.02] as const;

export async function createCampfire(context: DemoContext<Params>): Promise<DemoScene> {
  const { params, passes } = context;
  const scene = await loadScene('campfire');
  const drawing = await SceneDrawing.create(context as DemoContext<unknown>, scene, params, {
    spriteImage: flameAtlas(),
  });
  const grid = drawing.groundGrid(
    groundGrid({ halfSize: 8, lineColor: [0.1, 0.08, 0.07], planeColor: [0.03, 0.025, 0.02], background: BACKGROUND }),
  );
  const ground = grid ? passes.grid.bind('Campfire.ground') : null;
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
      drawing.render(pass, frame, { intensity: params.intensity, trails: params.trails });
    },
    status() {
      const n = (x: number) => x.toLocaleString('en-US');
      const layers = `${drawing.look.layers.length} draws (flames, sparks, sorted smoke)`;
      if (!live.stats) return `${n(drawing.capacity)} slots · ${layers}`;
      return `${n(live.stats.live)} live of ${n(drawing.capacity)} slots · ${layers}`;
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

export const campfire: DemoDefinition<typeof CAMPFIRE_PARAMS> = {
  id: 'campfire',
  title: 'Campfire',
  params: CAMPFIRE_PARAMS,
  camera: { target: [0, 0.9, 0], distance: 5, yaw: 0.5, pitch: 0.22 },
  background: BACKGROUND,
  create: createCampfire,
};
