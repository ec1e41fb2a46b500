/**
 * The lifecycle's count sums (src/core/emitters/gpuRecords.ts addCount and
 * addCounts): a large pool's step may ask for more than 2^32 children, so
 * the scan and the compaction add with saturation at 2^32 - 1 instead of
 * wrapping, and the CPU twin (src/core/emitters/lifecycle.ts addCount) does
 * the same. A pool that overflows cannot be stepped here (it needs 2^24
 * deaths of 255 children in one step), so the WGSL functions run on the GPU
 * on sums around 2^32 and must equal the twin's exactly (integers: no
 * tolerance); and saturation is associative, which is why the scan's blocks
 * give the serial sums.
 */
import { describe, expect, it } from 'vitest';
import { wgslLifecycleRecords } from '../src/core/emitters/gpuRecords';
import { addCount } from '../src/core/emitters/lifecycle';
import { useDevice } from './support/gpu';
import { runKernel } from './support/runKernel';
import { seededRandom } from './support/random';

const gpu = useDevice();
const MAX = 2 ** 32 - 1;

/** Runs addCount on each pair and addCounts on each quadruple of pairs, on the GPU. */
async function gpuSums(pairs: readonly (readonly [number, number])[]): Promise<{ scalar: number[]; vector: number[] }> {
  const code = `${wgslLifecycleRecords()}
@group(0) @binding(0) var<storage, read> pairs: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> scalar: array<u32>;
@group(0) @binding(2) var<storage, read_write> vector: array<vec4u>;
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  scalar[i] = addCount(pairs[i].x, pairs[i].y);
  if (i % 4u == 0u) {
    let a = vec4u(pairs[i].x, pairs[i + 1u].x, pairs[i + 2u].x, pairs[i + 3u].x);
    let b = vec4u(pairs[i].y, pairs[i + 1u].y, pairs[i + 2u].y, pairs[i + 3u].y);
    vector[i / 4u] = addCounts(a, b);
  }
}`;
  const bytes = pairs.length * 4;
  const [, scalar, vector] = await runKernel(
    gpu.get().device,
    code,
    [new Uint32Array(pairs.flat()), { bytes }, { bytes }],
    pairs.length,
  );
  return { scalar: Array.from(scalar as Uint32Array), vector: Array.from(vector as Uint32Array) };
}

describe('lifecycle count sums saturate at 2^32 - 1', () => {
  it('the GPU functions equal the CPU twin on sums around 2^32', async () => {
    const random = seededRandom(24);
    const near = () => Math.floor(MAX - random() * 2 ** 20);
    const small = () => Math.floor(random() * 2 ** 21);
    const pairs: [number, number][] = [
      [0, 0],
      [1, 2],
      [MAX, 0],
      [MAX, 1],
      [MAX - 1, 1],
      [MAX - 1, 2],
      [2 ** 31, 2 ** 31],
      [2 ** 31, 2 ** 31 - 1],
      ...Array.from({ length: 56 }, (): [number, number] => [near(), small()]),
    ];
    const want = pairs.map(([a, b]) => addCount(a, b));
    expect(want.slice(0, 8)).toEqual([0, 3, MAX, MAX, MAX, MAX, MAX, MAX]);
    const { scalar, vector } = await gpuSums(pairs);
    expect(scalar).toEqual(want);
    expect(vector).toEqual(want);
  });

  it('saturating sums of counts are associative: blocks summed then added give the serial sum', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 200; trial++) {
      const counts = Array.from({ length: 40 }, () => Math.floor(random() * 2 ** 28));
      const serial = counts.reduce((sum, n) => addCount(sum, n), 0);
      const cut = Math.floor(random() * counts.length);
      const blocks = addCount(
        counts.slice(0, cut).reduce((sum, n) => addCount(sum, n), 0),
        counts.slice(cut).reduce((sum, n) => addCount(sum, n), 0),
      );
      expect(blocks).toBe(serial);
      expect(serial).toBe(
        Math.min(
          counts.reduce((sum, n) => sum + n, 0),
          MAX,
        ),
      );
    }
  });
});
