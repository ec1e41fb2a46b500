/**
 * Bulk writes from typed arrays (writeAttributes, writePacked) store exactly
 * what writeParticles stores for the same particles, bit for bit, on both
 * backends; bad input is refused with the attribute, the particle, the value
 * and the rule, and changes nothing; and a device with WebGPU's default
 * limits refuses a capacity over them, saying how to raise them.
 *
 * No tolerance anywhere: a write does no arithmetic but float32 rounding of
 * the values given (and float32(1 / mass), computed on the host by every
 * path), so the backends must agree exactly.
 */
import { describe, expect, it } from 'vitest';
import type { ParticleSystemApi } from '../src/core/api';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { SparkworksInputError } from '../src/core/errors';
import { BYTES_PER_PARTICLE, FLOATS_PER_PARTICLE, attributeOffset } from '../src/core/layout';
import {
  FLOAT32_MIN_NORMAL,
  defaultRecord,
  isValidDamping,
  isValidInverseMass,
  isValidRadius,
  isFiniteFloat32,
  checkParticleArrays,
  prepareParticleArrays,
  type ParticleArrays,
  type ParticleInit,
} from '../src/core/particles';
import { WRITE_CHUNK } from '../src/gpu/shared/particleBuffer';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { freshAdapter, useDevice, withFreshDevice } from './support/gpu';
import { seededRandom } from './support/random';
import { mixedScene } from './support/scenes';
import { LARGE } from './support/tiers';

const gpu = useDevice();
const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);

/** Fails at the first float whose bits differ, naming the particle and the float in its record (fast on a million floats). */
function expectSameBits(actual: Float32Array, expected: Float32Array, what: string): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  const [a, e] = [bits(actual), bits(expected)];
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== e[i]) {
      const particle = Math.floor(i / FLOATS_PER_PARTICLE);
      expect(actual[i], `${what}: particle ${particle}, float ${i % FLOATS_PER_PARTICLE} of its record`).toBe(
        expected[i],
      );
      expect(a[i], `${what}: particle ${particle}, float ${i % FLOATS_PER_PARTICLE} (bits; -0 and NaNs)`).toBe(e[i]);
    }
  }
}
const FLOAT32_MAX = (2 - 2 ** -23) * 2 ** 127;

/** Particles as writeParticles takes them, with edge values: -0, subnormal positions, immovable, damping 0 and 1, radius 0. */
function scene(count: number, seed: number, massKind: 'mass' | 'inverseMass'): ParticleInit[] {
  const random = seededRandom(seed);
  const spread = (scale: number) => [0, 1, 2].map(() => (random() * 2 - 1) * scale);
  return Array.from({ length: count }, (_, i) => {
    const particle: ParticleInit = {
      position: i % 11 === 5 ? [-0, 1e-40, -FLOAT32_MAX] : spread(100),
      velocity: spread(5),
      acceleration: spread(10),
      damping: [0, 1, 0.995, random()][i % 4] as number,
      radius: i % 3 === 0 ? 0 : random(),
    };
    // float32 masses: a Float32Array holds float32(mass), whose inverse may differ from 1 / mass by an ulp.
    if (massKind === 'mass') particle.mass = Math.fround(0.1 + random() * 10);
    else particle.inverseMass = i % 7 === 3 ? 0 : random() * 4;
    return particle;
  });
}

/** The same particles as one array per attribute, in `make`'s array type. */
function toArrays(
  particles: readonly ParticleInit[],
  make: (values: number[]) => ArrayLike<number> = (v) => Float32Array.from(v),
): ParticleArrays {
  const gather = (pick: (p: ParticleInit) => ArrayLike<number> | number) =>
    make(
      particles.flatMap((p) => Array.from(typeof pick(p) === 'number' ? [pick(p) as number] : (pick(p) as number[]))),
    );
  const arrays: Record<string, ArrayLike<number>> = {
    position: gather((p) => p.position),
    velocity: gather((p) => p.velocity ?? [0, 0, 0]),
    acceleration: gather((p) => p.acceleration ?? [0, 0, 0]),
    damping: gather((p) => p.damping ?? 1),
    radius: gather((p) => p.radius ?? 0),
  };
  if (particles[0]?.mass !== undefined) arrays.mass = gather((p) => p.mass as number);
  else arrays.inverseMass = gather((p) => p.inverseMass ?? 1);
  return arrays as unknown as ParticleArrays;
}

