/**
 * Owns the link pipeline (shaders/render/links.wgsl): lines of constant pixel
 * width between pairs of particles, read in the vertex shader from a storage
 * buffer of Particle records (the simulation's own `system.particles.buffer`:
 * no readback, no copy), so they follow the particles every frame at no cost
 * to the host. A LinkBinding ties that buffer to a list of links (index pairs,
 * each with an optional rest length for the stretch colours), uploaded with
 * `setLinks`, and a uniform block; `draw` records into the caller's pass.
 */
import { SparkworksInputError } from '../core/errors';
import {
  createDrawShader,
  createOverlayPipeline,
  DrawBinding,
  DrawPass,
  type DrawShader,
  type DrawShaderOptions,
} from './drawPipeline';
import type { ParticleChunking } from '../core/layout';
import { defineStruct } from '../core/schema';
import { chunkingKey, storeOf, type ParticleStore } from '../gpu/shared/particleBuffer';
import type { DrawTime, DrawView, Rgb } from './particleLook';
import type { ParticleSource } from './particleBinding';
import { RENDER_PARTICLES_BINDING, shaders } from '../shaders';

/** shaders/render/links.wgsl's uniform block. */
export const LINK_PARAMS = defineStruct('LinkParams', {
  viewProjection: 'mat4x4f',
  viewport: { type: 'vec4f', doc: 'width, height (device px), unused, unused' },
  color: { type: 'vec4f', doc: 'straight colour (not premultiplied) at rest length or shorter' },
  stretchColor: { type: 'vec4f', doc: 'straight colour at a strain of stretchRange or more' },
  width: { type: 'f32', doc: 'device pixels' },
  extrapolate: { type: 'f32', doc: 'seconds past the stored state, as the particles are drawn' },
  stretchRange: { type: 'f32', doc: 'strain at which a link is all stretchColor; 0: no stretch colours' },
  count: { type: 'u32', doc: 'links drawn' },
});

/** One link in the buffer links.wgsl reads (a storage array of them). */
export const LINK_RECORD = defineStruct('DrawnLink', {
  a: 'u32',
  b: { type: 'u32', doc: 'ANCHORED_END: the link ends at `anchor`, not at a particle' },
  restLength: { type: 'f32', doc: '0: no rest length known, the link keeps its colour' },
  anchor: { type: 'vec3f', doc: "an anchored link's fixed end (a cable's or rod's anchor), world units" },
});

/** `b` of a link whose other end is a fixed point (its `anchor`), not a particle. */
export const ANCHORED_END = 0xffffffff;

/** The words of one link in the buffer links.wgsl reads: a, b (u32), restLength (f32) and the anchor (vec3f). */
export const WORDS_PER_LINK = LINK_RECORD.words;

/** A link: two particle indices and, for the stretch colours, its rest length. A SpringLink is one. */
export interface LinkEnds {
  /** One end: a particle index. */
  readonly a: number;
  /** The other end: a particle index. */
  readonly b: number;
  /** The length at which it has its rest colour; left out (or 0), it keeps that colour. */
  readonly restLength?: number;
}

/** A link from a particle to a fixed point: an anchored cable or rod, as the collisions' `links` option takes them. */
export interface AnchoredLinkEnds {
  /** The moving end: a particle index. */
  readonly a: number;
  /** The fixed end, world units. */
  readonly anchor: readonly [number, number, number];
  /** The length at which it has its rest colour; left out (or 0), it keeps that colour. */
  readonly restLength?: number;
}

/** Links as objects (between two particles, or anchored), or as flat index pairs [a0, b0, a1, b1, ...] (no rest lengths). */
export type LinkList = readonly (LinkEnds | AnchoredLinkEnds)[] | ArrayLike<number>;

/** How LinkPass draws links: width, colours at rest and stretched, opacity. */
export interface LinkStyle {
  /** Device pixels. */
  width: number;
  /** The colour of a link at its rest length or shorter. */
  color: Rgb;
  /** The colour of a link stretched by `stretchRange` or more. */
  stretchColor: Rgb;
  /** Strain (length / rest length - 1) at which a link is all `stretchColor`; 0 turns the stretch colours off. */
  stretchRange: number;
  /** 0..1; blended "over" what is drawn before. */
  opacity: number;
}

/** Thin blue-grey links turning orange at 25% stretch, 60% opaque: the Springs demo's look. */
export const DEFAULT_LINK_STYLE: Readonly<LinkStyle> = {
  width: 1.5,
  color: [0.45, 0.55, 0.75],
  stretchColor: [1, 0.45, 0.2],
  stretchRange: 0.25,
  opacity: 0.6,
};

/**
 * What a scene draws as links: its cables and rods (between two particles,
 * or from a particle to its anchor; rest length the rod's length or the
 * cable's maximum) and its pair springs (their rest lengths).
 */
