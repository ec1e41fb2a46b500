/**
 * The playground's preview: one scene file's system and everything the file
 * places, drawn — its particles with the file's look (LookDraws: over the
 * live list with emitters, the system's records otherwise), the links
 * between particles (LinkPass), the colliders as wireframes and the emitter
 * shapes and link anchors as gizmos (LinePass, vertices from gizmos.ts), the
 * first upward plane as the ground grid (GridPass) instead of a wireframe patch.
 *
 * The page's DemoScene keeps the preview of the last valid text: a new one is
 * built beside it and swapped in when ready, so an invalid or slow edit never
 * blanks the picture.
 */
import { withErrorScopes } from '../../gpu/device/errors';
import { ParticleSystem } from '../../gpu/particleSystem';
import type { OrbitCamera } from '../../render/camera';
import { groundGrid } from '../../render/ground';
import type { GridBinding, GridSpec } from '../../render/gridPass';
import type { LineBinding, LineStyle } from '../../render/linePass';
import { DEFAULT_LINK_STYLE, sceneLinkEnds, type LinkBinding } from '../../render/linkPass';
import { LookDraws } from '../../render/lookDraws';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import type { SceneLook } from '../../scene/look';
import { DEFAULT_TRAIL_CURVES } from '../../core/look/trails';
import { sceneCapacity, sceneToForces, sceneToLook, type Scene } from '../../scene/scene';
import { createSceneSystem } from '../../scene/sceneSystem';
import { flameAtlas } from '../campfire/flameAtlas';
import type { DemoContext, DemoDefinition, DemoScene, SceneFrame } from '../shared/demo';
import { LiveStatsPoller } from '../shared/liveStats';
import type { ParamValues } from '../shared/params';
import { axes, colliderStrips, emitterStrips, niceSpacing, planeFrame, sceneExtent, type SceneExtent } from './gizmos';
import { PLAYGROUND_PARAMS } from './params';

type Params = ParamValues<typeof PLAYGROUND_PARAMS>;
type Context = DemoContext<Params>;

const BACKGROUND = [0.02, 0.024, 0.035] as const;
const COLLIDER_STYLE: LineStyle = {
  width: 1.2,
  alpha: 0.55,
  hueOffset: 0.55,
  hueSpan: 0,
  saturation: 0.25,
  brightness: 0.8,
};
/** Red, green and blue for the three axes. */
const AXES_STYLE: LineStyle = { width: 1.5, alpha: 0.7, hueOffset: 0, hueSpan: 1, saturation: 0.75, brightness: 0.9 };
/** Without trails in the file, a scene without emitters is drawn with these (its particles' paths). */
const PATH_SAMPLES = 64;
/** Paths are for a few particles' trajectories (and their samples take 16 bytes each a particle). */
const PATHS_UP_TO = 4096;
const GIZMO_STYLE: LineStyle = { width: 1.4, alpha: 0.8, hueOffset: 0.12, hueSpan: 0, saturation: 0.7, brightness: 1 };

/** The look a scene's layers start from: a little larger than the gallery's least, so a sparse scene shows. */
function baseLook(scene: Scene, extent: SceneExtent): ParticleLook {
  // Without a size in the file: the particles' radius, else a dot of the scene's scale (smaller among the many
  // of emitters). A sprite far below a pixel is dimmed as it is enlarged to minPixels: sized so, it shows.
  const lifecycle = scene.emitters !== undefined || scene.fireworks !== undefined;
  const size = scene.radius ?? extent.radius * (lifecycle ? 0.01 : 0.02);
  return { ...DEFAULT_LOOK, size, minPixels: 3 };
}

/** The file's look; a scene without emitters and without trails also gets its particles' paths. */
function previewLook(scene: Scene, base: ParticleLook): SceneLook {
  const look = sceneToLook(scene);
  if (look.trails || scene.emitters || scene.fireworks || sceneCapacity(scene) > PATHS_UP_TO) return look;
  const paths = { length: PATH_SAMPLES, width: base.size, curves: DEFAULT_TRAIL_CURVES, blend: 'additive' as const };
  return { ...look, trails: { ...paths, intensity: 0.6 } };
}

/** One valid scene, running and drawn; destroy() frees all of it. */
export class ScenePreview {
  readonly extent: SceneExtent;
  private readonly draws: LookDraws;
  private readonly live: LiveStatsPoller | null;
  private readonly ground: { binding: GridBinding; spec: GridSpec } | null = null;
  private readonly colliders: LineBinding | null = null;
  private readonly gizmos: LineBinding | null = null;
  private readonly links: LinkBinding | null = null;
  private readonly axes: LineBinding | null = null;

  private constructor(
    private readonly context: Context,
    readonly scene: Scene,
    readonly system: ParticleSystem,
  ) {
    const { passes } = context;
    this.extent = sceneExtent(scene);
    const live = system.lifecycle?.buffers ?? null;
    const base = baseLook(scene, this.extent);
    this.draws = new LookDraws(context, 'Playground', previewLook(scene, base), system.particleStore, {
      count: system.capacity,
      live,
      base,
      // The campfire's `image` sprites are its page's flame atlas.
      spriteImage: flameAtlas(),
    });
    this.live = live ? new LiveStatsPoller(system) : null;
    try {
      const upward = ((scene.colliders ?? []) as Record<string, unknown>[]).find(
        (c) => c.type === 'plane' && planeFrame(c, [0, 0, 0]).normal[1] > 0.99,
      );
      const halfSize = this.extent.radius * 1.5;
      if (upward) {
        const spec = groundGrid({
          halfSize,
          spacing: niceSpacing(halfSize * 2),
          centre: planeFrame(upward, this.extent.centre).centre,
          lineColor: [0.12, 0.14, 0.2],
          planeColor: [0.035, 0.04, 0.055],
          background: BACKGROUND,
        });
        this.ground = { binding: passes.grid.bind('Playground.ground'), spec };
      }
      // The ground is that plane's grid patch; the other colliders are wireframes.
      const colliders = colliderStrips(scene, this.extent, upward);
      if (colliders.length > 0) this.colliders = passes.lines.bind('Playground.colliders', colliders);
      const gizmos = emitterStrips(scene, this.extent);
      if (gizmos.length > 0) this.gizmos = passes.lines.bind('Playground.gizmos', gizmos);
      this.axes = passes.lines.bind('Playground.axes', axes(this.extent.radius * 0.25));
      const links = sceneLinkEnds(scene.links, sceneToForces(scene).links);
      if (links.length > 0) this.links = passes.links.bind('Playground.links', system.particleStore, links);
    } catch (error) {
      this.destroy();
      throw error;
    }
  }

