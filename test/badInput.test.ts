/**
 * Bad input is refused with an error naming the value and the limit, and the
 * state read back afterwards is unchanged bit for bit, on both backends.
 */
import { describe, expect, it } from 'vitest';
import type { ParticleSystemApi } from '../src/core/api';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { SparkworksInputError } from '../src/core/errors';
import { BYTES_PER_PARTICLE } from '../src/core/layout';
import type { ParticleInit } from '../src/core/particles';
import { ParticleBuffer, STORAGE_BESIDE_PARTICLES } from '../src/gpu/shared/particleBuffer';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { useDevice } from './support/gpu';
import { mixedScene } from './support/scenes';

const gpu = useDevice();
const CAPACITY = 10;
const good: ParticleInit = { position: [1, 2, 3] };

type Case = [description: string, call: (s: ParticleSystemApi) => unknown, message: RegExp];

const cases: Case[] = [
  ['dt = 0', (s) => s.step(0), /dt = 0 .*finite and > 0/],
  ['dt < 0', (s) => s.step(-0.01), /dt = -0.01 .*> 0/],
  ['dt NaN', (s) => s.step(Number.NaN), /dt = NaN/],
  ['dt that is 0 as a float32', (s) => s.step(1e-50), /dt = 1e-50 .*float32/],
  // A subnormal float32: SwiftShader (and other adapters) flush it to 0, so the backends would disagree.
  ['dt subnormal as a float32', (s) => s.step(1e-45), /dt = 1e-45 .*smallest normal float32/],
  // Not bare TypeErrors (issue 17, item 8): every misuse names the value.
  ['particles null', (s) => s.writeParticles(0, null as never), /particles = null .*array of particles/],
  ['field named constructor', (s) => s.setField('constructor' as never, 0, [1]), /field = "constructor" .*one of/],
  ['field values null', (s) => s.setField('velocity', 0, null as never), /values = null .*array/],
  ['forces null', (s) => s.addForces(0, null as never), /forces = null .*array/],
  ['dt Infinity', (s) => s.stepMany(Number.POSITIVE_INFINITY, 3), /dt = Infinity/],
  ['steps 1.5', (s) => s.stepMany(0.01, 1.5), /steps = 1.5 .*integer/],
  ['mass 0', (s) => s.writeParticles(0, [good, { ...good, mass: 0 }]), /particles\[1\]\.mass = 0 .*> 0/],
  ['mass < 0', (s) => s.writeParticles(0, [{ ...good, mass: -2 }]), /particles\[0\]\.mass = -2/],
  ['mass NaN', (s) => s.writeParticles(0, [{ ...good, mass: Number.NaN }]), /mass = NaN/],
  ['mass and inverseMass', (s) => s.writeParticles(0, [{ ...good, mass: 2, inverseMass: 0.5 }]), /not both/],
  [
    'inverseMass < 0',
    (s) => s.writeParticles(0, [{ ...good, inverseMass: -1 }]),
    /inverseMass = -1 .*0 or a normal float32/,
  ],
  ['damping > 1', (s) => s.writeParticles(0, [{ ...good, damping: 1.5 }]), /damping = 1.5 .*\[0, 1\]/],
  ['damping < 0', (s) => s.writeParticles(0, [{ ...good, damping: -0.1 }]), /damping = -0.1/],
  ['damping NaN', (s) => s.writeParticles(0, [{ ...good, damping: Number.NaN }]), /damping = NaN/],
  ['position NaN', (s) => s.writeParticles(0, [{ position: [0, Number.NaN, 0] }]), /position\[1\] = NaN .*finite/],
  ['position of 2', (s) => s.writeParticles(0, [{ position: [0, 0] }]), /position = \[0,0\] .*3 finite/],
  [
    'velocity Infinity',
    (s) => s.writeParticles(0, [{ ...good, velocity: [Infinity, 0, 0] }]),
    /velocity\[0\] = Infinity/,
  ],
  ['range past capacity', (s) => s.writeParticles(CAPACITY - 1, [good, good]), /\[9, 11\) exceeds the capacity of 10/],
  ['negative start', (s) => s.writeParticles(-1, [good]), /start = -1/],
  ['setField mass 0', (s) => s.setField('mass', 0, [1, 0]), /mass\[1\] = 0/],
  ['setField damping 2', (s) => s.setField('damping', 0, [2]), /damping\[0\] = 2/],
  ['setField position NaN', (s) => s.setField('position', 0, [0, 0, Number.NaN]), /position\[2\] = NaN/],
  [
    'setField past capacity',
    (s) => s.setField('velocity', 8, new Float32Array(9)),
    /\[8, 11\) exceeds the capacity of 10/,
  ],
  ['force NaN', (s) => s.addForces(0, [1, Number.NaN, 0]), /forces\[1\] = NaN/],
  ['force -Infinity', (s) => s.addForces(0, [1, 0, -Infinity]), /forces\[2\] = -Infinity/],
  ['forces not xyz', (s) => s.addForces(0, [1, 2]), /forces.length = 2 .*multiple of 3/],
  ['forces past capacity', (s) => s.addForces(9, [1, 2, 3, 4, 5, 6]), /\[9, 11\) exceeds/],
];