export function sceneLinkEnds(
  links: readonly unknown[] | undefined,
  springs: readonly { a: number; b: number; restLength?: number }[],
): (LinkEnds | AnchoredLinkEnds)[] {
  const drawn: (LinkEnds | AnchoredLinkEnds)[] = [];
  for (const link of (links ?? []) as {
    type?: string;
    a: number;
    b?: number;
    anchor?: ArrayLike<number>;
    length?: number;
    maxLength?: number;
  }[]) {
    const restLength = Number((link.type === 'rod' ? link.length : link.maxLength) ?? 0);
    if (typeof link.b === 'number') drawn.push({ a: link.a, b: link.b, restLength });
    else if (link.anchor) {
      const [x, y, z] = Array.from(link.anchor);
      drawn.push({ a: link.a, anchor: [x ?? 0, y ?? 0, z ?? 0], restLength });
    }
  }
  for (const spring of springs) drawn.push({ a: spring.a, b: spring.b, restLength: spring.restLength ?? 0 });
  return drawn;
}

/**
 * Packs `links` into the buffer layout links.wgsl reads, checking each index
 * against `particles` (the records in the bound buffer).
 */
export function packLinks(links: LinkList, particles: number): Uint32Array<ArrayBuffer> {
  const flat = links.length > 0 && typeof links[0] === 'number';
  if (flat && links.length % 2 !== 0)
    throw new SparkworksInputError(`links: ${links.length} indices is not a list of pairs`, 'links', links.length);
  const count = flat ? links.length / 2 : links.length;
  const records = LINK_RECORD.array(count);
  for (let i = 0; i < count; i++) {
    let a: number, b: number, restLength: number;
    let anchor: readonly [number, number, number] | null = null;
    if (flat) {
      const pairs = links as ArrayLike<number>;
      a = pairs[2 * i] as number;
      b = pairs[2 * i + 1] as number;
      restLength = 0;
    } else {
      const link = (links as readonly (LinkEnds | AnchoredLinkEnds)[])[i] as LinkEnds | AnchoredLinkEnds;
      a = link.a;
      b = 'anchor' in link ? ANCHORED_END : link.b;
      if ('anchor' in link) {
        anchor = link.anchor;
        if (!Array.isArray(anchor) || anchor.length !== 3 || !anchor.every((c) => Number.isFinite(c))) {
          throw new SparkworksInputError(
            `links[${i}].anchor = ${JSON.stringify(anchor)}: not three finite numbers`,
            `links[${i}].anchor`,
            anchor,
          );
        }
      }
      restLength = link.restLength ?? 0;
    }
    for (const [name, index] of [['a', a], ...(anchor ? [] : ([['b', b]] as const))] as const) {
      if (!Number.isInteger(index) || index < 0 || index >= particles) {
        throw new SparkworksInputError(
          `links[${i}].${name} = ${index}: not a particle index below ${particles}`,
          `links[${i}].${name}`,
          index,
        );
      }
    }
    if (!(restLength >= 0))
      throw new SparkworksInputError(
        `links[${i}].restLength = ${restLength}: not >= 0`,
        `links[${i}].restLength`,
        restLength,
      );
    records.set(i, 'a', a).set(i, 'b', b).set(i, 'restLength', restLength);
    if (anchor) records.set(i, 'anchor', anchor);
  }
  // (An array of none still holds one record.)
  return records.words.subarray(0, count * WORDS_PER_LINK);
}

/** A list of links (its buffer owned here), the particle buffer they join (its owner's) and a LinkParams block. */
export class LinkBinding extends DrawBinding<typeof LINK_PARAMS.fields> {
  /** Particle records in the bound buffer: the bound on a link's indices. */
  readonly particleCount: number;
  private linkBuffer: GPUBuffer;
  private linkCount = 0;

  constructor(
    device: GPUDevice,
    layout: GPUBindGroupLayout,
    label: string,
    /** The Particle records the links join (usually `system.particleStore`); their owner's. */
    readonly particles: ParticleStore,
    links: LinkList = [],
    /** The pipeline for the store's chunking. @internal */
    readonly pipeline: GPURenderPipeline,
  ) {
    const particleCount = particles.capacity;
    const packed = packLinks(links, particleCount);
    const linkBuffer = createLinkBuffer(device, label, packed.length / WORDS_PER_LINK);
    super(device, layout, label, LINK_PARAMS, storage(particles, linkBuffer));
    this.particleCount = particleCount;
    this.linkBuffer = linkBuffer;
    this.write(packed);
  }

  /** The links' buffer (u32 a, u32 b, f32 restLength a link); replaced by a bigger one when a list outgrows it. */
  get links(): GPUBuffer {
    return this.linkBuffer;
  }

  /** Links drawn. */
  get count(): number {
    return this.linkCount;
  }

