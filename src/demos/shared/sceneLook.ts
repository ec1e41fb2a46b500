/**
 * A scene file drawn with its look (src/scene/look.ts): the gallery pages
 * that show a public/scenes file (campfire, rain) load it here, make its
 * system, and draw each of its look's layers (one ParticlePass draw each,
 * through a depth sort where the layer sorts back to front), its trails, and
 * its plane colliders as a ground grid (SceneDrawing; sceneLookDemo is the
 * whole page's scene). LookDraws draws a look over any one system's buffer,
 * live list or not: the Integrators page draws its scene's look with it.
 *
 * The sorts and the trail record are recorded after the frame's steps (in
 * encodeSteps), seen through the camera as it is then: a paused page records
 * neither, so its picture holds still.
 */
import { ParticleSystem } from '../../gpu/particleSystem';
import type { GridSpec } from '../../render/gridPass';
import { DEFAULT_LOOK, type DrawTime, type DrawView, type ParticleLook } from '../../render/particleLook';
import type { DrawRange, ParticleBinding, ParticleSource } from '../../render/particlePass';
import type { LiveSource } from '../../gpu/lifeBuffers';
import { DepthSort } from '../../render/depthSort';
import type { SpriteImage } from '../../render/spriteTextures';
import { TrailPass, type TrailBinding, type TrailLook } from '../../render/trailPass';
import type { SceneLook } from '../../scene/look';
import {
  parseScene,
  sceneCapacity,
  sceneToCollisions,
  sceneToForces,
  sceneToLifecycle,
  sceneToLook,
  sceneToParticles,
  type Scene,
} from '../../scene/scene';
import type { DemoContext, DemoScene, SceneFrame } from './demo';
import { groundGrid } from './ground';
import { LiveStatsPoller } from './liveStats';
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

/**
 * The draws of one look over one system's buffer: a ParticlePass binding a
 * layer (sorted ones with their DepthSort) and the trails, over the live list
 * when `live` is given, else over the first `count` slots by index.
 * destroy() frees what it made (not the particles).
 */
export class LookDraws {
  private readonly layers: {
    binding: ParticleBinding;
    sort: DepthSort | null;
    look: ParticleLook;
    intensity: number;
    /** The scene's look sets the sprite size: a page's pixel size does not override it. */
    sized: boolean;
  }[];
  private readonly trailPass: TrailPass | null;
  /** The top level's trails (every rule) and each rule's own, one binding each. */
  private readonly trails: { binding: TrailBinding; look: TrailLook }[];

  constructor(
    private readonly context: DemoContext<unknown>,
    label: string,
    look: SceneLook,
    particles: ParticleSource,
    options: { count: number; live?: LiveSource | null; base?: ParticleLook; spriteImage?: SpriteImage },
  ) {
    const { device, passes, target } = context;
    const { count, live = null, base = DEFAULT_LOOK } = options;
    this.layers = look.layers.map((layer, k) => {
      const sized = layer.look.size !== undefined;
      const drawn: ParticleLook = {
        ...base,
        ...layer.look,
        ...(sized ? { pixelSize: 0 } : {}),
        ...(options.spriteImage ? { spriteImage: options.spriteImage } : {}),
      };
      const name = `${label}.layer${k}`;
      const intensity = drawn.intensity;
      if (drawn.sort === 'back-to-front') {
        const sort = new DepthSort(device, { label: `${name}.sort`, particles, count, live: live ?? undefined });
        return { binding: passes.particles.bindSorted(name, particles, sort), sort, look: drawn, intensity, sized };
      }
      const binding = live ? passes.particles.bindLive(name, particles, live) : passes.particles.bind(name, particles);
      return { binding, sort: null, look: drawn, intensity, sized };
    });
    const wanted = [
      ...(look.trails ? [{ label: `${label}.trails`, trails: look.trails, rules: null }] : []),
      ...look.ruleTrails.map(({ rule, trails }) => ({ label: `${label}.trails(rule ${rule})`, trails, rules: [rule] })),
    ];
    this.trailPass = wanted.length > 0 ? new TrailPass(device, target.format, target.depthFormat) : null;
    const trailPass = this.trailPass;
    this.trails = trailPass
      ? wanted.map(({ label: name, trails, rules }) => ({
          // A rule's own trails read its particles' life records: they need the live list.
          binding: trailPass.bind(name, particles, { count, length: trails.length, live, rules: live ? rules : null }),
          look: { width: trails.width, curves: trails.curves, blend: trails.blend, intensity: trails.intensity },
        }))
      : [];
  }

