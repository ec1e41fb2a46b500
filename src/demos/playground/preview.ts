/**
 * The playground's preview: one scene file's system and everything the file
 * places, drawn — its particles with the file's look (through SceneDrawing
 * for a scene with emitters, the system's records otherwise), the links
 * between particles (LinkPass), the colliders as wireframes and the emitter
 * shapes and link anchors as gizmos (LinePass, vertices from gizmos.ts), an
 * upward plane also as the ground grid.
 *
 * The page's DemoScene keeps the preview of the last valid text: a new one is
 * built beside it and swapped in when ready, so an invalid or slow edit never
 * blanks the picture.
 */
import { ParticleSystem } from '../../gpu/particleSystem';
import type { OrbitCamera } from '../../render/camera';
import { DepthSort } from '../../render/depthSort';
import type { GridBinding, GridSpec } from '../../render/gridPass';
import type { LineBinding, LineStyle } from '../../render/linePass';
import { DEFAULT_LINK_STYLE, type LinkBinding } from '../../render/linkPass';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import type { ParticleBinding } from '../../render/particlePass';
import { TrailPass, type TrailBinding, type TrailLook } from '../../render/trailPass';
import { DEFAULT_TRAIL_CURVES } from '../../core/look/trails';
import {
  sceneCapacity,
  sceneToCollisions,
  sceneToForces,
  sceneToLook,
  sceneToParticles,
  type Scene,
} from '../../scene/scene';
import { flameAtlas } from '../campfire/flameAtlas';
import type { DemoContext, DemoDefinition, DemoScene, SceneFrame } from '../shared/demo';
import { groundGrid } from '../shared/ground';
import { LiveStatsPoller } from '../shared/liveStats';
import type { ParamValues } from '../shared/params';
import { SceneDrawing } from '../shared/sceneLook';
import {
  axes,
  colliderStrips,
  emitterStrips,
  niceSpacing,
  particleLinks,
  planeFrame,
  sceneExtent,
  type SceneExtent,
} from './gizmos';
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
const GIZMO_STYLE: LineStyle = { width: 1.4, alpha: 0.8, hueOffset: 0.12, hueSpan: 0, saturation: 0.7, brightness: 1 };

/** A scene without emitters, drawn from its records: one draw of the top level's look, its trails. */
class RecordsDrawing {
  private readonly binding: ParticleBinding;
  private readonly sort: DepthSort | null;
  private readonly look: ParticleLook;
  private readonly baseIntensity: number;
  private readonly trailPass: TrailPass | null = null;
  private readonly trails: { binding: TrailBinding; look: TrailLook } | null = null;

  constructor(
    private readonly context: Context,
    scene: Scene,
    private readonly system: ParticleSystem,
    extent: SceneExtent,
  ) {
    const { device, passes, target } = context;
    const sceneLook = sceneToLook(scene);
    const count = sceneCapacity(scene);
    const drawn = sceneLook.layers[0]?.look;
    // Without a size in the file: the particles' radius, else a dot of the scene's scale.
    const size = drawn?.size ?? scene.radius ?? extent.radius * 0.02;
    this.look = { ...DEFAULT_LOOK, minPixels: 5, ...drawn, size };
    this.baseIntensity = this.look.intensity;
    const particles = system.particles.buffer;
    if (this.look.sort === 'back-to-front') {
      this.sort = new DepthSort(device, { label: 'Playground.sort', particles, count });
      this.binding = passes.particles.bindSorted('Playground.particles', particles, this.sort);
    } else {
      this.sort = null;
      this.binding = passes.particles.bind('Playground.particles', particles);
    }
    // The file's trails, else the particles' paths: most such scenes are about trajectories.
    const trails = sceneLook.trails ?? {
      length: PATH_SAMPLES,
      width: size,
      curves: DEFAULT_TRAIL_CURVES,
      blend: 'additive' as const,
      intensity: 0.6,
    };
    this.trailPass = new TrailPass(device, target.format, target.depthFormat);
    this.trails = {
      binding: this.trailPass.bind('Playground.trails', particles, { count, length: trails.length }),
      look: { width: trails.width, curves: trails.curves, blend: trails.blend, intensity: trails.intensity },
    };
  }

  encodeSteps(encoder: GPUCommandEncoder, dt: number, steps: number): void {
    this.system.encodeSteps(encoder, dt, steps);
    if (this.trails && this.trailPass) this.trailPass.record(encoder, this.trails.binding);
    if (this.sort) {
      const { camera, target, passes } = this.context;
      const view = {
        viewProjection: camera.viewProjection,
        width: target.width,
        height: target.height,
        focalPixels: camera.focalPixels(target.height),
      };
      passes.particles.sortFor(encoder, this.binding, this.look, view, { extrapolate: 0, time: 0 });
    }
  }

