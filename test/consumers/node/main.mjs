// A plain Node ESM consumer of the packed tarball: no Vite, no TypeScript
// loader. It steps 10,000 particles 100 times on the adapter and on the CPU
// reference, and writes the initial state and both results for
// test/package.test.ts, which checks them against the carried float32 bound.
import { writeFileSync } from 'node:fs';
import { ParticleSystem } from 'sparkworks';
import { acquireDevice } from 'sparkworks/node';
import { CpuParticleSystem, FLOATS_PER_PARTICLE } from 'sparkworks/core';

const COUNT = 10_000;
const STEPS = 100;
const DT = 1 / 60;

/** Deterministic values in [-1, 1) from a 32-bit LCG (Numerical Recipes' constants). */
let seed = 12345;
const next = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 31 - 1;
};
const particles = Array.from({ length: COUNT }, (_, i) => ({
  position: [next() * 10, next() * 10, next() * 10],
  velocity: [next() * 5, next() * 5 + 5, next() * 5],
  acceleration: [0, -9.81, 0],
  // Every 97th particle is immovable: the step must leave it alone.
  inverseMass: i % 97 === 0 ? 0 : 0.5 + 0.5 * Math.abs(next()),
  damping: 0.9 + 0.1 * Math.abs(next()),
}));

const { device, adapterInfo } = await acquireDevice();
const gpu = await ParticleSystem.create(device, { capacity: COUNT });
const cpu = new CpuParticleSystem({ capacity: COUNT });
await gpu.writeParticles(0, particles);
await cpu.writeParticles(0, particles);
const initial = await gpu.readPacked();
await gpu.stepMany(DT, STEPS);
for (let step = 0; step < STEPS; step++) cpu.step(DT);
const gpuResult = await gpu.readPacked();
const cpuResult = await cpu.readPacked();

let largest = 0;
for (let i = 0; i < gpuResult.length; i++) largest = Math.max(largest, Math.abs(gpuResult[i] - cpuResult[i]));
const out = process.argv[2];
if (out) {
  /** @param {Float32Array} array */
  const bytes = (array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
  writeFileSync(
    out,
    JSON.stringify({
      count: COUNT,
      steps: STEPS,
      dt: DT,
      floatsPerParticle: FLOATS_PER_PARTICLE,
      initial: bytes(initial),
      gpu: bytes(gpuResult),
      cpu: bytes(cpuResult),
    }),
  );
}
console.log(`${adapterInfo.description}: ${COUNT} particles x ${STEPS} steps, largest |GPU - CPU| ${largest}`);
gpu.destroy();
device.destroy();
