/**
 * The lifecycle's indirect draw arguments (src/gpu/lifecycle/lifeBuffers.ts, `args`),
 * declared with the schema: one vec4u a draw (vertex count, instance count,
 * first vertex, first instance) over the live list. planEmit writes them on
 * the GPU (shaders/lifecycle/lifePlan.wgsl reads the word offsets as constants) and the
 * live draws read them (src/render/particlePass.ts).
 */
import { defineStruct } from '../core/schema';

/** Levels of the deaths' scan at most: 2^31 slots are 2^26 words, in blocks of 1,024 three levels (lifeBuffers checks). */
export const MAX_SCAN_LEVELS = 3;

export const INDIRECT_ARGS = defineStruct('IndirectArgs', {
  drawQuads: { type: 'vec4u', doc: 'drawIndirect: 6 vertices a live particle, one instance (vertex pulling)' },
  drawInstanced: { type: 'vec4u', doc: 'drawIndirect: 6 vertices, one instance a live particle' },
  drawPoints: { type: 'vec4u', doc: 'drawIndirect: one point a live particle' },
});

/** Word offsets of each entry (WGSL indexes the buffer as array<u32>). */
export const ARGS = INDIRECT_ARGS.wordOffsets;

/** The offsets as WGSL constants, e.g. `const ARGS_DRAW_QUADS: u32 = 0u;`. */
export function wgslArgs(): string {
  const snake = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
  return Object.entries(ARGS)
    .map(([name, at]) => `const ARGS_${snake(name)}: u32 = ${at}u;`)
    .join('\n');
}
