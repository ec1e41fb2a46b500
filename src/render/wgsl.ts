/**
 * The render passes' door for WGSL, beside src/gpu/wgsl.ts and built the same
 * way: each file imported raw and composed by plain concatenation with the
 * generated declarations (the particle struct from src/core/layout.ts, the
 * uniform structs from their passes' layouts).
 */
import { wgslLifecycleRecords } from '../core/emitters/gpuRecords';
import { wgslLifeStruct, wgslParticleStruct } from '../core/layout';
import color from '../../shaders/render/color.wgsl?raw';
import particles from '../../shaders/render/particles.wgsl?raw';
import records from '../../shaders/render/records.wgsl?raw';
import liveRecords from '../../shaders/render/liveRecords.wgsl?raw';
import grid from '../../shaders/render/grid.wgsl?raw';
import lines from '../../shaders/render/lines.wgsl?raw';
import links from '../../shaders/render/links.wgsl?raw';
import segment from '../../shaders/render/segment.wgsl?raw';
import type { UniformField, UniformLayout } from './uniforms';

type AnyLayout = UniformLayout<Record<string, UniformField>>;

export const renderShaders = {
  /** Particles by index: a state or a history of it (shaders/render/records.wgsl). */
  particles: (params: AnyLayout) => [wgslParticleStruct(), params.wgsl(), color, particles, records].join('\n'),
  /** The live list of a system with emitters, coloured from the life records (shaders/render/liveRecords.wgsl). */
  liveParticles: (params: AnyLayout) =>
    [wgslParticleStruct(), wgslLifeStruct(), wgslLifecycleRecords(), params.wgsl(), color, particles, liveRecords].join(
      '\n',
    ),
  grid: (params: AnyLayout) => [params.wgsl(), grid].join('\n'),
  lines: (params: AnyLayout) => [params.wgsl(), color, segment, lines].join('\n'),
  /** Links between particles, read from a storage buffer of Particle records (shaders/render/links.wgsl). */
  links: (params: AnyLayout) => [wgslParticleStruct(), params.wgsl(), color, segment, links].join('\n'),
} as const;
