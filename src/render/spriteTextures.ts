/**
 * The sprite textures of a ParticlePass: the built-in shapes (rasterised on
 * the host by src/core/look/shapes.ts, uploaded on first use, kept), the
 * textures made from the user's images (ImageBitmap and the like through
 * copyExternalImageToTexture, or RGBA8 pixels through writeTexture; made
 * once per image object, kept), the samplers, and the stand-ins bound where
 * a draw has no texture or no scene depth. It owns all of them and destroys
 * them; a GPUTexture the user gives stays the user's.
 */
import { SparkworksInputError } from '../core/errors';
import { validator } from '../core/validation';
import { BUILT_IN_SHAPES, SHAPE_SIZE, shapePixels, type BuiltInShape } from '../core/look/shapes';

/** RGBA8 pixels, rows top to bottom, straight (not premultiplied) alpha. */
export interface SpritePixels {
  /** Texels a row, 1..MAX_SPRITE_IMAGE_SIDE. */
  readonly width: number;
  /** Rows, 1..MAX_SPRITE_IMAGE_SIDE. */
  readonly height: number;
  /** width * height * 4 bytes: RGBA8, rows top to bottom. */
  readonly data: Uint8Array<ArrayBuffer> | Uint8ClampedArray<ArrayBuffer>;
}

/** An image the sprites are drawn from: a texture (the caller's, kept), pixels, or anything copyExternalImageToTexture takes (an ImageBitmap, a canvas). */
export type SpriteImage = GPUTexture | SpritePixels | GPUCopyExternalImageSource;

const isTexture = (image: SpriteImage): image is GPUTexture =>
  typeof (image as GPUTexture).createView === 'function' && typeof (image as GPUTexture).destroy === 'function';

const isPixels = (image: SpriteImage): image is SpritePixels =>
  typeof image === 'object' && 'data' in image && ArrayBuffer.isView((image as SpritePixels).data);

/** The most texels a side of a sprite image may have (WebGPU's guaranteed 2D limit). */
export const MAX_SPRITE_IMAGE_SIDE = 8192;

/** The textures and samplers a ParticlePass's sprites are drawn with. Owns what it creates; destroy() frees it. */
export class SpriteTextures {
  private readonly shapes = new Map<BuiltInShape, GPUTexture>();
  private readonly images = new WeakMap<object, GPUTexture>();
  private readonly owned: GPUTexture[] = [];
  private readonly samplers: Record<'linear' | 'nearest', GPUSampler>;
  /** Bound where a draw has no texture: one white texel. */
  readonly white: GPUTexture;
  /** Bound where a draw has no scene depth: one texel at the far plane. */
  readonly noDepth: GPUTexture;
  private destroyed = false;

  constructor(private readonly device: GPUDevice) {
    this.white = this.upload('SpriteTextures.white', {
      width: 1,
      height: 1,
      data: new Uint8Array([255, 255, 255, 255]),
    });
    this.noDepth = device.createTexture({
      label: 'SpriteTextures.noDepth',
      size: [1, 1],
      format: 'depth32float',
      usage: GPUTextureUsage.TEXTURE_BINDING,
    });
    this.owned.push(this.noDepth);
    const sampler = (filter: GPUFilterMode) =>
      device.createSampler({
        label: `SpriteTextures.${filter}`,
        magFilter: filter,
        minFilter: filter,
        addressModeU: 'clamp-to-edge',
        addressModeV: 'clamp-to-edge',
      });
    this.samplers = { linear: sampler('linear'), nearest: sampler('nearest') };
  }

  /** The sampler of `filter` (magnifying and minifying alike, clamped to the edge). */
  sampler(filter: 'linear' | 'nearest'): GPUSampler {
    return this.samplers[filter];
  }

  /** A built-in shape's texture (made on first use). */
  shape(shape: BuiltInShape): GPUTexture {
    if (!BUILT_IN_SHAPES.includes(shape))
      throw new SparkworksInputError(`SpriteTextures: no built-in shape '${String(shape)}'`, 'shape', shape);
    let texture = this.shapes.get(shape);
    if (!texture) {
      texture = this.upload(`SpriteTextures.${shape}`, {
        width: SHAPE_SIZE,
        height: SHAPE_SIZE,
        data: shapePixels(shape),
      });
      this.shapes.set(shape, texture);
    }
    return texture;
  }

  /** The texture of a user's image: the texture itself, or one made from it once (this object's). `what` names it in refusals. */
  image(image: SpriteImage, what: string): GPUTexture {
    if (isTexture(image)) {
      if (!(image.usage & GPUTextureUsage.TEXTURE_BINDING) || image.dimension !== '2d' || image.sampleCount !== 1) {
        check.refuse(
          what,
          image.label || 'a GPUTexture',
          'must be a single-sampled 2d texture with TEXTURE_BINDING usage',
        );
      }
      return image;
    }
    const known = this.images.get(image as object);
    if (known) return known;
    let texture: GPUTexture;
    if (isPixels(image)) {
      texture = this.upload(`SpriteTextures.image`, image, what);
    } else {
      const { width, height } = image as { width: number; height: number };
      checkSide(`${what}.width`, width);
      checkSide(`${what}.height`, height);
      texture = this.create('SpriteTextures.image', width, height, GPUTextureUsage.RENDER_ATTACHMENT);
      this.device.queue.copyExternalImageToTexture({ source: image }, { texture, premultipliedAlpha: false }, [
        width,
        height,
      ]);
    }
    this.images.set(image as object, texture);
    return texture;
  }

  /** Frees every texture made here (not the user's). Safe twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const texture of this.owned) texture.destroy();
    this.owned.length = 0;
    this.shapes.clear();
  }

  private create(label: string, width: number, height: number, extraUsage = 0): GPUTexture {
    const texture = this.device.createTexture({
      label,
      size: [width, height],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST | extraUsage,
    });
    this.owned.push(texture);
    return texture;
  }

  private upload(label: string, pixels: SpritePixels, what = label): GPUTexture {
    checkSide(`${what}.width`, pixels.width);
    checkSide(`${what}.height`, pixels.height);
    const bytes = pixels.width * pixels.height * 4;
    if (pixels.data.length !== bytes) {
      check.refuse(`${what}.data.length`, pixels.data.length, `must be width * height * 4 = ${bytes} (RGBA8)`);
    }
    const texture = this.create(label, pixels.width, pixels.height);
    this.device.queue.writeTexture({ texture }, pixels.data, { bytesPerRow: pixels.width * 4 }, [
      pixels.width,
      pixels.height,
    ]);
    return texture;
  }
}

const check = validator();

function checkSide(what: string, side: unknown): void {
  check.integer(what, side, 1, MAX_SPRITE_IMAGE_SIDE);
}
