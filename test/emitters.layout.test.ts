/**
 * The lifecycle's random numbers: the PCG hash and the exact shares are
 * bit-identical in WGSL and TypeScript. (Every lifecycle record's layout is
 * checked with every other schema struct in test/schema.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { draw, open01, pcg, streamKey, uniform01 } from '../src/core/emitters/random';
import { runKernel } from './support/runKernel';
import { pcgSource as pcgWgsl } from '../src/shaders';
import { useDevice } from './support/gpu';

const gpu = useDevice();

describe('counter-based random numbers', () => {
  it('pcg, streamKey, draw and the shares are bit-identical in WGSL and TypeScript', async () => {
    const { device } = gpu.get();
    const count = 4096;
    // Inputs across the whole u32 range: small counters, and hashes.
    const input = Uint32Array.from({ length: count }, (_, i) => (i < 2048 ? i : pcg(i * 7919)));
    const code = `${pcgWgsl}
@group(0) @binding(0) var<storage, read> seeds: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  let v = seeds[i];
  out[i * 5u] = pcg(v);
  out[i * 5u + 1u] = streamKey(v, i);
  out[i * 5u + 2u] = draw(v, i % 13u);
  out[i * 5u + 3u] = bitcast<u32>(uniform01(v));
  out[i * 5u + 4u] = bitcast<u32>(open01(v));
}`;
    const [, got] = (await runKernel(device, code, [input, { bytes: count * 5 * 4 }], count / 64)) as [
      Uint32Array,
      Uint32Array,
    ];
    const f32Bits = (x: number) => new Uint32Array(Float32Array.of(x).buffer)[0];
    for (let i = 0; i < count; i++) {
      const v = input[i] as number;
      const expected = [pcg(v), streamKey(v, i), draw(v, i % 13), f32Bits(uniform01(v)), f32Bits(open01(v))];
      const row = Array.from(got.subarray(i * 5, i * 5 + 5));
      if (row.join() !== expected.join())
        expect.fail(`input ${v} (#${i}): WGSL ${row.join()}, TypeScript ${expected.join()}`);
    }
    // The shares are exact float32 values in range, open01 never 0.
    expect(uniform01(0)).toBe(0);
    expect(uniform01(0xffffffff)).toBe(1 - 2 ** -24);
    expect(open01(0)).toBe(2 ** -24);
    expect(open01(0xffffffff)).toBe(1 - 2 ** -24);
  });

  it('is well spread: the shares of 65,536 consecutive particles fill 64 bins evenly', () => {
    // Not a statistical test suite, a sanity check of the stream: chi-squared with 63 degrees of freedom.
    const bins = new Float64Array(64);
    const n = 65536;
    for (let i = 0; i < n; i++) bins[Math.floor(uniform01(draw(streamKey(7, i), 0)) * 64)]! += 1;
    const expected = n / 64;
    const chi2 = bins.reduce((s, b) => s + (b - expected) ** 2 / expected, 0);
    // The 99.9th percentile of chi-squared(63) is about 103.4.
    expect(chi2).toBeLessThan(103.4);
  });
});
