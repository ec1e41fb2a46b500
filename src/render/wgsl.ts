/**
 * The render passes' door for WGSL, beside src/gpu/wgsl.ts and built the same
 * way: each file imported raw and composed by plain concatenation with the
 * generated declarations (the particle struct from src/core/layout.ts, the
 * uniform structs from their passes' layouts).
 */
import { wgslParticleStruct } from '../core/layout';
import color from '../../shaders/render/color.wgsl?raw';
import particles from '../../shaders/render/particles.wgsl?raw';
import grid from '../../shaders/render/grid.wgsl?raw';
import lines from '../../shaders/render/lines.wgsl?raw';
import type { UniformField, UniformLayout } from './uniforms';

type AnyLayout = UniformLayout<Record<string, UniformField>>;

export const renderShaders = {
  particles: (params: AnyLayout) => [wgslParticleStruct(), params.wgsl(), color, particles].join('\n'),
  grid: (params: AnyLayout) => [params.wgsl(), grid].join('\n'),
  lines: (params: AnyLayout) => [params.wgsl(), color, lines].join('\n'),
} as const;
