/**
 * How particles look: the draw mode, blending, size and colour rules, and the
 * uniform block (DrawParams) that carries them and the view to
 * shaders/render/particles.wgsl. The WGSL struct is printed from its schema
 * declaration below (src/core/schema.ts).
 */
import type { LookCurves } from '../core/look/curves';
import type { SpriteLook } from '../core/look/sprite';
import type { SortOrder } from '../core/depthSort';
import { defineStruct } from '../core/schema';
import type { SpriteImage } from './spriteTextures';

/** `sprites`: soft round camera-facing quads. `sparks`: quads stretched along the velocity. `points`: one pixel each, for millions. */
export const DRAW_MODES = ['sprites', 'sparks', 'points'] as const;
/** How each particle is drawn: `sprites`, `sparks` or `points` (see DRAW_MODES). */
export type DrawMode = (typeof DRAW_MODES)[number];

/** `additive` for light (fire, sparks, stars); `alpha` for matter (premultiplied "over", unsorted). */
export const BLEND_MODES = ['additive', 'alpha'] as const;
/** How particles blend: `additive` or `alpha` (see BLEND_MODES). */
export type BlendMode = (typeof BLEND_MODES)[number];

/**
 * `index`: a hue per particle from its index (`hueOffset + hueSpan * i / count`).
 * `speed`: colorA (slow) to colorB to white (at `speedRange`).
 * `life`: over the life of the particle's group, from a GroupTimeline (white-hot, then the group's hue, fading out);
 * for a live binding (ParticlePass.bindLive), over the particle's own life, from its life record (its rule's colour).
 */
export const COLOR_MODES = ['index', 'speed', 'life'] as const;
/** How particles are coloured: `index`, `speed` or `life` (see COLOR_MODES). */
export type ColorMode = (typeof COLOR_MODES)[number];

/** A colour: red, green, blue in [0, 1], not premultiplied. */
export type Rgb = readonly [number, number, number];

/** How a ParticlePass draws particles: mode, blending, size and colour rules. */
export interface ParticleLook {
  /** Sprites, sparks or points. */
  mode: DrawMode;
  /** Additive (light) or alpha (matter). */
  blend: BlendMode;
  /**
   * `back-to-front`: drawn in view-depth order, sorted on the GPU each frame
   * (a binding from ParticlePass.bindSorted; ParticlePass.sortFor records
   * the sort), so alpha blending composes far to near. Default `none`.
   */
  sort?: SortOrder;
  /** By index, by speed, or over the life of the particle or its group. */
  colorMode: ColorMode;
  /** Sprite radius in world units. */
  size: number;
  /** When > 0, the sprite radius in device pixels instead (markers, plots). */
  pixelSize: number;
  /** Sprites smaller than this many device pixels are drawn this big and dimmer (their light is kept). */
  minPixels: number;
  /** Brightness multiplier (the alpha of a point). */
  intensity: number;
  /** Speed colours: the colour at rest. */
  colorA: Rgb;
  /** Speed colours: the colour halfway to `speedRange` (white beyond). */
  colorB: Rgb;
  /** Index colours: the hue of particle 0, in [0, 1). */
  hueOffset: number;
  /** Index colours: the hue range the particles spread over, in turns (1: the whole wheel). */
  hueSpan: number;
  /** HSV saturation of index and life colours, in [0, 1]. */
  saturation: number;
  /** Speed colours: the speed drawn white, m/s. */
  speedRange: number;
  /** Spark length: seconds of velocity drawn behind the particle. */
  stretch: number;
  /** Particles below this height are not drawn (a stand-in ground until collisions land). */
  clipBelow: number;
  /** Life colours: share of life spent white-hot, and the share after which it fades out. */
  hotTime: number;
  /** Life colours: the share of life after which the particle fades out. */
  fadeStart: number;
  /** Life: the size at the end of life, as a share of `size`. */
  endSize: number;
  /**
   * Curves over life (src/core/look/curves.ts): colour and alpha, size and
   * opacity over normalised age, colour by speed; evaluated in the vertex
   * shader from the particle's life record (a live draw) or its group's age
   * (a draw by index with a GroupTimeline; else age 0). Each curve given
   * replaces (colour) or multiplies (size, opacity) what the colour mode
   * gives. Treated as immutable: uploaded when a different object is given.
   */
  curves?: LookCurves;
  /**
   * Curves per spawn rule (the life record's `rule`: emitters first, then
   * firework rules): `rules[r]`'s fields override the draw's `curves` for
   * the particles of rule r; a missing entry or field falls back to them.
   * Treated as immutable, as `curves`.
   */
  rules?: readonly (LookCurves | null | undefined)[];
  /** Sprites from an image (src/core/look/sprite.ts): shape, flipbook, rotation, orientation, softness. Treated as immutable. */
  sprite?: SpriteLook;
  /** The image of `sprite.shape` 'image': a GPUTexture (the caller's), RGBA8 pixels or an ImageBitmap (made into a texture once per object). */
  spriteImage?: SpriteImage;
  /**
   * Soft particles: the opaque scene's depth (a texture with TEXTURE_BINDING
   * usage, single-sampled, the render target's size, not the depth
   * attachment being drawn into: a copy, or the scene pass's own). Sprites
   * fade over `sprite.softDistance` in front of it. Needs a perspective view.
   */
  sceneDepth?: GPUTexture;
}

