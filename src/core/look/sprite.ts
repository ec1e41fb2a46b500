/**
 * How a sprite's image is chosen and turned: the shape (a built-in one or the
 * user's image), a flipbook atlas (rows x columns, the frame chosen by age
 * over life or by frames per second, optionally blended between frames),
 * rotation at spawn and angular velocity, orientation (screen- or
 * velocity-aligned) and soft particles. Plain JSON-able data (the image and
 * the scene's depth texture are given beside it, in the renderer's
 * ParticleLook).
 *
 * The particle record is full (64 bytes), so a particle's rotation is not
 * state: its initial angle and angular velocity are drawn from a hash of its
 * slot and the slot's generation (the life record's), within the ranges, and
 * the angle is `initial + angular velocity * age`. The same particle keeps
 * the same spin for its whole life; a recycled slot (a new generation) draws
 * anew. spinOf and flipbookFrame are the CPU twins of the shader's.
 *
 * Pure data and arithmetic: nothing here knows the GPU.
 */
import { validator, type Validator } from '../validation';

/**
 * `soft`: the analytic soft round sprite (no texture; the default).
 * The rest are textures generated on the host (src/core/look/shapes.ts):
 * `disc` (a soft-edged disc), `ring`, `star` (five points), `smoke` (a
 * lumpy puff), `spark` (a bright streak along x, for velocity alignment).
 * `image`: the image given as ParticleLook.spriteImage.
 */
export const SPRITE_SHAPES = ['soft', 'disc', 'ring', 'star', 'smoke', 'spark', 'image'] as const;
/** A sprite's shape: one of SPRITE_SHAPES. */
export type SpriteShape = (typeof SPRITE_SHAPES)[number];

/** `screen`: the sprite's x axis is the screen's (turned by its rotation). `velocity`: along the screen-space velocity. */
export const SPRITE_ORIENTATIONS = ['screen', 'velocity'] as const;
/** How a sprite is turned on screen: one of SPRITE_ORIENTATIONS. */
export type SpriteOrientation = (typeof SPRITE_ORIENTATIONS)[number];

/** `age`: frames over the particle's life (`cycles` times). `fps`: `fps` frames a second of its age, looping. */
export const FLIPBOOK_MODES = ['age', 'fps'] as const;
/** How a flipbook's frame is chosen: one of FLIPBOOK_MODES. */
export type FlipbookMode = (typeof FLIPBOOK_MODES)[number];

/** The most rows (and columns) of a flipbook atlas. */
export const MAX_FLIPBOOK_SIDE = 64;

/** A flipbook atlas: frames left to right, then top to bottom. */
export interface Flipbook {
  /** Rows of frames in the atlas, 1..MAX_FLIPBOOK_SIDE. */
  readonly rows: number;
  /** Columns of frames in the atlas, 1..MAX_FLIPBOOK_SIDE. */
  readonly columns: number;
  /** Frames used (default rows * columns): an atlas's last row may be partly empty. */
  readonly frames?: number;
  /** How the frame is chosen (default `age`). */
  readonly mode?: FlipbookMode;
  /** `fps` mode: frames a second. */
  readonly fps?: number;
  /** `age` mode: times the frames play over a life (default 1). */
  readonly cycles?: number;
  /** Blend each frame into the next (default false: the frame shown whole). */
  readonly blend?: boolean;
}

/** How sprites are drawn from an image. */
export interface SpriteLook {
  /** Default `soft`. */
  readonly shape?: SpriteShape;
  /** The image as a flipbook atlas (default none: the whole image, one frame). */
  readonly flipbook?: Flipbook;
  /** Initial rotation range, radians [min, max] (default [0, 0]). */
  readonly rotation?: readonly [number, number];
  /** Angular velocity range, radians a second [min, max] (default [0, 0]). */
  readonly spin?: readonly [number, number];
  /** Default `screen`. */
  readonly orient?: SpriteOrientation;
  /** Soft particles: the view depth, world units, over which a sprite fades in front of the scene's depth (given with ParticleLook.sceneDepth). Default 0.1. */
  readonly softDistance?: number;
  /** Texture filtering (default `linear`). */
  readonly filter?: 'linear' | 'nearest';
}

export const SPRITE_KEYS = ['shape', 'flipbook', 'rotation', 'spin', 'orient', 'softDistance', 'filter'] as const;
export const FLIPBOOK_KEYS = ['rows', 'columns', 'frames', 'mode', 'fps', 'cycles', 'blend'] as const;

/** The most radians (or radians a second) a rotation range may name. */
export const MAX_ANGLE = 1e4;

const check: Validator = validator();

function range(what: string, value: unknown): [number, number] {
  const [min, max] = check.vector(what, value, 'must be [min, max]', {
    length: 2,
    componentRule: `must be a number in [-${MAX_ANGLE}, ${MAX_ANGLE}]`,
  }) as [number, number];
  [min, max].forEach((x, k) => {
    if (Math.abs(x) > MAX_ANGLE) check.refuse(`${what}[${k}]`, x, `must be a number in [-${MAX_ANGLE}, ${MAX_ANGLE}]`);
  });
  if (min > max) check.refuse(what, value, `an empty range: min ${min} > max ${max}`);
  return [min, max];
}