  /** Empties the trails (a page that rewrites its particles, as a rerun does, starts them over). */
  reset(encoder: GPUCommandEncoder): void {
    for (const trail of this.trails) this.trailPass?.reset(encoder, trail.binding);
  }

  /** After the steps: the trail record and the sorts, seen through `view`. */
  encode(encoder: GPUCommandEncoder, view: DrawView): void {
    for (const trail of this.trails) this.trailPass?.record(encoder, trail.binding);
    for (const layer of this.layers) {
      if (layer.sort)
        this.context.passes.particles.sortFor(encoder, layer.binding, layer.look, view, { extrapolate: 0, time: 0 });
    }
  }

  /**
   * The trails, then each layer in order, `intensity` times the look's;
   * `range` as ParticlePass.draw takes it; `pixelSize`, the page's sprite
   * radius in device pixels, for the layers whose look sets no size.
   */
  render(
    pass: GPURenderPassEncoder,
    view: DrawView,
    time: DrawTime,
    options: { intensity: number; trails: boolean; range?: DrawRange; pixelSize?: number },
  ): void {
    if (this.trailPass && options.trails) {
      for (const trail of this.trails) {
        const look = { ...trail.look, intensity: trail.look.intensity * options.intensity };
        this.trailPass.draw(pass, trail.binding, look, view);
      }
    }
    for (const layer of this.layers) {
      layer.look.intensity = layer.intensity * options.intensity;
      if (options.pixelSize !== undefined && !layer.sized) layer.look.pixelSize = options.pixelSize;
      this.context.passes.particles.draw(pass, layer.binding, layer.look, view, time, options.range);
    }
  }

  destroy(): void {
    for (const layer of this.layers) {
      layer.binding.destroy();
      layer.sort?.destroy();
    }
    for (const trail of this.trails) trail.binding.destroy();
    this.trailPass?.destroy();
  }
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

  /** The scene's system (its particles written, its forces registered) and its draws. */
  static async create(
    context: DemoContext<unknown>,
    scene: Scene,
    variant: { integrator: IntegrationOrder; damping: DampingMode },
    extras: SceneLookExtras = {},
  ): Promise<SceneDrawing> {
    const system = await ParticleSystem.create(context.device, {
      capacity: sceneCapacity(scene),
      ...variant,
      collisions: sceneToCollisions(scene),
      ...sceneToLifecycle(scene),
    });
    try {
      const particles = sceneToParticles(scene);
      if (particles.length > 0) await system.writeParticles(0, particles);
      const forces = sceneToForces(scene);
      for (const { generator, target } of forces.generators) system.forces.add(generator, target);
      if (forces.links.length > 0) system.springs.setLinks(forces.links);
      return new SceneDrawing(context, scene, system, extras);
    } catch (error) {
      system.destroy();
      throw error;
    }
  }

  /** The scene's plane colliders facing up, as ground grids (the first one; none without). */
  groundGrid(spec: Omit<GridSpec, 'centre'>): GridSpec | null {
    const plane = (this.scene.colliders ?? []).find(
      (c): c is { type: 'plane'; normal: number[]; offset: number } =>
        typeof c === 'object' && c !== null && (c as { type?: unknown }).type === 'plane',
    );
    if (!plane) return null;
    const [nx = 0, ny = 1, nz = 0] = plane.normal;
    const length = Math.hypot(nx, ny, nz) || 1;
    const d = plane.offset / length;
    return { ...spec, centre: [(nx / length) * d, (ny / length) * d, (nz / length) * d] };
  }

  /** The steps, then the trail record and the sorts, seen through the camera as it is now. */
  encodeSteps(encoder: GPUCommandEncoder, dt: number, steps: number): void {
    this.system.encodeSteps(encoder, dt, steps);
    const { camera, target } = this.context;
    this.draws.encode(encoder, {
      viewProjection: camera.viewProjection,
      width: target.width,
      height: target.height,
      focalPixels: camera.focalPixels(target.height),
    });
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
      drawing.render(pass, frame, { intensity: options.intensity(), trails: options.trails() });
    },
    status() {
      const n = (x: number) => x.toLocaleString('en-US');
      if (!live.stats) return `${n(drawing.capacity)} slots · ${options.describes}`;
      return `${n(live.stats.live)} live of ${n(drawing.capacity)} slots · ${options.describes}`;
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
