/**
 * `npm run bench:bulk [-- --particles N --repeats N --verbose]`: what creating and
 * filling a system costs (default 2^20 particles), against the plain upload
 * of the same bytes. Each case is timed from its first call until
 * `onSubmittedWorkDone` resolves; the input arrays exist before the clock
 * starts (they are the caller's data); the median of `repeats` runs after
 * one untimed warm-up run of every case (the first create compiles the
 * pipelines, which Dawn then caches for the device).
 *
 *   (i)   plain: createBuffer + queue.writeBuffer of particles x 64 bytes
 *   (ii)  ParticleSystem.create + writeAttributes (one Float32Array per attribute)
 *   (iii) ParticleSystem.create + writePacked (records in the GPU layout)
 *   (iv)  ParticleSystem.create + writeParticles (one object per particle)
 *
 * and, to say where the time goes, the parts: create alone, each write into
 * a system that exists, and the host-side checks and packing alone. The
 * issue's goal: (ii) and (iii) at most about twice (i). No timing is
 * asserted anywhere: this only prints.
 */
import os from 'node:os';
import Table from 'cli-table3';
import { BYTES_PER_PARTICLE, FLOATS_PER_PARTICLE } from '../src/core/layout';
import {
  checkParticleArrays,
  prepareParticleArrays,
  prepareRecords,
  type ParticleArrays,
  type ParticleInit,
} from '../src/core/particles';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { WRITE_CHUNK } from '../src/gpu/shared/particleBuffer';
import { acquireDevice } from '../src/node/device';
import { positiveIntegerFlag } from './flags';

const flag = (name: string, fallback: number) => positiveIntegerFlag('bench:bulk', name, fallback);

const particles = flag('particles', 1 << 20);
const repeats = flag('repeats', 7);
/** `--verbose`: every run's time, not only the median and the fastest. */
const verbose = process.argv.includes('--verbose');
const bytes = particles * BYTES_PER_PARTICLE;

const { device, adapterInfo } = await acquireDevice();
const queue = device.queue;

// The caller's data, made before any clock starts.
const n = particles;
const attributes = {
  position: new Float32Array(3 * n),
  velocity: new Float32Array(3 * n),
  acceleration: new Float32Array(3 * n),
  inverseMass: new Float32Array(n),
  damping: new Float32Array(n),
  radius: new Float32Array(n),
} satisfies ParticleArrays;
for (let i = 0; i < n; i++) {
  attributes.position.set([i % 1024, Math.floor(i / 1024), 0.5], 3 * i);
  attributes.velocity.set([0, 1 + (i % 7) / 7, 0], 3 * i);
  attributes.acceleration.set([0, -9.81, 0], 3 * i);
  attributes.inverseMass[i] = 1 / (1 + (i % 5));
  attributes.damping[i] = 0.99;
  attributes.radius[i] = 0.01 * (i % 3);
}
const setup = await ParticleSystem.create(device, { capacity: n });
await setup.writeAttributes(0, attributes);
const records = await setup.readPacked();
setup.destroy();
const plainData = new Float32Array(n * FLOATS_PER_PARTICLE).fill(1);
let objects: ParticleInit[] | null = null;
function particleObjects(): ParticleInit[] {
  objects ??= Array.from({ length: n }, (_, i) => ({
    position: Array.from(attributes.position.subarray(3 * i, 3 * i + 3)),
    velocity: Array.from(attributes.velocity.subarray(3 * i, 3 * i + 3)),
    acceleration: Array.from(attributes.acceleration.subarray(3 * i, 3 * i + 3)),
    inverseMass: attributes.inverseMass[i] as number,
    damping: attributes.damping[i] as number,
    radius: attributes.radius[i] as number,
  }));
  return objects;
}

interface Case {
  label: string;
  /** Untimed preparation before each run (a system to write into), and what the run is given. */
  before?: () => Promise<ParticleSystem | null>;
  run: (system: ParticleSystem | null) => Promise<ParticleSystem | GPUBuffer | null | void>;
}

async function createAndWrite(write: (system: ParticleSystem) => Promise<void>): Promise<ParticleSystem> {
  const system = await ParticleSystem.create(device, { capacity: n });
  await write(system);
  await queue.onSubmittedWorkDone();
  return system;
}

const existing = () => ParticleSystem.create(device, { capacity: n });

/** The case of `write` alone, into a system made before the clock starts. */
function writeAlone(label: string, write: (system: ParticleSystem) => Promise<void>): Case {
  return {
    label,
    before: existing,
    run: async (system) => {
      if (system) await write(system);
      await queue.onSubmittedWorkDone();
      return system;
    },
  };
}

