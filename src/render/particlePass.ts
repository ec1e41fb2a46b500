/**
 * Owns the particle draw pipelines (shaders/render/particles.wgsl): sprites,
 * sparks and points, additive or alpha-blended, per colour mode, created on
 * first use and kept. Its bindings (ParticleBinding, ./particleBinding.ts)
 * tie one storage buffer of Particle records (the simulation's own
 * `system.particles.buffer`, or a history of it) to a uniform block; `draw`
 * records into the caller's render pass. The buffer is read in the vertex
 * shader: no readback and no copy.
 *
 * Two sources of particles, one WGSL file each after particles.wgsl:
 * records by index (`bind`, shaders/render/records.wgsl), drawn with a count
 * the host knows; or the live list of a system with emitters (`bindLive`,
 * shaders/render/liveRecords.wgsl), drawn indirectly with the arguments the
 * lifecycle writes on the GPU from its live count, so free slots are never
 * drawn and the host never learns how many there are.
 *
 * Quads (sprites, sparks) are drawn one of two ways, the same triangles in
 * the same order: instanced (6 vertices, one instance a particle), the usual
 * way on a hardware GPU, or pulled (6 vertices a particle in one instance),
 * which a software rasteriser runs far faster because it sets up every
 * instance on its own. `quads: 'auto'` picks by the adapter. Points are one
 * vertex a particle either way.
 */
import { SparkworksInputError } from '../core/errors';
import { isSoftwareAdapter } from '../gpu/device/device';
import type { LiveSource } from '../gpu/lifecycle/lifeBuffers';
import { chunkingKey, storeOf } from '../gpu/shared/particleBuffer';
import type { ParticleChunking } from '../core/layout';
import type { DepthSort } from './depthSort';
import { ParticleBinding, storageFor, type DrawRange, type DrawSource, type ParticleSource } from './particleBinding';
import { ADDITIVE, createDrawPipeline, createDrawShader, PREMULTIPLIED_OVER, type DrawShader } from './drawPipeline';
import { createLookLayout, LookBinding, lookVariant } from './lookBinding';
import { SpriteTextures } from './spriteTextures';
import { INDIRECT_ARGS } from '../shaders/indirectArgs';
import { GROUP_LIFE, type GroupTimeline } from './groupTimeline';
import {
  DRAW_PARAMS,
  type BlendMode,
  type ColorMode,
  type DrawMode,
  type DrawTime,
  type DrawView,
  type ParticleLook,
} from './particleLook';
import { RENDER_PARTICLES_BINDING, shaders, type ParticleStoreChunks } from '../shaders';

// The binding and the types a draw takes (./particleBinding.ts), and the live list's: importable from here too.
export type { LiveSource };
export { ParticleBinding, type DrawRange, type DrawSource, type ParticleSource };

const SHAPE = { sprites: 0, sparks: 1, points: 0 } as const satisfies Record<DrawMode, number>;
const COLOR_MODE = { index: 0, speed: 1, life: 2 } as const satisfies Record<ColorMode, number>;

// Additive: light adds up. Alpha: premultiplied "over", not sorted, which soft sprites forgive.
const BLEND: Record<BlendMode, GPUBlendState> = { additive: ADDITIVE, alpha: PREMULTIPLIED_OVER };

/**
 * How a quad's 6 vertices find their particle. `instanced`: `draw(6, n)`, the
 * particle is the instance. `pulled`: `draw(6 * n)`, the particle is the
 * vertex index / 6, in one instance: SwiftShader sets up every instance of an
 * instanced draw separately, which made 65,536 instanced quads take seconds a
 * frame there.
 */
export const QUAD_PATHS = ['instanced', 'pulled'] as const;
/** How quads find their particle: `instanced` or `pulled` (see QUAD_PATHS). */
export type QuadPath = (typeof QUAD_PATHS)[number];

/** How a ParticlePass draws quads, and what it knows of the adapter to choose. */
export interface ParticlePassOptions {
  /** 'auto' (default): 'pulled' on a software adapter, 'instanced' otherwise. */
  quads?: QuadPath | 'auto';
  /**
   * Whether the device's adapter is a software rasteriser (acquireDevice's
   * `adapterInfo.software`). Default: read from `device.adapterInfo`; where
   * a browser does not have it, 'auto' draws pulled, which is right everywhere.
   */
  software?: boolean;
}

