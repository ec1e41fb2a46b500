/**
 * The lifecycle's indirect-arguments buffer (src/gpu/lifeBuffers.ts),
 * declared with the schema: one vec4u a dispatch (x, y, z workgroups, a spare
 * word) or draw (vertex count, instance count, first vertex, first
 * instance). The planning kernels write them on the GPU (shaders/lifePlan.wgsl
 * reads the word offsets as constants) and the passes dispatch or draw from
 * them.
 */
import { arrayOf, defineStruct } from '../core/schema';

/** Levels of the deaths' scan at most: 2^31 slots are 2^26 words, in blocks of 1,024 three levels (lifeBuffers checks). */
export const MAX_SCAN_LEVELS = 3;

export const INDIRECT_ARGS = defineStruct('IndirectArgs', {
  live: { type: 'vec4u', doc: 'dispatch over the live list: forces, the step and its ageing' },
  emit: { type: 'vec4u', doc: 'dispatch of the emission' },
  drawQuads: { type: 'vec4u', doc: 'drawIndirect: 6 vertices a live particle, one instance (vertex pulling)' },
  drawInstanced: { type: 'vec4u', doc: 'drawIndirect: 6 vertices, one instance a live particle' },
  drawPoints: { type: 'vec4u', doc: 'drawIndirect: one point a live particle' },
  scan: {
    type: arrayOf('vec4u', MAX_SCAN_LEVELS),
    doc: "dispatch of each scan level below the top (level 0: the deaths' words pass; the top: one workgroup, with planEmit)",
  },
  words: {
    type: 'vec4u',
    doc: 'dispatch over the words of the death bits (32 live indices a word): the compaction',
  },
  fill: { type: 'vec4u', doc: 'dispatch of the fill: one invocation a death or birth of the step, whichever are more' },
  stepList: {
    type: 'vec4u',
    doc: 'dispatch of the step over the live list (the live count), or none when the dense walk steps instead',
  },
  stepDense: {
    type: 'vec4u',
    doc: 'dispatch of the dense walk over every slot (a chunk of slots), or none when the step walks the live list',
  },
});

/** Word offsets of each entry (WGSL indexes the buffer as array<u32>). */
export const ARGS = INDIRECT_ARGS.wordOffsets;
/** Words between two scan levels' dispatches. */
export const SCAN_ARGS_STRIDE = INDIRECT_ARGS.layout.scan.size / MAX_SCAN_LEVELS / 4;

/** Byte offset of scan level `level`'s dispatch. */
export function scanArgsOffset(level: number): number {
  return (ARGS.scan + SCAN_ARGS_STRIDE * level) * 4;
}

/** The offsets as WGSL constants, e.g. `const ARGS_DRAW_QUADS: u32 = 8u;`. */
export function wgslArgs(): string {
  const snake = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
  return [
    ...Object.entries(ARGS).map(([name, at]) => `const ARGS_${snake(name)}: u32 = ${at}u;`),
    `const ARGS_SCAN_STRIDE: u32 = ${SCAN_ARGS_STRIDE}u;`,
  ].join('\n');
}