  /** The scene's system (particles written, forces registered) and its draws. */
  static async create(context: Context, scene: Scene): Promise<ScenePreview> {
    return ScenePreview.drawing(context, scene, await createSceneSystem(context.device, scene, context.params));
  }

  /** The scene's system restored from `snapshot` (on a new device after a loss) and its draws (trails start empty). */
  static async restore(context: Context, scene: Scene, snapshot: Uint8Array): Promise<ScenePreview> {
    return ScenePreview.drawing(context, scene, await ParticleSystem.restore(context.device, snapshot));
  }

  /** The draws of `scene` over `system`, which it owns from here (destroyed on failure). */
  private static async drawing(context: Context, scene: Scene, system: ParticleSystem): Promise<ScenePreview> {
    try {
      // The draws' buffers in error scopes: one the GPU refuses (too large) is this text's failure, reported
      // under the editor while the previous preview runs on, not an uncaptured error that stops the page.
      const made: { preview?: ScenePreview } = {};
      try {
        await withErrorScopes(context.device, "creating the playground's preview", () => {
          made.preview = new ScenePreview(context, scene, system);
          return made;
        });
      } catch (error) {
        made.preview?.destroy();
        throw error;
      }
      return made.preview as ScenePreview;
    } catch (error) {
      system.destroy();
      throw error;
    }
  }

  get particleCount(): number {
    return this.live ? (this.live.stats?.live ?? 0) : this.system.capacity;
  }

  status(): string {
    const n = (x: number) => x.toLocaleString('en-US');
    const capacity = this.system.capacity;
    const parts = [
      this.live?.stats ? `${n(this.live.stats.live)} live of ${n(capacity)} slots` : `${n(capacity)} slots`,
    ];
    const colliders = this.scene.colliders?.length ?? 0;
    const links = this.scene.links?.length ?? 0;
    if (colliders) parts.push(`${colliders} collider${colliders === 1 ? '' : 's'}`);
    if (links) parts.push(`${links} link${links === 1 ? '' : 's'}`);
    const emitters = this.scene.emitters?.length ?? 0;
    if (emitters) parts.push(`${emitters} emitter${emitters === 1 ? '' : 's'}`);
    return parts.join(' · ');
  }

  stats() {
    const s = this.live?.stats;
    return s ? { live: s.live, emitted: s.emitted, killed: s.killed } : null;
  }

  beforeSteps(): void {
    this.live?.poll();
  }

  /** The steps, then the trail record and the sorts, seen through the camera as it is now. */
  encodeSteps(encoder: GPUCommandEncoder, dt: number, steps: number): void {
    this.system.encodeSteps(encoder, dt, steps);
    const { camera, target } = this.context;
    this.draws.encode(encoder, camera.drawView(target.width, target.height));
  }

  submitted(): void {
    this.system.submitted();
  }

  render(pass: GPURenderPassEncoder, frame: SceneFrame): void {
    const { passes, params, target } = this.context;
    const ratio = target.pixelRatio;
    if (this.ground && params.colliders) passes.grid.draw(pass, this.ground.binding, this.ground.spec, frame.view);
    if (this.colliders && params.colliders) {
      passes.lines.draw(pass, this.colliders, { ...COLLIDER_STYLE, width: COLLIDER_STYLE.width * ratio }, frame.view);
    }
    if (this.links && params.links) {
      const style = { ...DEFAULT_LINK_STYLE, width: 2 * ratio, opacity: 0.85 };
      passes.links.draw(pass, this.links, style, frame.view, frame.time);
    }
    this.draws.render(pass, frame.view, frame.time, {
      intensity: params.intensity,
      trails: params.trails,
      // Without a live list the draws are by index, over every slot.
      ...(this.live ? {} : { range: { count: this.system.capacity } }),
    });
    if (this.axes && params.axes)
      passes.lines.draw(pass, this.axes, { ...AXES_STYLE, width: AXES_STYLE.width * ratio }, frame.view);
    if (this.gizmos && params.emitters) {
      passes.lines.draw(pass, this.gizmos, { ...GIZMO_STYLE, width: GIZMO_STYLE.width * ratio }, frame.view);
    }
  }

  /** Looks at the scene's extent from above and in front. */
  fitCamera(camera: OrbitCamera): void {
    camera.projection = 'perspective';
    camera.set({ target: this.extent.centre, yaw: 0.5, pitch: 0.35 });
    camera.distance = (this.extent.radius * 1.3) / Math.tan(camera.fovY / 2);
  }

  destroy(): void {
    this.live?.stop();
    this.ground?.binding.destroy();
    this.colliders?.destroy();
    this.gizmos?.destroy();
    this.links?.destroy();
    this.axes?.destroy();
    this.draws.destroy();
    this.system.destroy();
  }
}