const backends: [string, (capacity: number) => Promise<ParticleSystemApi>][] = [
  ['GPU', (capacity) => ParticleSystem.create(gpu.get().device, { capacity })],
  ['CPU reference', async (capacity) => new CpuParticleSystem({ capacity })],
];

describe.each(backends)('%s: bulk writes store what writeParticles stores', (_, make) => {
  // Past WRITE_CHUNK, so the GPU's chunked upload crosses a chunk boundary; from start 5 with slots
  // left over on both sides, so the untouched slots keep Cyclone's default particle.
  const count = WRITE_CHUNK + 1234;
  const capacity = count + 17;
  const start = 5;

  it.each(['inverseMass', 'mass'] as const)(
    'bit for bit, with %s, from Float32Arrays and as packed records',
    async (massKind) => {
      const particles = scene(count, 3, massKind);
      const [objects, arrays, packed] = await Promise.all([make(capacity), make(capacity), make(capacity)]);
      await objects.writeParticles(start, particles);
      await arrays.writeAttributes(start, toArrays(particles));
      const expected = await objects.readPacked();
      await packed.writePacked(
        start,
        expected.subarray(start * FLOATS_PER_PARTICLE, (start + count) * FLOATS_PER_PARTICLE),
      );
      expectSameBits(await arrays.readPacked(), expected, 'writeAttributes');
      expectSameBits(await packed.readPacked(), expected, 'writePacked');
      // The slots outside the write are Cyclone's default particle.
      const untouched = (await arrays.readPacked(capacity - 1, 1)).slice();
      expectSameBits(untouched, defaultRecord(), 'a slot outside the write');
      for (const s of [objects, arrays, packed]) s.destroy();
    },
  );

  it('from Float64Arrays and plain arrays: float32 rounding, as writeParticles rounds', async () => {
    const random = seededRandom(8);
    // Values that are not float32s, so rounding is exercised.
    const particles = Array.from({ length: 300 }, () => ({
      position: [random() * 1e3, Math.PI * random(), 1 / 3],
      velocity: [0.1, 0.2, 0.3],
      mass: 3 * random() + 0.01,
      damping: random(),
      radius: random() / 7,
    }));
    for (const array of [(v: number[]) => Float64Array.from(v), (v: number[]) => v]) {
      const [objects, arrays] = await Promise.all([make(300), make(300)]);
      await objects.writeParticles(0, particles);
      await arrays.writeAttributes(0, toArrays(particles, array));
      expectSameBits(await arrays.readPacked(), await objects.readPacked(), 'from Float64Array or array');
      objects.destroy();
      arrays.destroy();
    }
  });

  it('writes back a snapshot from read() (accumulated forces included), and only what it is given', async () => {
    const { particles, forces } = mixedScene(50, 4);
    const [source, copy] = await Promise.all([make(50), make(60)]);
    await source.writeParticles(0, particles);
    await source.addForces(0, forces);
    await copy.writeAttributes(10, await source.read());
    expectSameBits(await copy.readPacked(10, 50), await source.readPacked(), 'snapshot written back');
    // Attributes left out take the defaults, and the accumulator is cleared, as writeParticles does.
    await copy.writeAttributes(12, { position: [7, 8, 9] });
    await source.writeParticles(2, [{ position: [7, 8, 9] }]);
    expectSameBits(await copy.readPacked(12, 1), await source.readPacked(2, 1), 'defaults for attributes left out');
    source.destroy();
    copy.destroy();
  });

  it('is refused after destroy()', async () => {
    const s = await make(2);
    s.destroy();
    await expect(async () => s.writeAttributes(0, { position: [0, 0, 0] })).rejects.toThrow(/has been destroyed/);
    await expect(async () => s.writePacked(0, defaultRecord())).rejects.toThrow(/has been destroyed/);
  });

  it('writes nothing for empty arrays', async () => {
    const s = await make(4);
    const before = await s.readPacked();
    await s.writeAttributes(4, { position: new Float32Array(0) });
    await s.writePacked(4, new Float32Array(0));
    expectSameBits(await s.readPacked(), before, 'after empty writes');
    s.destroy();
  });
});

