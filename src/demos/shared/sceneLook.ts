/**
 * A scene file drawn with its look (src/scene/look.ts): the gallery pages
 * that show a public/scenes file (campfire, rain) load it here, make its
 * system, and draw each of its look's layers (one ParticlePass draw each,
 * through a depth sort where the layer sorts back to front), its trails, and
 * its plane colliders as a ground grid (SceneDrawing; sceneLookDemo is the
 * whole page's scene). The draws are src/render/lookDraws.ts's, which draw a
 * look over any one system's store, live list or not (the Integrators page,
 * the playground and the render CLI draw with them too).
 *
 * The sorts and the trail record are recorded after the frame's steps (in
 * encodeSteps), seen through the camera as it is then: a paused page records
 * neither, so its picture holds still.
 */
import { ParticleSystem } from '../../gpu/particleSystem';
import { groundGrid, planeCentre } from '../../render/ground';
import type { GridSpec } from '../../render/gridPass';
import { LookDraws } from '../../render/lookDraws';
import type { SpriteImage } from '../../render/spriteTextures';
import type { SceneLook } from '../../scene/look';
import { parseScene, sceneCapacity, sceneToLook, type Scene } from '../../scene/scene';
import { createSceneSystem } from '../../scene/sceneSystem';
import {
  defineDemo,
  type ClockDefs,
  type DemoContext,
  type DemoDefinition,
  type DemoScene,
  type SceneFrame,
} from './demo';
import type { variantParams } from './commonParams';
import type { NumberParam, ParamDefs, ParamValues } from './params';
import { LiveStatsPoller } from './liveStats';
import { resumedSystem } from './recovery';
import type { DampingMode, IntegrationOrder } from '../../core/variants';

