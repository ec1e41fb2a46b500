/**
 * The built-in sprite shapes, rasterised on the host into RGBA8 pixels
 * (straight alpha: white, the shape in alpha) once per device by
 * src/render/spriteTextures.ts. Why on the host: they are small (64 x 64),
 * made once, and the same bytes on every adapter, so a test can read them.
 *
 * Pure arithmetic: nothing here knows the GPU.
 */
import type { SpriteShape } from './sprite';

/** Texels a side of a built-in shape. */
export const SHAPE_SIZE = 64;

/** Built-in shapes: every sprite shape but `soft` (analytic, no texture) and `image` (the user's). */
export type BuiltInShape = Exclude<SpriteShape, 'soft' | 'image'>;
/** Every built-in shape, in SPRITE_SHAPES' order: the textures SpriteTextures.shape makes. */
export const BUILT_IN_SHAPES: readonly BuiltInShape[] = ['disc', 'ring', 'star', 'smoke', 'spark'];

const smooth = (edge0: number, edge1: number, x: number): number => {
  const t = Math.min(Math.max((x - edge0) / (edge1 - edge0), 0), 1);
  return t * t * (3 - 2 * t);
};

/** Alpha of a shape at (x, y) in [-1, 1]^2 (y up). */
function alphaOf(shape: BuiltInShape, x: number, y: number): number {
  const r = Math.hypot(x, y);
  switch (shape) {
    case 'disc':
      return 1 - smooth(0.75, 1, r);
    case 'ring':
      return 1 - smooth(0.08, 0.2, Math.abs(r - 0.72));
    case 'star': {
      // Five points: the radius of the rim swings between 0.4 and 1 with the angle.
      const angle = Math.atan2(y, x);
      const rim = 0.4 + 0.6 * Math.pow(Math.abs(Math.cos((5 * angle) / 2)), 3);
      return 1 - smooth(rim - 0.12, rim, r);
    }
    case 'smoke': {
      // A puff: soft falloff, lumped by a few fixed waves so it is not a plain disc.
      const lumps = 0.12 * Math.sin(5 * x + 1.3) * Math.sin(4 * y + 0.7) + 0.08 * Math.sin(9 * (x + y));
      return Math.max(0, 1 - smooth(0.2, 1, r + lumps)) * 0.85;
    }
    case 'spark': {
      // A streak along x: thin, brightest at the centre, tapering to the ends.
      const across = Math.abs(y) / (0.18 * (1 - 0.7 * Math.abs(x)) + 1e-3);
      return (1 - smooth(0.3, 1, Math.abs(x))) * (1 - smooth(0.2, 1, across));
    }
  }
}

/** A built-in shape's RGBA8 pixels, rows top to bottom (SHAPE_SIZE x SHAPE_SIZE). */
export function shapePixels(shape: BuiltInShape): Uint8Array<ArrayBuffer> {
  const pixels = new Uint8Array(SHAPE_SIZE * SHAPE_SIZE * 4);
  for (let row = 0; row < SHAPE_SIZE; row++) {
    for (let column = 0; column < SHAPE_SIZE; column++) {
      const x = ((column + 0.5) / SHAPE_SIZE) * 2 - 1;
      const y = 1 - ((row + 0.5) / SHAPE_SIZE) * 2;
      const at = (row * SHAPE_SIZE + column) * 4;
      pixels.fill(255, at, at + 3);
      pixels[at + 3] = Math.round(255 * Math.min(Math.max(alphaOf(shape, x, y), 0), 1));
    }
  }
  return pixels;
}
