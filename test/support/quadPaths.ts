/**
 * ParticlePass's two quad paths side by side (test/render.test.ts,
 * test/render.live.test.ts): one pass and binding each, drawing into
 * rgba16float, and the check that both drew the same bits.
 */
import { expect } from 'vitest';
import { ParticlePass, QUAD_PATHS, type QuadPath } from '../../src/render/particlePass';

type Binding = ReturnType<ParticlePass['bind']>;

export class QuadPaths {
  readonly passes: Record<QuadPath, ParticlePass>;
  readonly bindings: Record<QuadPath, Binding>;

  /** A pass for each path, and its binding made by `bind` (e.g. `pass.bind(label, buffer)`). */
  constructor(device: GPUDevice, bind: (pass: ParticlePass, quads: QuadPath) => Binding) {
    this.passes = {
      instanced: new ParticlePass(device, 'rgba16float', 'depth24plus', { quads: 'instanced' }),
      pulled: new ParticlePass(device, 'rgba16float', 'depth24plus', { quads: 'pulled' }),
    };
    this.bindings = {
      instanced: bind(this.passes.instanced, 'instanced'),
      pulled: bind(this.passes.pulled, 'pulled'),
    };
  }

  destroy(): void {
    for (const quads of QUAD_PATHS) this.bindings[quads].destroy();
    for (const quads of QUAD_PATHS) this.passes[quads].destroy();
  }
}

/**
 * Both paths' pixels (rgba16float bits of a `size`-wide target) are the same
 * bits, and more than `lit` of them have alpha: enough for the comparison to
 * mean something.
 */
export function expectSamePixels(
  instanced: Uint16Array,
  pulled: Uint16Array,
  size: number,
  lit: number,
  what: string,
): void {
  let alpha = 0;
  for (let p = 3; p < pulled.length; p += 4) if (pulled[p] !== 0) alpha++;
  expect(alpha, `${what}: pixels lit`).toBeGreaterThan(lit);
  // The same triangles in the same order, blended in the same order: the same bits.
  const differs = instanced.findIndex((bits, i) => bits !== pulled[i]);
  const at = `pixel (${Math.floor(differs / 4) % size}, ${Math.floor(differs / 4 / size)}), channel ${differs % 4}`;
  expect(differs, `${what}: instanced and pulled differ first at ${at}`).toBe(-1);
}