describe('GPU and CPU reference agree', () => {
  it('bit for bit after the same bulk writes, over a system with emitters (parked free slots)', async () => {
    const options = {
      capacity: 64,
      permanent: 8,
      emitters: [{ rate: 10, lifetime: [0, 1] as [number, number] }],
    };
    const g = await ParticleSystem.create(gpu.get().device, options);
    const c = new CpuParticleSystem(options);
    const particles = scene(8, 5, 'inverseMass');
    const source = new CpuParticleSystem({ capacity: 3 });
    source.writeParticles(0, particles.slice(5));
    const records = await source.readPacked();
    for (const s of [g, c] as ParticleSystemApi[]) {
      await s.writeAttributes(0, toArrays(particles.slice(0, 5)));
      await s.writePacked(5, records);
    }
    expectSameBits(await g.readPacked(), await c.readPacked(), 'GPU vs CPU reference');
    // Only the permanent slots take writes, as for writeParticles.
    await expect(g.writeAttributes(6, toArrays(particles.slice(0, 3)))).rejects.toThrow(
      /\[6, 9\) reaches past the 8 permanent/,
    );
    expect(() => c.writePacked(7, new Float32Array(2 * FLOATS_PER_PARTICLE))).toThrow(/\[7, 9\) reaches past/);
    g.destroy();
    c.destroy();
  });

  it('writes the defaults before the buffer is handed out (a fresh system read through system.buffer)', async () => {
    const { device } = gpu.get();
    const s = await ParticleSystem.create(device, { capacity: 3 });
    const staging = device.createBuffer({
      size: 3 * BYTES_PER_PARTICLE,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(s.buffer, 0, staging, 0, 3 * BYTES_PER_PARTICLE);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const seen = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    staging.destroy();
    const record = defaultRecord();
    expectSameBits(seen, new Float32Array([...record, ...record, ...record]), 'fresh system through system.buffer');
    s.destroy();
  });
});

/** A record with one float replaced, at float `at` of particle 1 of two. */
function recordsWith(at: number, value: number): Float32Array {
  const records = new Float32Array([...defaultRecord(), ...defaultRecord()]);
  records[FLOATS_PER_PARTICLE + at] = value;
  return records;
}
const F = FLOATS_PER_PARTICLE;
const at = (name: Parameters<typeof attributeOffset>[0], component = 0) => attributeOffset(name) + component;

type Case = [description: string, call: (s: ParticleSystemApi) => unknown, message: RegExp];
const xyz = (...values: number[]) => Float32Array.from(values);

const refusals: Case[] = [
  [
    'position NaN',
    (s) => s.writeAttributes(1, { position: xyz(0, 0, 0, 1, 2, 3, 4, Number.NaN, 6) }),
    /^position\[7\] = NaN is invalid: must be finite as a float32 .*\(particle 2 of this write, slot 3, component y\)$/,
  ],
  [
    'velocity Infinity',
    (s) => s.writeAttributes(0, { position: xyz(0, 0, 0), velocity: xyz(Infinity, 0, 0) }),
    /velocity\[0\] = Infinity .*finite.*particle 0 .*component x/,
  ],
  [
    'acceleration over float32 (Float64Array)',
    (s) => s.writeAttributes(0, { position: xyz(0, 0, 0), acceleration: Float64Array.of(0, 0, 1e39) }),
    /acceleration\[2\] = 1e\+39 .*float32/,
  ],
  [
    'position a string (plain array)',
    (s) => s.writeAttributes(0, { position: [0, '1', 2] as never }),
    /position\[1\] = "1"/,
  ],
  [
    'inverseMass < 0',
    (s) => s.writeAttributes(0, { position: xyz(0, 0, 0, 1, 1, 1), inverseMass: xyz(1, -1) }),
    /inverseMass\[1\] = -1 .*0 or a normal float32.*particle 1 of this write, slot 1\)/,
  ],
  [
    'inverseMass NaN',
    (s) => s.writeAttributes(0, { position: xyz(0, 0, 0), inverseMass: xyz(NaN) }),
    /inverseMass\[0\] = NaN/,
  ],
  [
    'inverseMass subnormal',
    (s) => s.writeAttributes(0, { position: xyz(0, 0, 0), inverseMass: xyz(1e-40) }),
    /inverseMass\[0\] = 9.99994610111476e-41 .*normal float32/,
  ],
  ['mass 0', (s) => s.writeAttributes(0, { position: xyz(0, 0, 0), mass: xyz(0) }), /mass\[0\] = 0 .*> 0/],
  [
    'mass and inverseMass',
    (s) => s.writeAttributes(0, { position: xyz(0, 0, 0), mass: xyz(1), inverseMass: xyz(1) }),
    /mass = \[1\] .*not both/,
  ],
  [
    'damping 1.5',
    (s) => s.writeAttributes(0, { position: xyz(0, 0, 0), damping: xyz(1.5) }),
    /damping\[0\] = 1.5 .*\[0, 1\]/,
  ],
  ['damping NaN', (s) => s.writeAttributes(0, { position: xyz(0, 0, 0), damping: [NaN] }), /damping\[0\] = NaN/],
  ['radius < 0', (s) => s.writeAttributes(0, { position: xyz(0, 0, 0), radius: xyz(-1) }), /radius\[0\] = -1 .*>= 0/],
  [
    'forceAccum NaN',
    (s) => s.writeAttributes(0, { position: xyz(0, 0, 0), forceAccum: xyz(0, NaN, 0) }),
    /forceAccum\[1\] = NaN/,
  ],
  [
    'position not xyz',
    (s) => s.writeAttributes(0, { position: new Float32Array(7) }),
    /position.length = 7 is invalid: must be a multiple of 3/,
  ],
  [
    'velocity for fewer particles than positions',
    (s) => s.writeAttributes(0, { position: new Float32Array(9), velocity: new Float32Array(6) }),
    /velocity.length = 6 is invalid: gives 2 particles, but position.length = 9 gives 3/,
  ],
  [
    'damping for fewer particles than positions',
    (s) => s.writeAttributes(0, { position: new Float32Array(9), damping: new Float32Array(2) }),
    /damping.length = 2 is invalid: gives 2 particles, but position.length = 9 gives 3/,
  ],
  [
    'count that disagrees',
    (s) => s.writeAttributes(0, { position: new Float32Array(9), count: 4 }),
    /count = 4 .*position.length = 9 gives 3/,
  ],
  [
    'a misspelt attribute',
    (s) => s.writeAttributes(0, { position: xyz(0, 0, 0), positions: [] } as never),
    /attributes.positions .*unknown field/,
  ],
  [
    'no position',
    (s) => s.writeAttributes(0, { velocity: xyz(0, 0, 0) } as never),
    /position = nothing is invalid: must be given/,
  ],
  ['attributes null', (s) => s.writeAttributes(0, null as never), /attributes = null .*object/],
  ['attribute not an array', (s) => s.writeAttributes(0, { position: 'abc' } as never), /position = "abc" .*array/],
  [
    'range past capacity',
    (s) => s.writeAttributes(9, { position: new Float32Array(6) }),
    /\[9, 11\) exceeds the capacity of 10/,
  ],
  ['negative start', (s) => s.writeAttributes(-1, { position: new Float32Array(3) }), /start = -1/],
  [
    'packed: not a Float32Array',
    (s) => s.writePacked(0, new Float64Array(F) as never),
    /records = \[.*must be a Float32Array of packed records \(16 floats a particle/,
  ],
  [
    'packed: not whole records',
    (s) => s.writePacked(0, new Float32Array(F + 1)),
    /records.length = 17 is invalid: must be a multiple of 16/,
  ],
  [
    'packed: forceAccum NaN',
    (s) => s.writePacked(0, recordsWith(at('forceAccum', 1), NaN)),
    new RegExp(
      `records\\[${F + at('forceAccum', 1)}\\] = NaN .*finite.*\\(particle 1 of this write, slot 1, forceAccum.y\\)`,
    ),
  ],
  [
    'packed: spare Infinity',
    (s) => s.writePacked(0, recordsWith(F - 1, Infinity)),
    /records\[31\] = Infinity .*spare\)/,
  ],
  [
    'packed: inverseMass < 0',
    (s) => s.writePacked(3, recordsWith(at('inverseMass'), -2)),
    new RegExp(`records\\[${F + at('inverseMass')}\\] = -2 .*0 or a normal float32 .*slot 4, inverseMass\\)`),
  ],
  [
    'packed: damping 2',
    (s) => s.writePacked(0, recordsWith(at('damping'), 2)),
    /records\[\d+\] = 2 .*\[0, 1\].*damping\)/,
  ],
  [
    'packed: radius -0.5',
    (s) => s.writePacked(0, recordsWith(at('radius'), -0.5)),
    /records\[\d+\] = -0.5 .*>= 0.*radius\)/,
  ],
  ['packed: past capacity', (s) => s.writePacked(9, new Float32Array(2 * F)), /\[9, 11\) exceeds the capacity of 10/],
];