  /**
   * Uploads `links` (queued; later draws see them), replacing the list. The
   * buffer is reused when they fit, else replaced (and the old one freed).
   */
  setLinks(links: LinkList): void {
    if (this.destroyed) throw new Error(`${this.label}: setLinks after destroy()`);
    const packed = packLinks(links, this.particleCount);
    const count = packed.length / WORDS_PER_LINK;
    if (count * WORDS_PER_LINK * 4 > this.linkBuffer.size) {
      this.linkBuffer.destroy();
      this.linkBuffer = createLinkBuffer(this.device, this.label, count);
      this.rebind(storage(this.particles, this.linkBuffer));
    }
    this.write(packed);
  }

  /** destroy() frees the uniform and link buffers (the particle buffer is its owner's). */
  protected override release(): void {
    this.linkBuffer.destroy();
  }

  private write(packed: Uint32Array<ArrayBuffer>): void {
    this.linkCount = packed.length / WORDS_PER_LINK;
    if (packed.length > 0) this.device.queue.writeBuffer(this.linkBuffer, 0, packed);
  }
}

/** Bind group 0's storage buffers: the first chunk of records, the links, then the other chunks. */
function storage(particles: ParticleStore, links: GPUBuffer): GPUBuffer[] {
  const [first, ...more] = particles.buffers;
  return [first as GPUBuffer, links, ...more];
}

function createLinkBuffer(device: GPUDevice, label: string, count: number): GPUBuffer {
  return device.createBuffer({
    label: `${label}.links`,
    // At least one link: a binding is never empty.
    size: Math.max(count, 1) * LINK_RECORD.size,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
}

/**
 * Draws lines of constant pixel width between pairs of particles, read from
 * the particle buffer on the GPU (no readback), coloured by their stretch.
 */
export class LinkPass extends DrawPass {
  /** The layout and pipeline per chunking of the particle store ('one' made at once). */
  private readonly chunked = new Map<string, { layout: GPUBindGroupLayout; pipeline: GPURenderPipeline }>();

  constructor(
    device: GPUDevice,
    private readonly format: GPUTextureFormat,
    private readonly depthFormat: GPUTextureFormat,
  ) {
    super(device, LinkPass.shaderFor(null));
    this.chunked.set(chunkingKey(null), { layout: this.layout, pipeline: this.pipelineFor(this.shader) });
  }

  /** links.wgsl with the store split as `chunking`: first chunk at binding 1, the links at 2, the other chunks after. */
  private static shaderFor(chunking: ParticleChunking | null): DrawShaderOptions {
    const storageBuffers = 2;
    return {
      name: 'LinkPass',
      file: 'render/links.wgsl',
      code: shaders.renderLinks(LINK_PARAMS, LINK_RECORD, ANCHORED_END, {
        moreChunksAt: RENDER_PARTICLES_BINDING + storageBuffers,
        chunking,
      }),
      storageBuffers: storageBuffers + (chunking?.chunks ?? 1) - 1,
    };
  }

  private pipelineFor(shader: DrawShader): GPURenderPipeline {
    return createOverlayPipeline(this.device, shader, {
      vertexEntry: 'linkVertex',
      fragmentEntry: 'linkFragment',
      format: this.format,
      depthFormat: this.depthFormat,
      depthCompare: 'less',
    });
  }

  /**
   * A binding that draws `links` between the records of `particles` (e.g.
   * `system.particles.buffer`). The caller owns it and destroys it; one
   * binding holds one uniform block, so it can be drawn once per submitted
   * command buffer.
   */
  bind(label: string, particles: ParticleSource, links: LinkList = []): LinkBinding {
    const store = storeOf(particles);
    if (store.capacity < 1)
      throw new SparkworksInputError(`${label}: the buffer holds no particle record`, 'capacity', store.capacity);
    const key = chunkingKey(store.chunking);
    let chunked = this.chunked.get(key);
    if (!chunked) {
      const shader = createDrawShader(this.device, LinkPass.shaderFor(store.chunking));
      chunked = { layout: shader.layout, pipeline: this.pipelineFor(shader) };
      this.chunked.set(key, chunked);
    }
    return new LinkBinding(this.device, chunked.layout, label, store, links, chunked.pipeline);
  }

  /** Records one draw of `binding`'s links into `pass` (a render pass the caller began). */
  draw(pass: GPURenderPassEncoder, binding: LinkBinding, style: LinkStyle, view: DrawView, time: DrawTime): void {
    if (this.destroyed || binding.count < 1) return;
    binding.data
      .set('viewProjection', view.viewProjection)
      .set('viewport', [view.width, view.height, 0, 0])
      .set('color', [...style.color, style.opacity])
      .set('stretchColor', [...style.stretchColor, style.opacity])
      .set('width', style.width)
      .set('extrapolate', time.extrapolate)
      .set('stretchRange', style.stretchRange)
      .set('count', binding.count);
    binding.record(pass, binding.pipeline);
    // Vertex pulling: 6 vertices a link (see links.wgsl).
    pass.draw(6 * binding.count);
  }
}
