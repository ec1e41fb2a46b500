/**
 * Workgroup grid for `count` invocations: 1D while it fits in one dimension,
 * else 2D (x at the device's per-dimension limit). shaders/shared/dispatch.wgsl
 * flattens it back and each kernel guards its index with its count.
 */
export function dispatchSize(count: number, workgroupSize: number, maxPerDimension: number): [number, number] {
  const groups = Math.ceil(count / workgroupSize);
  if (groups <= maxPerDimension) return [Math.max(groups, 1), 1];
  const y = Math.ceil(groups / maxPerDimension);
  if (y > maxPerDimension) {
    throw new RangeError(`${count} invocations need ${groups} workgroups, more than ${maxPerDimension}^2`);
  }
  return [maxPerDimension, y];
}