describe.each(backends)('%s: bad bulk input', (_, make) => {
  const CAPACITY = 10;
  it.each(refusals)('refuses %s and changes nothing', async (_description, call, message) => {
    const s = await make(CAPACITY);
    const { particles, forces } = mixedScene(CAPACITY, 9);
    await s.writeParticles(0, particles);
    await s.addForces(0, forces);
    const before = await s.readPacked();
    const attempt = async () => call(s);
    await expect(attempt()).rejects.toThrow(SparkworksInputError);
    await expect(attempt()).rejects.toThrow(message);
    expectSameBits(await s.readPacked(), before, 'after the refusal');
    s.destroy();
  });

  it('refuses a bad value in the last particle of a write larger than a chunk, having written nothing', async () => {
    const count = WRITE_CHUNK + 10;
    const s = await make(count);
    const before = await s.readPacked();
    const position = new Float32Array(3 * count).fill(1);
    position[3 * count - 1] = NaN;
    await expect((async () => s.writeAttributes(0, { position }))()).rejects.toThrow(
      new RegExp(`position\\[${3 * count - 1}\\] = NaN .*particle ${count - 1} `),
    );
    const records = new Float32Array(count * F);
    records[count * F - 1] = NaN;
    await expect((async () => s.writePacked(0, records))()).rejects.toThrow(/spare\)/);
    expectSameBits(await s.readPacked(), before, 'after the refusals');
    s.destroy();
  });
});

