/**
 * Bad force parameters are refused with an error naming the field, the value
 * and the rule, and nothing changes: the registry and the links stay as they
 * were, and the state after stepping is bit for bit that of a system that
 * never saw the call. Both backends.
 */
import { describe, expect, it } from 'vitest';
import type { ParticleSystemApi } from '../src/core/api';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { SparkworksInputError } from '../src/core/errors';
import type { ForceGenerator, SpringLink } from '../src/core/forces/generators';
import type { ForceHandle } from '../src/core/forces/registry';
import { MAX_FORCE_GENERATORS } from '../src/core/forces/records';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { GENERATORS, firstDifference } from './support/forceScenes';
import { useDevice } from './support/gpu';
import { mixedScene } from './support/scenes';

const gpu = useDevice();
const CAPACITY = 10;
const DT = 1 / 60;
const spring = GENERATORS.anchoredSpring as Extract<ForceGenerator, { type: 'anchoredSpring' }>;
const link: SpringLink = { a: 0, b: 1, restLength: 1, stiffness: 2 };

interface Fixture {
  system: ParticleSystemApi;
  handle: ForceHandle;
}

type Case = [description: string, call: (f: Fixture) => unknown, message: RegExp];

const bad = (generator: Record<string, unknown>) => (f: Fixture) =>
  f.system.forces.add(generator as unknown as ForceGenerator);
const badLinks = (links: object[]) => (f: Fixture) => f.system.springs.setLinks(links as unknown as SpringLink[]);

const cases: Case[] = [
  [
    'negative stiffness',
    bad({ ...spring, stiffness: -5 }),
    /generator\.stiffness = -5 is invalid: must be finite and >= 0/,
  ],
  [
    'NaN in a vector',
    bad({ type: 'gravity', g: [0, Number.NaN, 0] }),
    /generator\.g\[1\] = NaN is invalid: must be finite/,
  ],
  ['infinite rest length', bad({ ...spring, restLength: Infinity }), /generator\.restLength = Infinity is invalid/],
  ['a float32 overflow', bad({ type: 'wind', force: [1e39, 0, 0] }), /generator\.force\[0\] = 1e\+39 is invalid/],
  ['negative drag', bad({ type: 'drag', k1: -0.1, k2: 0 }), /generator\.k1 = -0.1 is invalid: must be finite and >= 0/],
  ['a missing parameter', bad({ type: 'drag', k1: 0.1 }), /generator\.k2 = nothing is invalid/],
  [
    'an unknown type',
    bad({ type: 'magnet', strength: 1 }),
    /generator\.type = "magnet" is invalid: must be one of gravity, drag/,
  ],
  [
    'an unknown field',
    bad({ ...spring, stifness: 3 }),
    /generator\.stifness = 3 is invalid: unknown anchoredSpring field \(known: anchor, restLength, stiffness\)/,
  ],
  [
    'a zero vortex axis',
    bad({ ...GENERATORS.vortex, axis: [0, 0, 0] }),
    /generator\.axis = \[0,0,0\] is invalid: must be a nonzero/,
  ],
  ['zero softening', bad({ ...GENERATORS.attractor, softening: 0 }), /generator\.softening = 0 is invalid: must be in/],
  [
    'a fractional seed',
    bad({ ...GENERATORS.turbulence, seed: 1.5 }),
    /generator\.seed = 1.5 is invalid: must be an integer/,
  ],
  [
    'zero maxDepth',
    bad({ ...GENERATORS.buoyancy, maxDepth: 0 }),
    /generator\.maxDepth = 0 is invalid: must be finite and > 0/,
  ],
  [
    'a negative stiff-spring damping',
    bad({ ...GENERATORS.stiffSpring, damping: -1 }),
    /generator\.damping = -1 is invalid/,
  ],
  [
    'an index past the capacity',
    (f) => f.system.forces.add(GENERATORS.gravity, { indices: [1, 10] }),
    /target\.indices\[1\] = 10 is invalid: must be an integer in \[0, 9\] \(the capacity is 10\)/,
  ],
  [
    'a repeated index',
    (f) => f.system.forces.add(GENERATORS.gravity, { indices: [4, 2, 4] }),
    /target\.indices = 4 is invalid: lists the same particle twice/,
  ],
  ['an empty list', (f) => f.system.forces.add(GENERATORS.gravity, { indices: [] }), /target\.indices = .* nonempty/],
  [
    'a range past the capacity',
    (f) => f.system.forces.add(GENERATORS.gravity, { start: 8, count: 3 }),
    /target\.count = 3 is invalid: .*start \+ count <= 10/,
  ],
  ['a negative start', (f) => f.system.forces.add(GENERATORS.gravity, { start: -1, count: 3 }), /target\.start = -1/],
  [
    'a spring index out of range',
    badLinks([link, { ...link, b: 10 }]),
    /links\[1\]\.b = 10 is invalid: must be an integer in \[0, 9\]/,
  ],
  ['a negative spring index', badLinks([{ ...link, a: -1 }]), /links\[0\]\.a = -1 is invalid/],
  ['a fractional spring index', badLinks([{ ...link, a: 0.5 }]), /links\[0\]\.a = 0.5 is invalid/],
  [
    'a spring joining a particle to itself',
    badLinks([{ ...link, b: 0 }]),
    /links\[0\]\.b = 0 is invalid: joins particle 0 to itself/,
  ],
  ['a negative spring stiffness', badLinks([{ ...link, stiffness: -2 }]), /links\[0\]\.stiffness = -2 is invalid/],
  ['a NaN rest length', badLinks([{ ...link, restLength: Number.NaN }]), /links\[0\]\.restLength = NaN is invalid/],
  [
    'an unknown spring kind',
    badLinks([{ ...link, kind: 'rope' }]),
    /links\[0\]\.kind = "rope" is invalid: must be 'spring' or 'bungee'/,
  ],
  [
    'an unknown spring field',
    badLinks([{ ...link, damping: 1 }]),
    /links\[0\]\.damping = 1 is invalid: unknown spring field/,
  ],
  ['an update to a bad value', (f) => f.handle.update({ stiffness: -1 }), /update\.stiffness = -1 is invalid/],
  ['an update to NaN', (f) => f.handle.update({ anchor: [0, Number.NaN, 0] }), /update\.anchor\[1\] = NaN is invalid/],
  [
    'an update changing the type',
    (f) => f.handle.update({ type: 'drag' } as never),
    /update\.type = "drag" is invalid: a force keeps its type \(anchoredSpring\)/,
  ],
  [
    'one generator too many',
    (f) => {
      for (let k = f.system.forces.size; k <= MAX_FORCE_GENERATORS; k++) f.system.forces.add(GENERATORS.wind);
    },
    /cannot add a wind force: a system holds at most 32 generators/,
  ],
];