  render(pass: GPURenderPassEncoder, frame: SceneFrame, options: { intensity: number; trails: boolean }): void {
    if (this.trails && this.trailPass && options.trails) {
      const look = { ...this.trails.look, intensity: this.trails.look.intensity * options.intensity };
      this.trailPass.draw(pass, this.trails.binding, look, frame.view);
    }
    this.look.intensity = this.baseIntensity * options.intensity;
    this.context.passes.particles.draw(pass, this.binding, this.look, frame.view, frame.time, {
      count: this.system.capacity,
    });
  }

  destroy(): void {
    this.binding.destroy();
    this.sort?.destroy();
    this.trails?.binding.destroy();
    this.trailPass?.destroy();
  }
}

/** One valid scene, running and drawn; destroy() frees all of it. */
export class ScenePreview {
  readonly extent: SceneExtent;
  private readonly live: LiveStatsPoller | null;
  private readonly ground: { binding: GridBinding; spec: GridSpec } | null;
  private readonly colliders: LineBinding | null;
  private readonly gizmos: LineBinding | null;
  private readonly links: LinkBinding | null;
  private readonly axes: LineBinding;

  private constructor(
    private readonly context: Context,
    readonly scene: Scene,
    readonly system: ParticleSystem,
    private readonly drawing: SceneDrawing | RecordsDrawing,
  ) {
    const { passes } = context;
    this.extent = sceneExtent(scene);
    this.live = system.lifecycle ? new LiveStatsPoller(system) : null;
    const upward = ((scene.colliders ?? []) as Record<string, unknown>[]).find(
      (c) => c.type === 'plane' && planeFrame(c, [0, 0, 0]).normal[1] > 0.99,
    );
    const halfSize = this.extent.radius * 1.5;
    this.ground = upward
      ? {
          binding: passes.grid.bind('Playground.ground'),
          spec: groundGrid({
            halfSize,
            spacing: niceSpacing(halfSize * 2),
            centre: planeFrame(upward, this.extent.centre).centre,
            lineColor: [0.12, 0.14, 0.2],
            planeColor: [0.035, 0.04, 0.055],
            background: BACKGROUND,
          }),
        }
      : null;
    const colliders = colliderStrips(scene, this.extent);
    this.colliders = colliders.length > 0 ? passes.lines.bind('Playground.colliders', colliders) : null;
    const gizmos = emitterStrips(scene, this.extent);
    this.gizmos = gizmos.length > 0 ? passes.lines.bind('Playground.gizmos', gizmos) : null;
    this.axes = passes.lines.bind('Playground.axes', axes(this.extent.radius * 0.25));
    const links = particleLinks(scene, sceneToForces(scene).links);
    this.links = links.length > 0 ? passes.links.bind('Playground.links', system.particles.buffer, links) : null;
  }

  /** The scene's system (particles written, forces registered) and its draws. */
  static async create(context: Context, scene: Scene): Promise<ScenePreview> {
    const { params } = context;
    const variant = { integrator: params.integrator, damping: params.damping };
    if (scene.emitters || scene.fireworks) {
      const drawing = await SceneDrawing.create(context as DemoContext<unknown>, scene, variant, {
        spriteImage: flameAtlas(),
      });
      return ScenePreview.wrap(context, scene, drawing.system, drawing);
    }
    const system = await ParticleSystem.create(context.device, {
      capacity: sceneCapacity(scene),
      ...variant,
      collisions: sceneToCollisions(scene),
    });
    try {
      await system.writeParticles(0, sceneToParticles(scene));
      const forces = sceneToForces(scene);
      for (const { generator, target } of forces.generators) system.forces.add(generator, target);
      if (forces.links.length > 0) system.springs.setLinks(forces.links);
      return ScenePreview.wrap(context, scene, system, new RecordsDrawing(context, scene, system, sceneExtent(scene)));
    } catch (error) {
      system.destroy();
      throw error;
    }
  }

  private static wrap(context: Context, scene: Scene, system: ParticleSystem, drawing: SceneDrawing | RecordsDrawing) {
    try {
      return new ScenePreview(context, scene, system, drawing);
    } catch (error) {
      drawing.destroy();
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

  encodeSteps(encoder: GPUCommandEncoder, dt: number, steps: number): void {
    this.drawing.encodeSteps(encoder, dt, steps);
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
    this.drawing.render(pass, frame, { intensity: params.intensity, trails: params.trails });
    if (params.axes) passes.lines.draw(pass, this.axes, { ...AXES_STYLE, width: AXES_STYLE.width * ratio }, frame.view);
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
    this.axes.destroy();
    this.drawing.destroy();
    this.system.destroy();
  }
}
