/**
 * The WGSL struct and accessors generated from src/core/layout.ts agree with
 * the TypeScript offsets: a shader reads every attribute through the
 * generated getters and writes it through the generated setters, and the host
 * checks both against floatIndex() on the packed array.
 */
import { describe, expect, it } from 'vitest';
import {
  ATTRIBUTES,
  ATTRIBUTE_NAMES,
  BYTES_PER_PARTICLE,
  FLOATS_PER_PARTICLE,
  floatIndex,
  wgslParticleStruct,
} from '../src/core/layout';
import { runKernel } from './support/runKernel';
import { useDevice } from './support/gpu';

const gpu = useDevice();
const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const WIDTH = 4; // each attribute is copied out as a vec4f, unused components 0

describe('particle layout', () => {
  it('fits Cyclone’s state in 64 bytes a particle, every attribute in its own slots', () => {
    expect(BYTES_PER_PARTICLE).toBeLessThanOrEqual(64);
    const used = new Set<number>();
    for (const name of ATTRIBUTE_NAMES) {
      for (let c = 0; c < ATTRIBUTES[name].size; c++) {
        const at = floatIndex(0, name, c);
        expect(used.has(at), `${name}[${c}] overlaps another attribute`).toBe(false);
        expect(at).toBeLessThan(FLOATS_PER_PARTICLE);
        used.add(at);
      }
    }
  });

  it('WGSL getters and setters address the same floats as the TypeScript views', async () => {
    const { device } = gpu.get();
    const count = 3; // more than one record, so the stride is checked too
    const getters = ATTRIBUTE_NAMES.map((name, k) => {
      const size: number = ATTRIBUTES[name].size;
      const widen =
        size === 4
          ? 'v'
          : size === 1
            ? 'vec4f(v, 0.0, 0.0, 0.0)'
            : `vec4f(v, ${'0.0, '.repeat(4 - size).slice(0, -2)})`;
      return `{ let v = get${capitalized(name)}(p); out[i * ${ATTRIBUTE_NAMES.length}u + ${k}u] = ${widen}; }`;
    });
    // Setters write -(value + 1) into each attribute of particle i of the copy.
    const setters = ATTRIBUTE_NAMES.map((name) => `set${capitalized(name)}(&q, -(get${capitalized(name)}(p) + 1.0));`);
    const code = `${wgslParticleStruct()}
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  let p = particles[i];
  ${getters.join('\n  ')}
  var q = p;
  ${setters.join('\n  ')}
  particles[i] = q;
}`;
    const input = Float32Array.from({ length: count * FLOATS_PER_PARTICLE }, (_, k) => k + 0.5);
    const outBytes = count * ATTRIBUTE_NAMES.length * WIDTH * 4;
    const [stateWords, outWords] = await runKernel(device, code, [input, { bytes: outBytes }], count);
    const written = new Float32Array((stateWords as Uint32Array).buffer);
    const read = new Float32Array((outWords as Uint32Array).buffer);
    for (let i = 0; i < count; i++) {
      ATTRIBUTE_NAMES.forEach((name, k) => {
        for (let c = 0; c < ATTRIBUTES[name].size; c++) {
          const at = floatIndex(i, name, c);
          const where = `particle ${i} ${name}[${c}]`;
          expect(read[(i * ATTRIBUTE_NAMES.length + k) * WIDTH + c], `getter of ${where}`).toBe(input[at]);
          expect(written[at], `setter of ${where}`).toBe(-((input[at] as number) + 1));
        }
      });
    }
  });
});