/** Fetches public/scenes/<name>.json (served beside the demo pages' folder) and parses it. */
export async function loadScene(name: string): Promise<Scene> {
  const url = new URL(`../scenes/${name}.json`, location.href);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: ${response.status} ${response.statusText}`);
  return parseScene(await response.text(), `${name}.json`);
}

/** What a page adds to a scene's look: the image of its `image` sprites, a brightness, whether trails are drawn. */
export interface SceneLookExtras {
  spriteImage?: SpriteImage;
}

/** A scene's system and the draws of its look, on one device; destroy() frees all of it. */
export class SceneDrawing {
  readonly look: SceneLook;
  readonly capacity: number;
  private readonly draws: LookDraws;

  private constructor(
    private readonly context: DemoContext<unknown>,
    readonly scene: Scene,
    readonly system: ParticleSystem,
    extras: SceneLookExtras,
  ) {
    this.look = sceneToLook(scene);
    this.capacity = sceneCapacity(scene);
    const live = system.lifecycle?.buffers;
    if (!live) throw new Error('a scene drawn with its look has emitters (its draws are of the live list)');
    this.draws = new LookDraws(context, 'Scene', this.look, system.particleStore, {
      count: this.capacity,
      live,
      spriteImage: extras.spriteImage,
    });
  }

  /**
   * The scene's system (its particles written, its forces registered) and its
   * draws; on a new device after a loss (`context.resume`), the system
   * restored from the kept snapshot instead (its trails start empty).
   */
  static async create(
    context: DemoContext<unknown>,
    scene: Scene,
    variant: { integrator: IntegrationOrder; damping: DampingMode },
    extras: SceneLookExtras = {},
  ): Promise<SceneDrawing> {
    const system = context.resume
      ? await ParticleSystem.restore(context.device, resumedSystem(context.resume, 0))
      : await createSceneSystem(context.device, scene, variant);
    try {
      return new SceneDrawing(context, scene, system, extras);
    } catch (error) {
      system.destroy();
      throw error;
    }
  }

  /** The scene's plane colliders facing up, as ground grids (the first one; none without). */
  groundGrid(spec: Omit<GridSpec, 'centre'>): GridSpec | null {
    const centre = planeCentre(this.scene.colliders);
    return centre ? { ...spec, centre } : null;
  }

  /** The steps, then the trail record and the sorts, seen through the camera as it is now. */
  encodeSteps(encoder: GPUCommandEncoder, dt: number, steps: number): void {
    this.system.encodeSteps(encoder, dt, steps);
    const { camera, target } = this.context;
    this.draws.encode(encoder, camera.drawView(target.width, target.height));
  }

  /** The trails, then each layer in order, `intensity` times the look's. */
  render(pass: GPURenderPassEncoder, frame: SceneFrame, options: { intensity: number; trails: boolean }): void {
    this.draws.render(pass, frame.view, frame.time, options);
  }

  destroy(): void {
    this.draws.destroy();
    this.system.destroy();
  }
}

/**
 * A gallery page's whole scene for a scene file drawn with its look: the
 * ground grid under its plane collider, the live count polled for the status
 * line and the browser test's check, and the drawing (which it destroys).
 */
export function sceneLookDemo(
  context: DemoContext<unknown>,
  drawing: SceneDrawing,
  options: {
    /** Labels the ground's binding. */
    label: string;
    ground: Omit<Parameters<typeof groundGrid>[0], 'centre'>;
    /** Read every frame: the page's brightness and whether its trails show. */
    intensity: () => number;
    trails: () => boolean;
    /** What the status line says the scene draws, after the counts. */
    describes: string;
  },
): DemoScene {
  const { passes } = context;
  const grid = drawing.groundGrid(groundGrid(options.ground));
  const ground = grid ? passes.grid.bind(`${options.label}.ground`) : null;
  const live = new LiveStatsPoller(drawing.system);
  return {
    get particleCount() {
      return live.live;
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
      drawing.render(pass, frame, { intensity: options.intensity(), trails: options.trails() });
    },
    status() {
      const n = (x: number) => x.toLocaleString('en-US');
      if (!live.stats) return `${n(drawing.capacity)} slots · ${options.describes}`;
      return `${n(live.stats.live)} live of ${n(drawing.capacity)} slots · ${options.describes}`;
    },
    check() {
      return live.counts();
    },
    // Everything the page runs is the system's: the scene file and the panel rebuild the rest.
    snapshot() {
      return drawing.system.snapshot().then((bytes) => ({ systems: [bytes], host: null }));
    },
    dispose() {
      live.stop();
      ground?.destroy();
      drawing.destroy();
    },
  };
}

/** A scene file page's panel: the clock, the variant and a brightness, at least. */
type SceneFileDefs = ParamDefs & ClockDefs & ReturnType<typeof variantParams> & { intensity: NumberParam };
type SceneFileValues = { intensity: number; integrator: IntegrationOrder; damping: DampingMode };

/**
 * A gallery page that shows public/scenes/<id>.json with its look and nothing
 * else: its scene is sceneLookDemo's under a ground grid of the page's
 * colours, its brightness the panel's `intensity`, and its trails shown
 * where `trails` says (always, without).
 */
export function sceneFileDemo<D extends SceneFileDefs>(
  id: string,
  title: string,
  params: D,
  page: Pick<DemoDefinition<D>, 'camera' | 'background'> & {
    ground: Omit<Parameters<typeof groundGrid>[0], 'centre' | 'background'>;
    /** The image of the look's `image` sprites, made once per system. */
    spriteImage?: () => SpriteImage;
    trails?: (params: ParamValues<D>) => boolean;
    /** What the status line says the scene draws, after the counts. */
    describes: (drawing: SceneDrawing) => string;
  },
): DemoDefinition<D> {
  const { camera, background, ground, spriteImage, trails = () => true, describes } = page;
  return defineDemo(id, title, params, {
    camera,
    background,
    async create(context) {
      // What SceneFileDefs declares (TypeScript does not resolve ParamValues of a generic D).
      const values = context.params as ParamValues<D> & SceneFileValues;
      const scene = await loadScene(id);
      const drawing = await SceneDrawing.create(context as DemoContext<unknown>, scene, values, {
        spriteImage: spriteImage?.(),
      });
      return sceneLookDemo(context as DemoContext<unknown>, drawing, {
        label: title,
        ground: { ...ground, background },
        intensity: () => values.intensity,
        trails: () => trails(values),
        describes: describes(drawing),
      });
    },
  });
}