describe('the fast loops apply writeParticles’ predicates', () => {
  it('finds a bad value anywhere in a block of the running sums, and names the first', () => {
    const count = 5000;
    const s = new CpuParticleSystem({ capacity: count });
    for (const index of [0, 3, 4095, 4096, 4099, 8191, 3 * count - 1]) {
      const position = new Float32Array(3 * count).fill(-0);
      position[index] = -Infinity;
      position[3 * count - 1] = NaN; // a later bad value is not the one named, unless it is the first
      const first = index === 3 * count - 1 ? 'NaN' : '-Infinity';
      expect(() => s.writeAttributes(0, { position }), `index ${index}`).toThrow(
        new RegExp(`^position\\[${index}\\] = ${first} is invalid`),
      );
    }
  });

  it('writes every float of each record, whatever is left out', () => {
    for (const arrays of [
      { position: [1, 2, 3] },
      toArrays(scene(1, 2, 'mass')),
      toArrays(scene(1, 2, 'inverseMass')),
    ]) {
      const prepared = prepareParticleArrays(checkParticleArrays(arrays), 0);
      const out = new Float32Array(3 * FLOATS_PER_PARTICLE).fill(NaN);
      prepared.pack(out, FLOATS_PER_PARTICLE, 0, 1);
      expect(Array.from(out.subarray(FLOATS_PER_PARTICLE, 2 * FLOATS_PER_PARTICLE)).filter(Number.isNaN)).toEqual([]);
      expect(out.filter(Number.isNaN).length, 'nothing written outside the record').toBe(2 * FLOATS_PER_PARTICLE);
    }
  });

  // Float32Arrays are checked with plain comparisons, other arrays with the predicates: on every
  // float32 edge value the two must accept and refuse alike (as must writeParticles).
  const edges = [
    0,
    -0,
    1,
    -1,
    0.5,
    1 + 2 ** -23,
    1 - 2 ** -24,
    FLOAT32_MIN_NORMAL,
    FLOAT32_MIN_NORMAL / 2,
    2 ** -149,
    FLOAT32_MAX,
    -FLOAT32_MAX,
    Infinity,
    -Infinity,
    NaN,
  ];
  const fields = [
    ['position', isFiniteFloat32],
    ['inverseMass', isValidInverseMass],
    ['damping', isValidDamping],
    ['radius', isValidRadius],
  ] as const;
  it.each(fields)('%s', (field, predicate) => {
    const s = new CpuParticleSystem({ capacity: 1 });
    for (const value of edges) {
      const accepted = (write: () => void) => {
        try {
          write();
          return true;
        } catch (error) {
          expect(error).toBeInstanceOf(SparkworksInputError);
          return false;
        }
      };
      const vector = field === 'position' ? [value, 0, 0] : [value];
      const arrays = (values: ArrayLike<number>) =>
        (field === 'position' ? { position: values } : { position: [0, 0, 0], [field]: values }) as ParticleArrays;
      const record = defaultRecord();
      record[attributeOffset(field)] = value;
      const expected = predicate(value);
      expect(
        [
          accepted(() => s.writeAttributes(0, arrays(Float32Array.from(vector)))),
          accepted(() => s.writeAttributes(0, arrays(vector))),
          accepted(() => s.writePacked(0, record)),
        ],
        `${field} = ${value}: Float32Array, plain array, packed record`,
      ).toEqual([expected, expected, expected]);
    }
  });
});

