/**
 * The draws of a scene file's look (src/scene/look.ts) over one system's
 * particle store: each layer through ParticlePass (sorted layers through
 * their DepthSort), the trails through a TrailPass of its own. The gallery's
 * scene pages, the playground and the render CLI draw a look with it.
 */
import type { LiveSource } from '../gpu/lifecycle/lifeBuffers';
import type { SceneLook } from '../scene/look';
import { DepthSort } from './depthSort';
import { DEFAULT_LOOK, type DrawTime, type DrawView, type ParticleLook } from './particleLook';
import type { DrawRange, ParticleBinding, ParticleSource } from './particleBinding';
import type { ParticlePass } from './particlePass';
import type { SpriteImage } from './spriteTextures';
import { TrailPass, type TrailBinding, type TrailLook } from './trailPass';

/** What the draws are made with: the device, the caller's ParticlePass, the target's formats (the trails' pipeline). */
export interface LookDrawsContext {
  device: GPUDevice;
  passes: { particles: ParticlePass };
  target: { format: GPUTextureFormat; depthFormat: GPUTextureFormat };
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

  private readonly particlePass: ParticlePass;

  constructor(
    context: LookDrawsContext,
    label: string,
    look: SceneLook,
    particles: ParticleSource,
    options: { count: number; live?: LiveSource | null; base?: ParticleLook; spriteImage?: SpriteImage },
  ) {
    const { device, passes, target } = context;
    this.particlePass = passes.particles;
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

  /** After the steps: the trail record and the sorts, seen through `view` at `time`. */
  encode(encoder: GPUCommandEncoder, view: DrawView, time: DrawTime = { extrapolate: 0, time: 0 }): void {
    for (const trail of this.trails) this.trailPass?.record(encoder, trail.binding);
    for (const layer of this.layers) {
      if (layer.sort) this.particlePass.sortFor(encoder, layer.binding, layer.look, view, time);
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
      this.particlePass.draw(pass, layer.binding, layer.look, view, time, options.range);
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