/** Whether the device's own adapter info names a software rasterizer; undefined where there is none. */
function softwareAdapter(device: GPUDevice): boolean | undefined {
  const info = (device as { adapterInfo?: GPUAdapterInfo }).adapterInfo;
  return info ? isSoftwareAdapter(info) : undefined;
}

/**
 * Draws particles straight from a particle buffer (no readback, no copy):
 * sprites, sparks or points, coloured by index, speed or life; `bindLive`
 * draws only the live particles of a system with emitters, indirectly.
 */
export class ParticlePass {
  /** How this pass draws quads ('auto' resolved). */
  readonly quads: QuadPath;
  /** The draw shaders per chunking of the particle store ('one' made at once). */
  private readonly sources = new Map<string, Record<DrawSource, DrawShader>>();
  private readonly pipelines = new Map<string, GPURenderPipeline>();
  /** Bound where a draw has no GroupTimeline. */
  private readonly noGroups: GPUBuffer;
  /** Bind group 1's layout: the look (curves, sprite texture, scene depth). */
  private readonly lookLayout: GPUBindGroupLayout;
  private readonly textures: SpriteTextures;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    private readonly format: GPUTextureFormat,
    private readonly depthFormat: GPUTextureFormat,
    options: ParticlePassOptions = {},
  ) {
    const quads = options.quads ?? 'auto';
    if (quads !== 'auto' && !QUAD_PATHS.includes(quads)) {
      throw new SparkworksInputError(
        `ParticlePass: quads '${String(quads)}' is not one of auto, ${QUAD_PATHS.join(', ')}`,
        'quads',
        quads,
      );
    }
    // An adapter that cannot be told is drawn pulled: right everywhere, and never seconds a frame.
    const software = options.software ?? softwareAdapter(device) ?? true;
    this.quads = quads === 'auto' ? (software ? 'pulled' : 'instanced') : quads;
    this.lookLayout = createLookLayout(device);
    this.textures = new SpriteTextures(device);
    this.sourcesFor(null);
    this.noGroups = device.createBuffer({
      label: 'ParticlePass.noGroups',
      size: 16,
      usage: GPUBufferUsage.STORAGE,
    });
  }

  /**
   * A binding for `particles` (a buffer of Particle records) and optionally a
   * GroupTimeline. The caller owns it and destroys it. One binding holds one
   * uniform block, so it can be drawn once per submitted command buffer.
   */
  bind(label: string, particles: ParticleSource, groups?: GroupTimeline): ParticleBinding {
    const store = storeOf(particles);
    if (store.capacity < 1)
      throw new SparkworksInputError(`${label}: the buffer holds no particle record`, 'capacity', store.capacity);
    return new ParticleBinding(
      this.device,
      this.sourcesFor(store.chunking).records.layout,
      label,
      storageFor(store, [groups?.buffer ?? this.noGroups]),
      null,
      this.lookBinding(label),
      null,
      store.chunking,
    );
  }

  /**
   * The draw shaders for a store split as `chunking`: the store's first
   * chunk at binding 1, each source's own buffers after it, the other
   * chunks last.
   */
  private sourcesFor(chunking: ParticleChunking | null): Record<DrawSource, DrawShader> {
    const key = chunkingKey(chunking);
    let sources = this.sources.get(key);
    if (sources) return sources;
    const more = (chunking?.chunks ?? 1) - 1;
    // The uniform block (read in the vertex stage only), then read-only storage:
    // records (particles, groups); live (particles, life, lists, counters).
    const source = (name: string, storageBuffers: number, code: (store: ParticleStoreChunks) => string): DrawShader =>
      createDrawShader(this.device, {
        name: `ParticlePass.${name}`,
        file: `render/particles.wgsl + ${name}.wgsl`,
        code: code({ moreChunksAt: RENDER_PARTICLES_BINDING + storageBuffers, chunking }),
        storageBuffers: storageBuffers + more,
        uniformVisibility: GPUShaderStage.VERTEX,
        moreGroups: [this.lookLayout],
      });
    sources = {
      records: source('records', 2, (store) => shaders.renderParticles(DRAW_PARAMS, GROUP_LIFE, store)),
      live: source('liveRecords', 4, (store) => shaders.renderLiveParticles(DRAW_PARAMS, store)),
      sorted: source('sortedRecords', 3, (store) => shaders.renderSortedParticles(DRAW_PARAMS, GROUP_LIFE, store)),
      liveSorted: source('liveSortedSlots', 5, (store) => shaders.renderLiveSortedParticles(DRAW_PARAMS, store)),
    };
    this.sources.set(key, sources);
    return sources;
  }

  /**
   * A binding that draws the live particles of a system with emitters:
   * `particles` is `system.particles.buffer`, `live` its
   * `system.lifecycle.buffers`. Its draws are indirect (the live count stays
   * on the GPU); `look.colorMode` 'life' colours each particle over its own
   * life from its life record. The caller owns the binding and destroys it.
   */
  bindLive(label: string, particles: ParticleSource, live: LiveSource): ParticleBinding {
    const store = storeOf(particles);
    if (store.capacity < live.capacity) {
      throw new SparkworksInputError(
        `${label}: the buffer holds fewer than ${live.capacity} particle records`,
        'capacity',
        store.capacity,
      );
    }
    return new ParticleBinding(
      this.device,
      this.sourcesFor(store.chunking).live.layout,
      label,
      storageFor(store, [live.life, live.lists, live.counters]),
      live,
      this.lookBinding(label),
      null,
      store.chunking,
    );
  }

  private lookBinding(label: string): LookBinding {
    return new LookBinding(this.device, this.lookLayout, this.textures, label);
  }

  /**
   * A binding that draws `sort.count` records of `particles` (the buffer
   * `sort` reads) through `sort`'s order, back to front, for a look with
   * `sort: 'back-to-front'`; record `sortFor` before the render pass each
   * frame. A sort made with `live` (a system with emitters) draws its live
   * particles indirectly, as bindLive does, back to front. The caller owns
   * the binding and the sort and destroys them.
   */
  bindSorted(label: string, particles: ParticleSource, sort: DepthSort, groups?: GroupTimeline): ParticleBinding {
    const store = storeOf(particles);
    if (store.capacity < sort.count) {
      throw new SparkworksInputError(
        `${label}: the buffer holds fewer than ${sort.count} particle records`,
        'capacity',
        store.capacity,
      );
    }
    const live = sort.live;
    const sources = this.sourcesFor(store.chunking);
    return new ParticleBinding(
      this.device,
      live ? sources.liveSorted.layout : sources.sorted.layout,
      label,
      storageFor(
        store,
        live ? [live.life, live.lists, live.counters, sort.slots] : [groups?.buffer ?? this.noGroups, sort.slots],
      ),
      live,
      this.lookBinding(label),
      sort,
      store.chunking,
    );
  }

  /**
   * Records `binding`'s depth sort into `encoder` (before the render pass
   * that draws it) when `look.sort` is 'back-to-front'; nothing otherwise.
   */
  sortFor(
    encoder: GPUCommandEncoder,
    binding: ParticleBinding,
    look: ParticleLook,
    view: DrawView,
    time: DrawTime,
  ): void {
    if (look.sort !== 'back-to-front' || this.destroyed) return;
    if (!binding.sort)
      throw new SparkworksInputError(
        `${binding.label}: a look sorted back to front needs a binding from bindSorted`,
        'look.sort',
        look.sort,
      );
    binding.sort.encode(encoder, view, time);
  }

  /** Creates the pipeline for `look` now (e.g. inside an error scope), rather than at its first draw. */
  prepare(
    look: Pick<ParticleLook, 'mode' | 'blend' | 'colorMode' | 'curves' | 'rules' | 'sprite' | 'sceneDepth'>,
    source: DrawSource = 'records',
    /** How the records drawn are split (a binding's `chunking`); default one buffer. */
    chunking: ParticleChunking | null = null,
  ): GPURenderPipeline {
    const points = look.mode === 'points';
    const variant = lookVariant(look);
    const sprite = points ? '' : `/${this.quads}/${+variant.textured}${variant.orient}${+variant.soft}`;
    const key = `${chunkingKey(chunking)}/${source}/${look.mode}/${look.blend}/${look.colorMode}/${+variant.curves}${sprite}`;
    let pipeline = this.pipelines.get(key);
    if (!pipeline) {
      const constants: Record<string, number> = { COLOR_MODE: COLOR_MODE[look.colorMode], CURVES: +variant.curves };
      let fragmentConstants: Record<string, number> | undefined;
      if (!points) {
        constants.SHAPE = SHAPE[look.mode];
        constants.INSTANCED = this.quads === 'instanced' ? 1 : 0;
        constants.TEXTURED = +variant.textured;
        constants.ORIENT = variant.orient;
        constants.SOFT = +variant.soft;
        fragmentConstants = { SHAPE: SHAPE[look.mode], TEXTURED: +variant.textured, SOFT: +variant.soft };
      }
      pipeline = createDrawPipeline(this.device, this.sourcesFor(chunking)[source], {
        label: `ParticlePass.pipeline(${key})`,
        vertexEntry: points ? 'pointVertex' : 'spriteVertex',
        fragmentEntry: points ? 'pointFragment' : 'spriteFragment',
        constants,
        fragmentConstants,
        format: this.format,
        blend: BLEND[look.blend],
        topology: points ? 'point-list' : 'triangle-list',
        // Tested against the scene's depth, never written: particles are light or soft matter.
        depthFormat: this.depthFormat,
        depthWriteEnabled: false,
        depthCompare: 'less',
      });
      this.pipelines.set(key, pipeline);
    }
    return pipeline;
  }

  /**
   * Records one draw of `binding`'s particles into `pass` (a render pass the
   * caller began). A live binding draws its live list and takes no range.
   */
  draw(
    pass: GPURenderPassEncoder,
    binding: ParticleBinding,
    look: ParticleLook,
    view: DrawView,
    time: DrawTime,
    range?: DrawRange,
  ): void {
    const live = binding.live;
    if (!live && !range)
      throw new SparkworksInputError('ParticlePass.draw: a binding by index needs a range', 'range', range);
    if ((look.sort === 'back-to-front') !== (binding.sort !== null)) {
      throw new SparkworksInputError(
        'ParticlePass.draw: a look sorted back to front is drawn from a bindSorted binding, and only it',
        'look.sort',
        look.sort,
      );
    }
    if (binding.sort && (range?.drawn ?? range?.count ?? 0) > binding.sort.count) {
      throw new SparkworksInputError(
        `ParticlePass.draw: ${binding.label} sorts ${binding.sort.count} particles, fewer than drawn`,
        'range',
        range,
      );
    }
    const count = live ? live.capacity : (range?.count ?? 0);
    const drawn = live ? count : (range?.drawn ?? count);
    if (this.destroyed || drawn <= 0) return;
    const d = binding.data;
    d.set('viewProjection', view.viewProjection)
      .set('viewport', [view.width, view.height, view.focalPixels, 0])
      .set('colorA', look.colorA)
      .set('colorB', look.colorB)
      .set('size', look.size)
      .set('pixelSize', look.pixelSize)
      .set('minPixels', look.minPixels)
      .set('intensity', look.intensity)
      .set('extrapolate', time.extrapolate)
      .set('time', time.time)
      .set('speedRange', look.speedRange)
      .set('stretch', look.stretch)
      .set('clipBelow', look.clipBelow)
      .set('hueOffset', look.hueOffset)
      .set('hueSpan', look.hueSpan)
      .set('saturation', look.saturation)
      .set('hotTime', look.hotTime)
      .set('fadeStart', Math.min(look.fadeStart, 0.999))
      .set('endSize', look.endSize)
      .set('count', count)
      .set('groupSize', range?.groupSize ?? 1)
      .set('sampleStride', range?.sampleStride ?? 1);
    if (!binding.look)
      throw new SparkworksInputError(
        `${binding.label}: a binding made by ParticlePass.bind or bindLive is drawn`,
        'binding',
        binding.label,
      );
    // The look (validated and uploaded only when its objects change), then the pipeline of its variant.
    binding.look.update(look);
    binding.record(pass, this.prepare(look, binding.source, binding.chunking));
    pass.setBindGroup(1, binding.look.bindGroup);
    const points = look.mode === 'points';
    const instanced = !points && this.quads === 'instanced';
    if (live) {
      // planEmit writes all three argument records from the live count: (n, 1), (6n, 1) and (6, n).
      const at = INDIRECT_ARGS.offsets;
      pass.drawIndirect(live.args, points ? at.drawPoints : instanced ? at.drawInstanced : at.drawQuads);
    } else if (points) pass.draw(drawn);
    else if (instanced) pass.draw(6, drawn);
    else pass.draw(6 * drawn);
  }

  /** Frees what this pass created (pipelines need no freeing). Bindings are their owners'. Safe twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.noGroups.destroy();
    this.textures.destroy();
    this.pipelines.clear();
  }
}