async function fixture(backend: 'gpu' | 'cpu'): Promise<Fixture> {
  const system =
    backend === 'gpu'
      ? await ParticleSystem.create(gpu.get().device, { capacity: CAPACITY })
      : new CpuParticleSystem({ capacity: CAPACITY });
  await system.writeParticles(0, mixedScene(CAPACITY, 4).particles);
  const handle = system.forces.add(spring, { indices: [1, 2, 5] });
  system.forces.add(GENERATORS.drag);
  system.springs.setLinks([link, { a: 3, b: 7, restLength: 2, stiffness: 1, kind: 'bungee' }]);
  return { system, handle };
}

describe.each(['gpu', 'cpu'] as const)('%s refuses bad force input and changes nothing', (backend) => {
  it.each(cases)('%s', async (_, call, message) => {
    const tested = await fixture(backend);
    const control = await fixture(backend);
    const before = {
      size: tested.system.forces.size,
      version: tested.system.forces.version,
      generator: tested.handle.generator,
      links: tested.system.springs.links,
      linksVersion: tested.system.springs.version,
    };
    let thrown: unknown;
    try {
      call(tested);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SparkworksInputError);
    expect((thrown as Error).message).toMatch(message);
    // The 33rd generator case adds 30 good ones first; everything else must leave the registry alone.
    if (!/too many/.test(_)) {
      expect(tested.system.forces.size).toBe(before.size);
      expect(tested.system.forces.version).toBe(before.version);
    }
    expect(tested.handle.generator).toBe(before.generator);
    expect(tested.system.springs.links).toBe(before.links);
    expect(tested.system.springs.version).toBe(before.linksVersion);
    if (/too many/.test(_)) return;
    await tested.system.stepMany(DT, 10);
    await control.system.stepMany(DT, 10);
    const bits = async (s: ParticleSystemApi) => new Uint32Array((await s.readPacked()).buffer);
    expect(firstDifference(await bits(tested.system), await bits(control.system))).toBeNull();
    tested.system.destroy();
    control.system.destroy();
  });

  it('an update or removal through a removed handle is refused; removing twice is a no-op', async () => {
    const { system, handle } = await fixture(backend);
    expect(system.forces.remove(handle)).toBe(true);
    expect(system.forces.remove(handle)).toBe(false);
    expect(handle.registered).toBe(false);
    expect(() => handle.update({ stiffness: 1 })).toThrow(/force 1 is not registered \(it was removed\)/);
    system.destroy();
  });
});
