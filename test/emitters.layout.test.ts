/**
 * The lifecycle's generated WGSL agrees with the TypeScript that packs it:
 * the life record's fields and every lifecycle record's fields are read by a
 * shader through the generated structs and compared with the host's words;
 * the PCG hash and the exact shares are bit-identical on both sides.
 */
import { describe, expect, it } from 'vitest';
import {
  DEATH,
  EMITTER_FRAME,
  EMITTER_STATE,
  FRAME_PARAMS,
  LIFE_COUNTERS,
  SPAWN_RULE,
  wgslLifecycleRecords,
} from '../src/core/emitters/gpuRecords';
import { LIFE, LIFE_FIELD_NAMES, WORDS_PER_LIFE, wgslLifeStruct } from '../src/core/layout';
import { draw, open01, pcg, streamKey, uniform01 } from '../src/core/emitters/random';
import type { RecordSpec, WordField } from '../src/core/emitters/records';
import { withErrorScopes } from '../src/gpu/errors';
import { pcgSource as pcgWgsl } from '../src/shaders';
import { useDevice } from './support/gpu';

const gpu = useDevice();

/** Runs `main` over `count` invocations with `input` (u32 words) and returns `outWords` u32 words of output. */
async function runShader(
  device: GPUDevice,
  code: string,
  input: Uint32Array,
  count: number,
  outWords: number,
): Promise<Uint32Array> {
  const inBuffer = device.createBuffer({
    size: Math.max(16, input.byteLength),
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  const out = device.createBuffer({ size: outWords * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: outWords * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  try {
    await withErrorScopes(device, 'layout shader', () => {
      device.queue.writeBuffer(inBuffer, 0, input as Uint32Array<ArrayBuffer>);
      const pipeline = device.createComputePipeline({
        layout: 'auto',
        compute: { module: device.createShaderModule({ code }), entryPoint: 'main' },
      });
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(
        0,
        device.createBindGroup({
          layout: pipeline.getBindGroupLayout(0),
          entries: [
            { binding: 0, resource: { buffer: inBuffer } },
            { binding: 1, resource: { buffer: out } },
          ],
        }),
      );
      pass.dispatchWorkgroups(count);
      pass.end();
      encoder.copyBufferToBuffer(out, 0, read, 0, outWords * 4);
      device.queue.submit([encoder.finish()]);
    });
    await read.mapAsync(GPUMapMode.READ);
    const words = new Uint32Array(read.getMappedRange().slice(0));
    read.unmap();
    return words;
  } finally {
    for (const b of [inBuffer, out, read]) b.destroy();
  }
}

/** WGSL that copies every field of record `i` out as raw words, through the generated struct. */
function fieldCopies(spec: RecordSpec<Record<string, WordField>>, record: string, outStride: number): string {
  const lines: string[] = [];
  for (const [name, field] of Object.entries(spec.fields)) {
    const size = { f32: 1, u32: 1, vec2u: 2, vec3f: 3, vec4u: 4 }[field.type];
    for (let c = 0; c < size; c++) {
      const value = size === 1 ? `${record}.${name}` : `${record}.${name}[${c}]`;
      const word = field.type.endsWith('f') || field.type === 'f32' ? `bitcast<u32>(${value})` : value;
      lines.push(`out[i * ${outStride}u + ${field.at + c}u] = ${word};`);
    }
  }
  return lines.join('\n  ');
}

describe('lifecycle layouts through generated WGSL', () => {
  it('the life record: every field where the host views put it', async () => {
    const { device } = gpu.get();
    const count = 3;
    // Distinct words, small enough that none is a NaN bit pattern as a float.
    const input = Uint32Array.from({ length: count * WORDS_PER_LIFE }, (_, k) => 0x3f000000 + k);
    const copies = LIFE_FIELD_NAMES.map((name) => {
      const field = LIFE.layout[name];
      const value = `life[i].${name}`;
      return `out[i * ${WORDS_PER_LIFE}u + ${field.offset / 4}u] = ${field.scalar === 'f32' ? `bitcast<u32>(${value})` : value};`;
    });
    const code = `${wgslLifeStruct()}
@group(0) @binding(0) var<storage, read> life: array<Life>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  ${copies.join('\n  ')}
}`;
    expect(Array.from(await runShader(device, code, input, count, input.length))).toEqual(Array.from(input));
  });

  it.each([
    ['SpawnRule', SPAWN_RULE],
    ['EmitterFrame', EMITTER_FRAME],
    ['EmitterState', EMITTER_STATE],
    ['LifeCounters', LIFE_COUNTERS],
    ['Death', DEATH],
    ['FrameParams', FRAME_PARAMS],
  ] as const)('%s: every field at its word offset, the stride of an array of them', async (name, spec) => {
    const { device } = gpu.get();
    const count = 2;
    const words = spec.words;
    const input = Uint32Array.from({ length: count * words }, (_, k) => 0x3f000000 + k);
    const code = `${wgslLifecycleRecords()}
@group(0) @binding(0) var<storage, read> records: array<${name}>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  ${fieldCopies(spec as RecordSpec<Record<string, WordField>>, 'records[i]', words)}
}`;
    const got = await runShader(device, code, input, count, count * words);
    for (let i = 0; i < count; i++) {
      for (const [field, f] of Object.entries(spec.fields)) {
        const at = i * words + f.at;
        expect(got[at], `record ${i} ${name}.${field}`).toBe(input[at]);
      }
    }
  });
});

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
    const got = await runShader(device, code, input, count / 64, count * 5);
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
