/**
 * The campfire's flame flipbook, made on the host as RGBA8 pixels: 8 frames
 * (2 rows x 4 columns) of a tongue of flame whose edge is pushed around by
 * value noise that drifts up from frame to frame, so playing them in order
 * (blended) makes it lick upwards. White, the flame in alpha (straight): the
 * look's colour curve tints it.
 */
import type { SpritePixels } from '../../render/spriteTextures';

/** Texels a side of one frame. */
export const FLAME_FRAME = 64;
export const FLAME_ROWS = 2;
export const FLAME_COLUMNS = 4;

/** A hash of an integer lattice point to [0, 1). */
function hash(x: number, y: number, seed: number): number {
  let h = Math.imul(x, 374761393) + Math.imul(y, 668265263) + Math.imul(seed, 2147483647);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Smooth value noise at (x, y). */
function noise(x: number, y: number, seed: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const a = hash(x0, y0, seed) + (hash(x0 + 1, y0, seed) - hash(x0, y0, seed)) * sx;
  const b = hash(x0, y0 + 1, seed) + (hash(x0 + 1, y0 + 1, seed) - hash(x0, y0 + 1, seed)) * sx;
  return a + (b - a) * sy;
}

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.min(Math.max((x - e0) / (e1 - e0), 0), 1);
  return t * t * (3 - 2 * t);
};

/** The atlas: FLAME_ROWS x FLAME_COLUMNS frames of FLAME_FRAME texels, frames left to right, then top to bottom. */
export function flameAtlas(seed = 3): SpritePixels {
  const width = FLAME_FRAME * FLAME_COLUMNS;
  const height = FLAME_FRAME * FLAME_ROWS;
  const data = new Uint8Array(width * height * 4);
  const frames = FLAME_ROWS * FLAME_COLUMNS;
  for (let frame = 0; frame < frames; frame++) {
    const ox = (frame % FLAME_COLUMNS) * FLAME_FRAME;
    const oy = Math.floor(frame / FLAME_COLUMNS) * FLAME_FRAME;
    // The noise field scrolls up by a share of its cell a frame: the flame licks upwards.
    const drift = (frame / frames) * 2;
    for (let j = 0; j < FLAME_FRAME; j++) {
      for (let i = 0; i < FLAME_FRAME; i++) {
        const x = ((i + 0.5) / FLAME_FRAME) * 2 - 1;
        const y = 1 - ((j + 0.5) / FLAME_FRAME) * 2; // up
        const up = (y + 1) / 2; // 0 at the base, 1 at the tip
        const n = noise(x * 2.5 + 7, (y - drift) * 3, seed) - 0.5;
        const n2 = noise(x * 6 + 3, (y - drift * 1.7) * 6, seed + 1) - 0.5;
        // A teardrop: widest low, narrowing to a tip; the noise bends and frays its edge.
        const half = 0.62 * Math.sqrt(Math.max(0, 1 - up)) * (0.35 + up * 1.6 > 1 ? 1 : 0.35 + up * 1.6);
        const dx = x + n * 0.5 * up;
        const edge = half + n2 * 0.25 * up;
        const body = 1 - smooth(edge * 0.55, edge, Math.abs(dx));
        const base = smooth(0, 0.12, up);
        const alpha = Math.max(0, Math.min(1, body * base * (1 - smooth(0.7, 1, up + n * 0.3))));
        const at = ((oy + j) * width + ox + i) * 4;
        data[at] = 255;
        data[at + 1] = 255;
        data[at + 2] = 255;
        data[at + 3] = Math.round(alpha * 255);
      }
    }
  }
  return { width, height, data };
}