/** Soft additive sprites of radius 0.05, coloured by index: the look a pass starts with. */
export const DEFAULT_LOOK: ParticleLook = {
  mode: 'sprites',
  blend: 'additive',
  colorMode: 'index',
  size: 0.05,
  pixelSize: 0,
  minPixels: 1.5,
  intensity: 1,
  colorA: [0.2, 0.45, 1],
  colorB: [1, 0.6, 0.2],
  hueOffset: 0,
  hueSpan: 1,
  saturation: 0.75,
  speedRange: 10,
  stretch: 0.05,
  clipBelow: -1e30,
  hotTime: 0.15,
  fadeStart: 0,
  endSize: 0.4,
};

/** shaders/render/particles.wgsl's uniform block. */
export const DRAW_PARAMS = defineStruct('DrawParams', {
  viewProjection: 'mat4x4f',
  viewport: { type: 'vec4f', doc: 'width, height (device px), focal length (px at clip w = 1), unused' },
  colorA: 'vec4f',
  colorB: 'vec4f',
  size: { type: 'f32', doc: 'sprite radius, world units' },
  pixelSize: { type: 'f32', doc: 'when > 0: sprite radius in device pixels instead' },
  minPixels: 'f32',
  intensity: 'f32',
  extrapolate: { type: 'f32', doc: 'seconds to move along the velocity: alpha * dt' },
  time: { type: 'f32', doc: 'simulated time drawn, for life colours' },
  speedRange: 'f32',
  stretch: 'f32',
  clipBelow: 'f32',
  hueOffset: 'f32',
  hueSpan: 'f32',
  saturation: 'f32',
  hotTime: 'f32',
  fadeStart: 'f32',
  endSize: 'f32',
  count: { type: 'u32', doc: 'particles per sample: palette period and stride unit' },
  groupSize: { type: 'u32', doc: 'particles per GroupTimeline entry' },
  sampleStride: { type: 'u32', doc: 'draw every n-th sample of a history buffer (1: every record)' },
});

/** The view a draw is seen through, in device pixels. */
export interface DrawView {
  /** World to clip, column-major (OrbitCamera.viewProjection). */
  viewProjection: ArrayLike<number>;
  /** The render target's width, device pixels. */
  width: number;
  /** The render target's height, device pixels. */
  height: number;
  /** Pixels per world unit at clip w = 1 (OrbitCamera.focalPixels). */
  focalPixels: number;
}

/** Where the drawn time lies: `extrapolate = alpha * dt` seconds past the state in the buffer. */
export interface DrawTime {
  /** Seconds past the stored state to move each particle along its velocity: `alpha * dt` (FixedStepClock). */
  extrapolate: number;
  /** The simulated time drawn, seconds, for life colours. */
  time: number;
}