const cases: Case[] = [
  {
    label: '(i) plain: createBuffer + writeBuffer',
    run: async () => {
      const buffer = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
      queue.writeBuffer(buffer, 0, plainData);
      await queue.onSubmittedWorkDone();
      return buffer;
    },
  },
  { label: '(ii) create + writeAttributes', run: () => createAndWrite((s) => s.writeAttributes(0, attributes)) },
  { label: '(iii) create + writePacked', run: () => createAndWrite((s) => s.writePacked(0, records)) },
  {
    label: 'writeBuffer alone (into an existing buffer)',
    run: async () => {
      const buffer = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
      await queue.onSubmittedWorkDone();
      const started = performance.now();
      queue.writeBuffer(buffer, 0, plainData);
      await queue.onSubmittedWorkDone();
      lastOwnTime = performance.now() - started;
      return buffer;
    },
  },
  {
    label: 'create alone (defaults not yet written)',
    run: async () => {
      const system = await ParticleSystem.create(device, { capacity: n });
      await queue.onSubmittedWorkDone();
      return system;
    },
  },
  {
    label: 'create + defaults written (no fill)',
    run: async () => {
      const system = await ParticleSystem.create(device, { capacity: n });
      await system.readPacked(0, 1); // any use writes every slot's default record first
      return system;
    },
  },
  writeAlone('writeAttributes alone', (s) => s.writeAttributes(0, attributes)),
  writeAlone('writePacked alone', (s) => s.writePacked(0, records)),
  {
    label: 'host: check attributes (no GPU)',
    run: async () => {
      prepareParticleArrays(checkParticleArrays(attributes), 0);
    },
  },
  {
    label: 'host: check + pack attributes (no GPU)',
    run: async () => {
      const prepared = prepareParticleArrays(checkParticleArrays(attributes), 0);
      const chunk = new Float32Array(Math.min(n, WRITE_CHUNK) * FLOATS_PER_PARTICLE);
      for (let first = 0; first < n; first += WRITE_CHUNK) {
        prepared.pack(chunk, 0, first, Math.min(WRITE_CHUNK, n - first));
      }
    },
  },
  {
    label: 'host: check records (no GPU)',
    run: async () => {
      prepareRecords(records, 0);
    },
  },
  // Last: its million objects, alive until the end, would slow every later case's garbage collections.
  {
    label: '(iv) create + writeParticles (objects)',
    run: () => createAndWrite((s) => s.writeParticles(0, particleObjects())),
  },
];

/** Set by a case that times only part of its run. */
let lastOwnTime: number | null = null;

async function timeOnce(c: Case): Promise<number> {
  const given = c.before ? await c.before() : null;
  await queue.onSubmittedWorkDone();
  lastOwnTime = null;
  const started = performance.now();
  const made = await c.run(given);
  const elapsed = lastOwnTime ?? performance.now() - started;
  if (made) made.destroy();
  if (given && given !== made) given.destroy();
  return elapsed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const results: { label: string; median: number; min: number; first: number }[] = [];
for (const c of cases) {
  const first = await timeOnce(c); // warm-up: pipelines compiled (the first create), the objects of (iv) built
  const runs: number[] = [];
  for (let r = 0; r < repeats; r++) runs.push(await timeOnce(c));
  results.push({ label: c.label, median: median(runs), min: Math.min(...runs), first });
  if (verbose) process.stderr.write(`\n${c.label}: ${runs.map((ms) => ms.toFixed(0)).join(' ')} ms`);
  process.stderr.write('.');
}
process.stderr.write('\n');

const plain = (results[0] as { median: number }).median;
const table = new Table({ head: ['case', 'median ms', 'min ms', 'x (i)', 'first run ms'] });
for (const r of results) {
  table.push([r.label, r.median.toFixed(1), r.min.toFixed(1), (r.median / plain).toFixed(2), r.first.toFixed(0)]);
}
const ratio = (label: string) =>
  ((results.find((r) => r.label.startsWith(label)) as { median: number }).median / plain).toFixed(2);
const lines = [
  `bench:bulk: ${particles} particles (${(bytes / 2 ** 20).toFixed(0)} MiB of state), median of ${repeats} runs`,
  `adapter: ${adapterInfo.description} (${adapterInfo.source}); ${os.cpus().length} CPU cores`,
  table.toString(),
  `(ii)/(i) = ${ratio('(ii)')}  (iii)/(i) = ${ratio('(iii)')}  (iv)/(i) = ${ratio('(iv)')}  (goal: (ii) and (iii) at most about 2)`,
  '',
];
process.stdout.write(lines.join('\n'));
device.destroy();