// 2^21 + 1 particles and more on WebGPU's default limits: the size is the point.
describe('bring your own device: a capacity its limits cannot hold', LARGE, () => {
  it('holds more than one binding in chunks; past what its storage bindings allow, names the limits and requiredLimits', async () => {
    // adapter.requestDevice() with no requiredLimits: WebGPU's defaults, 128 MiB a storage binding, 256 MiB
    // a buffer, 8 storage buffers a shader stage. One binding holds 2^21 particles; a system without emitters
    // or contacts binds up to 3 other storage buffers a pass, leaving 5 chunks of 2^21.
    await withFreshDevice(gpu, {}, async (device) => {
      const binding = device.limits.maxStorageBufferBindingSize;
      expect(binding).toBe(128 * 2 ** 20);
      expect(device.limits.maxStorageBuffersPerShaderStage).toBe(8);
      const oneBinding = Math.floor(binding / BYTES_PER_PARTICLE);
      // One particle more than a binding holds: two chunks, the last slot written and read back.
      const s = await ParticleSystem.create(device, { capacity: oneBinding + 1 });
      try {
        expect(s.particleStore.buffers.length).toBe(2);
        expectSameBits(await s.readPacked(oneBinding, 1), defaultRecord(), 'last slot');
        await s.writeAttributes(oneBinding - 1, { position: new Float32Array([1, 2, 3, 4, 5, 6]) });
        await s.step(0.01);
        const across = await s.read(oneBinding - 1, 2);
        expect(Array.from(across.position)).toEqual([1, 2, 3, 4, 5, 6]);
      } finally {
        s.destroy();
      }
      const largest = 5 * oneBinding;
      const error = await ParticleSystem.create(device, { capacity: largest + 1 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SparkworksInputError);
      const message = (error as Error).message;
      expect(message).toContain(`capacity = ${largest + 1} is invalid: exceeds ${largest} particles`);
      expect(message).toContain(`maxStorageBufferBindingSize of ${binding} bytes`);
      expect(message).toContain(`${oneBinding} particles a storage binding at ${BYTES_PER_PARTICLE} bytes a particle`);
      expect(message).toContain(
        'in at most 5 chunks: its maxStorageBuffersPerShaderStage of 8 less the 3 storage buffers',
      );
      expect(message).toContain(
        'requiredLimits: { maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize, ' +
          'maxBufferSize: adapter.limits.maxBufferSize, maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage }',
      );
      expect(message).toContain("the adapter's limits are the most a device can be given");
      // A system with emitters chunks as a plain one: the lifecycle's passes bind only the chunk they run for.
      const emitting = await ParticleSystem.create(device, {
        capacity: oneBinding + 1,
        emitters: [{ rate: 600, lifetime: [1, 1] as [number, number] }],
      });
      try {
        expect(emitting.particleStore.buffers.length).toBe(2);
        await emitting.stepMany(1 / 60, 3);
        // 600 a second for three steps of float32(1/60) (a hair above 1/60): 10 a step, all alive after 0.05 s.
        const stats = await emitting.readStats();
        expect([stats.emitted, stats.live]).toEqual([30, 30]);
      } finally {
        emitting.destroy();
      }
      // Its 32-byte life records stay in one binding: 4,194,304 slots on this device, refused past that.
      await expect(
        ParticleSystem.create(device, {
          capacity: 2 * oneBinding + 1,
          emitters: [{ rate: 10, lifetime: [1, 1] as [number, number] }],
        }),
      ).rejects.toThrow(/exceeds 4194304 particles.*emitters' life records at 32 bytes a slot/);
      // The contact resolver binds up to 7 beside the particles in a pass: one chunk, one binding's worth.
      await expect(
        ParticleSystem.create(device, { capacity: oneBinding + 1, collisions: { particleCollisions: true } }),
      ).rejects.toThrow(
        /exceeds 2097152 particles.*in at most 1 chunk: its maxStorageBuffersPerShaderStage of 8 less the 7/,
      );
    });
  });

  it('takes that capacity on a device requested as the message says, where the adapter allows it', async () => {
    const adapter = await freshAdapter(gpu);
    const capacity = Math.floor((128 * 2 ** 20) / BYTES_PER_PARTICLE) + 1;
    const limits = adapter.limits;
    // The adapter's own limits are the most a device can be given; SwiftShader and real GPUs give more than 128 MiB.
    expect(Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize)).toBeGreaterThanOrEqual(
      capacity * BYTES_PER_PARTICLE,
    );
    await withFreshDevice(
      gpu,
      {
        requiredLimits: {
          maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
          maxBufferSize: limits.maxBufferSize,
        },
      },
      async (device) => {
        const s = await ParticleSystem.create(device, { capacity });
        await s.writeAttributes(capacity - 1, { position: [1, 2, 3] });
        expect(Array.from((await s.read(capacity - 1, 1)).position)).toEqual([1, 2, 3]);
        s.destroy();
      },
    );
  });
});
