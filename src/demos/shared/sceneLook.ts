/**
 * A scene file drawn with its look (src/scene/look.ts): the gallery pages
 * that show a public/scenes file (campfire, rain) load it here, make its
 * system, and draw each of its look's layers (one ParticlePass draw each,
 * through a depth sort where the layer sorts back to front), its trails, and
 * its plane colliders as a ground grid.
 *
 * The sorts and the trail record are recorded after the frame's steps (in
 * encodeSteps), seen through the camera as it is then: a paused page records
 * neither, so its picture holds still.
 */
import { ParticleSystem } from '../../gpu/particleSystem';
import type { GridSpec } from '../../render/gridPass';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import type { ParticleBinding } from '../../render/particlePass';
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
import type { DemoContext, SceneFrame } from './demo';
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
  private readonly layers: { binding: ParticleBinding; sort: DepthSort | null; look: ParticleLook }[];
  private readonly trailPass: TrailPass | null;
  private readonly trails: { binding: TrailBinding; look: TrailLook } | null;

  private constructor(
    private readonly context: DemoContext<unknown>,
    readonly scene: Scene,
    readonly system: ParticleSystem,
    extras: SceneLookExtras,
  ) {
    const { device, passes, target } = context;
    this.look = sceneToLook(scene);
    this.capacity = sceneCapacity(scene);
    const live = system.lifecycle?.buffers;
    if (!live) throw new Error('a scene drawn with its look has emitters (its draws are of the live list)');
    const particles = system.particles.buffer;
    this.layers = this.look.layers.map((layer, k) => {
      const look: ParticleLook = {
        ...DEFAULT_LOOK,
        ...layer.look,
        ...(extras.spriteImage ? { spriteImage: extras.spriteImage } : {}),
      };
      const label = `Scene.layer${k}`;
      if (look.sort === 'back-to-front') {
        const sort = new DepthSort(device, { label: `${label}.sort`, particles, count: this.capacity, live });
        return { binding: passes.particles.bindSorted(label, particles, sort), sort, look };
      }
      return { binding: passes.particles.bindLive(label, particles, live), sort: null, look };
    });
    const trails = this.look.trails;
    this.trailPass = trails ? new TrailPass(device, target.format, target.depthFormat) : null;
    this.trails =
      trails && this.trailPass
        ? {
            binding: this.trailPass.bind('Scene.trails', particles, {
              count: this.capacity,
              length: trails.length,
              live,
            }),
            look: { width: trails.width, curves: trails.curves, blend: trails.blend, intensity: trails.intensity },
          }
        : null;
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
    if (this.trails && this.trailPass) this.trailPass.record(encoder, this.trails.binding);
    const { camera, target } = this.context;
    const view = {
      viewProjection: camera.viewProjection,
      width: target.width,
      height: target.height,
      focalPixels: camera.focalPixels(target.height),
    };
    for (const layer of this.layers) {
      if (layer.sort)
        this.context.passes.particles.sortFor(encoder, layer.binding, layer.look, view, { extrapolate: 0, time: 0 });
    }
  }

  /** The trails, then each layer in order, `intensity` times the look's. */
  render(pass: GPURenderPassEncoder, frame: SceneFrame, options: { intensity: number; trails: boolean }): void {
    if (this.trails && this.trailPass && options.trails) {
      const look = { ...this.trails.look, intensity: this.trails.look.intensity * options.intensity };
      this.trailPass.draw(pass, this.trails.binding, look, frame.view);
    }
    for (const layer of this.layers) {
      const base = this.look.layers[this.layers.indexOf(layer)]?.look.intensity ?? DEFAULT_LOOK.intensity;
      layer.look.intensity = base * options.intensity;
      this.context.passes.particles.draw(pass, layer.binding, layer.look, frame.view, frame.time);
    }
  }

  destroy(): void {
    for (const layer of this.layers) {
      layer.binding.destroy();
      layer.sort?.destroy();
    }
    this.trails?.binding.destroy();
    this.trailPass?.destroy();
    this.system.destroy();
  }
}
