/**
 * The lifecycle's indirect-arguments buffer (src/gpu/lifeBuffers.ts): where
 * each dispatch's and draw's arguments live, in words. The planning kernels
 * write them on the GPU (shaders/lifePlan.wgsl reads these offsets as
 * constants) and the passes dispatch or draw from them.
 */
export const ARGS = {
  /** Dispatch over the live list: forces, step, age, compaction. */
  live: 0,
  /** Dispatch of the emission. */
  emit: 4,
  /** drawIndirect: 6 vertices a live particle, one instance (vertex pulling). */
  drawQuads: 8,
  /** drawIndirect: 6 vertices, one instance a live particle. */
  drawInstanced: 12,
  /** drawIndirect: one point a live particle. */
  drawPoints: 16,
  /** Dispatch of scan level l at scan + 4 * l. */
  scan: 20,
} as const;

/** The offsets as WGSL constants, e.g. `const ARGS_DRAW_QUADS: u32 = 8u;`. */
export function wgslArgs(): string {
  const snake = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
  return Object.entries(ARGS)
    .map(([name, at]) => `const ARGS_${snake(name)}: u32 = ${at}u;`)
    .join('\n');
}