/** A SpriteLook with every field filled in. */
export interface ResolvedSprite {
  shape: SpriteShape;
  flipbook: Required<Flipbook>;
  rotation: [number, number];
  spin: [number, number];
  orient: SpriteOrientation;
  softDistance: number;
  filter: 'linear' | 'nearest';
}

/** A SpriteLook, checked, with its defaults filled in (`what` names it in refusals). */
export function validateSprite(what: string, value: unknown): ResolvedSprite {
  const object = check.object(what, value ?? {}, SPRITE_KEYS);
  let flipbook: Required<Flipbook> = { rows: 1, columns: 1, frames: 1, mode: 'age', fps: 0, cycles: 1, blend: false };
  if (object.flipbook !== undefined) {
    const at = `${what}.flipbook`;
    const book = check.object(at, object.flipbook, FLIPBOOK_KEYS);
    const rows = check.integer(`${at}.rows`, book.rows, 1, MAX_FLIPBOOK_SIDE);
    const columns = check.integer(`${at}.columns`, book.columns, 1, MAX_FLIPBOOK_SIDE);
    const mode = book.mode === undefined ? 'age' : check.oneOf(`${at}.mode`, book.mode, FLIPBOOK_MODES);
    const positive = 'must be a finite number > 0';
    flipbook = {
      rows,
      columns,
      frames:
        book.frames === undefined ? rows * columns : check.integer(`${at}.frames`, book.frames, 1, rows * columns),
      mode,
      fps: mode === 'fps' || book.fps !== undefined ? check.finite(`${at}.fps`, book.fps, positive, (x) => x > 0) : 0,
      cycles: book.cycles === undefined ? 1 : check.finite(`${at}.cycles`, book.cycles, positive, (x) => x > 0),
      blend: check.flag(`${at}.blend`, book.blend),
    };
  }
  return {
    shape: object.shape === undefined ? 'soft' : check.oneOf(`${what}.shape`, object.shape, SPRITE_SHAPES),
    flipbook,
    rotation: object.rotation === undefined ? [0, 0] : range(`${what}.rotation`, object.rotation),
    spin: object.spin === undefined ? [0, 0] : range(`${what}.spin`, object.spin),
    orient: object.orient === undefined ? 'screen' : check.oneOf(`${what}.orient`, object.orient, SPRITE_ORIENTATIONS),
    softDistance:
      object.softDistance === undefined
        ? 0.1
        : check.finite(`${what}.softDistance`, object.softDistance, 'must be a finite number > 0', (x) => x > 0),
    filter:
      object.filter === undefined ? 'linear' : check.oneOf(`${what}.filter`, object.filter, ['linear', 'nearest']),
  };
}

/** PCG's output hash of one word (O'Neill; the RXS-M-XS step), as shaders/render/particles.wgsl's `lookHash`. */
export function lookHash(x: number): number {
  const state = (Math.imul(x >>> 0, 747796405) + 2891336453) >>> 0;
  const word = Math.imul(((state >>> ((state >>> 28) + 4)) ^ state) >>> 0, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

/** A hash as a float in [0, 1): its top 24 bits (exact in float32). */
function unit(h: number): number {
  return (h >>> 8) / 16777216;
}

/**
 * The initial angle and angular velocity of the particle in `slot` of
 * generation `generation`, within the ranges: two hashes of (slot, generation).
 */
export function spinOf(
  slot: number,
  generation: number,
  rotation: readonly [number, number],
  spin: readonly [number, number],
): { angle: number; angularVelocity: number } {
  const a = lookHash((slot ^ Math.imul(generation >>> 0, 0x9e3779b9)) >>> 0);
  const b = lookHash(a);
  const f = Math.fround;
  const mix = (lo: number, hi: number, s: number) => f(f(f(lo) * f(1 - s)) + f(f(hi) * s));
  return { angle: mix(rotation[0], rotation[1], unit(a)), angularVelocity: mix(spin[0], spin[1], unit(b)) };
}

/**
 * The flipbook frame shown at normalised age `share` and age `age` seconds:
 * `frame`, the next one and the weight of the next (0 unless blending).
 * By age the frames run once (times `cycles`) over the life, the last frame
 * held at its end; by fps they loop.
 */
export function flipbookFrame(
  book: Required<Flipbook>,
  share: number,
  age: number,
): { frame: number; next: number; weight: number } {
  const f = Math.fround;
  const frames = book.frames;
  const position = book.mode === 'fps' ? f(f(age) * f(book.fps)) : f(f(f(share) * f(book.cycles)) * frames);
  const whole = Math.floor(position);
  // By age, the end of life (share 1, one cycle) shows the last frame, not the first again.
  const lastHeld = book.mode === 'age' && position >= f(f(book.cycles) * frames);
  const frame = lastHeld ? frames - 1 : whole % frames;
  const next = book.mode === 'age' && lastHeld ? frame : (frame + 1) % frames;
  const weight = book.blend && !lastHeld ? f(position - whole) : 0;
  return { frame, next, weight };
}