const backends: [string, () => Promise<ParticleSystemApi>][] = [
  ['GPU', () => ParticleSystem.create(gpu.get().device, { capacity: CAPACITY })],
  ['CPU reference', async () => new CpuParticleSystem({ capacity: CAPACITY })],
];

describe.each(backends)('%s', (_, make) => {
  it.each(cases)('refuses %s and changes nothing', async (_description, call, message) => {
    const s = await make();
    const scene = mixedScene(CAPACITY, 9);
    await s.writeParticles(0, scene.particles);
    await s.addForces(0, scene.forces);
    const before = await s.readPacked();
    // The error may be thrown at once or by the returned promise.
    const attempt = async () => call(s);
    await expect(attempt()).rejects.toThrow(SparkworksInputError);
    await expect(attempt()).rejects.toThrow(message);
    const after = await s.readPacked();
    expect(new Uint32Array(after.buffer)).toEqual(new Uint32Array(before.buffer));
    s.destroy();
  });

  it('refuses unknown variants', async () => {
    const options = { capacity: 4, integrator: 'verlet' as never };
    await expect(
      (async () => (_ === 'GPU' ? ParticleSystem.create(gpu.get().device, options) : new CpuParticleSystem(options)))(),
    ).rejects.toThrow(/integrator = "verlet" is invalid: must be one of explicit, semi-implicit/);
  });
});

describe('capacity', () => {
  it('refuses a capacity the device cannot hold, naming the limit', async () => {
    const { device } = gpu.get();
    // One binding's worth of particles in each chunk a pass can bind beside its own storage buffers
    // (3 for a system without emitters or contacts): see src/gpu/shared/particleBuffer.ts.
    const perBinding = Math.floor(
      Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize) / BYTES_PER_PARTICLE,
    );
    const chunks = device.limits.maxStorageBuffersPerShaderStage - STORAGE_BESIDE_PARTICLES.step;
    const max = ParticleBuffer.maxParticles(device, STORAGE_BESIDE_PARTICLES.step);
    expect(max).toBe(Math.max(perBinding, chunks * 2 ** Math.floor(Math.log2(perBinding))));
    await expect(ParticleSystem.create(device, { capacity: max + 1 })).rejects.toThrow(
      new RegExp(`capacity = ${max + 1} .*exceeds ${max} particles.*maxStorageBuffersPerShaderStage`),
    );
    await expect(ParticleSystem.create(device, { capacity: 0 })).rejects.toThrow(/capacity = 0 .*>= 1/);
    await expect(ParticleSystem.create(device, { capacity: 2.5 })).rejects.toThrow(/capacity = 2.5/);
  });
});
