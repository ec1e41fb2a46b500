/**
 * The counterexamples the property tests (test/properties.scene.test.ts,
 * test/properties.api.test.ts) found, each shrunk by fast-check and kept here
 * as a plain example: each a regression test for the bug it found (an open
 * one would be kept as `it.fails` naming the bug, to turn red once fixed).
 */
import { describe, expect, it } from 'vitest';
import type { ParticleSystemApi } from '../src/core/api';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { SparkworksInputError } from '../src/core/errors';
import { packParticles } from '../src/core/particles';
import { SHOWN_LENGTH } from '../src/core/validation';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { parseScene } from '../src/scene/scene';
import { useDevice } from './support/gpu';
import { sceneRefusal } from './support/refusal';
import { cpuSystemFor, gpuSystemFor } from './support/sceneSystems';

const gpu = useDevice();
const EXPLICIT = { integrator: 'explicit', damping: 'per-second' } as const;

/** The refusal parseScene throws for `text` (failing if it accepts it or throws anything else). */
const refusal = (text: string) => sceneRefusal(text, 'x.json');

const backends = [
  ['CPU', async (): Promise<ParticleSystemApi> => new CpuParticleSystem({ capacity: 2 })],
  ['GPU', (): Promise<ParticleSystemApi> => ParticleSystem.create(gpu.get().device, { capacity: 2 })],
] as const;

/** A system from `create` for `body`, destroyed after. */
async function withSystem(
  create: () => Promise<ParticleSystemApi>,
  body: (system: ParticleSystemApi) => Promise<void>,
): Promise<void> {
  const system = await create();
  try {
    await body(system);
  } finally {
    system.destroy();
  }
}

describe('scene files (fixed)', () => {
  it('a value nested 6,000 deep is refused with its path, not a stack overflow in the message', () => {
    // Found by "mutated gallery scenes": showValue recursed once per level before cutting.
    const deep = '{"a":'.repeat(6000) + '1' + '}'.repeat(6000);
    const error = refusal(`{"particles": [{"position": [0, 0, 0]}], "description": ${deep}}`);
    expect(error.message).toMatch(/^x\.json: \$\.description: must be a string; got \{"a":\{"a":/);
    expect(error.message.length).toBeLessThan(200);
  });

  it('an unknown key holding "." or "[" is named whole in the path', () => {
    // Found by "mutated scenes drawn from the format": `what` strings were split on every "." and "[".
    expect(refusal('{"capacity": 2, "emitters": [{"a.b": 1}]}').message).toMatch(
      /^x\.json: \$\.emitters\[0\]\["a\.b"\]: unknown field/,
    );
    expect(
      refusal('{"particles": [{"position": [0, 0, 0]}], "forces": [{"type": "gravity", "g": [0, 0, 0], "x[1]": 2}]}')
        .message,
    ).toMatch(/^x\.json: \$\.forces\[0\]\["x\[1\]"\]: unknown gravity field/);
  });

  it('a long unknown key is cut in the message, as long values are', () => {
    // Found by "mutated scenes drawn from the format": a 20,000-character key came back whole.
    const key = 'Z'.repeat(20_000);
    const top = refusal(`{"particles": [{"position": [0, 0, 0]}], "${key}": 1}`);
    const inner = refusal(`{"particles": [{"position": [0, 0, 0]}], "colliders": [{"type": "plane", "${key}": 1}]}`);
    for (const { message } of [top, inner]) {
      expect(message).not.toContain('Z'.repeat(SHOWN_LENGTH + 1));
      expect(message.length).toBeLessThan(600);
    }
  });

  it('JSON syntax errors and values with line separators stay on one line', () => {
    // Found by "scenes whose JSON text is edited": V8 quotes the text around the error as it is.
    expect(refusal('{"particles": [\n1,\n}').message).not.toMatch(/[\n\r]/);
    expect(refusal('\u0000{\n"particles": []}').message).not.toMatch(/[\n\r\u0000]/);
    // Found by "arbitrary JSON documents": JSON.stringify leaves U+2028 and U+2029 as they are.
    expect(refusal('{"particles": "\u2028\u2029"}').message).not.toMatch(/[\u2028\u2029]/);
  });
});

describe('API (fixed)', () => {
  it.each(backends)(
    'a subnormal damping is refused on the %s: a GPU flushes it to 0 where the CPU kept d^dt',
    (_, create) =>
      withSystem(create, async (system) => {
        // Found by "API call sequences": damping 7e-46 (2^-150) stored as a subnormal; per-second
        // damping kept about a fifth of the velocity a step on the CPU, none on the GPU.
        await expect(async () => system.writeParticles(0, [{ position: [0, 0, 0], damping: 1e-40 }])).rejects.toThrow(
          /damping = 1e-40 is invalid: damping must be in \[0, 1\].*normal float32/,
        );
        await expect(async () => system.setField('damping', 0, [1e-39])).rejects.toThrow(/damping\[0\] = 1e-39/);
        const records = packParticles([{ position: [0, 0, 0] }]);
        records[7] = 1e-40; // the damping lane
        await expect(async () => system.writePacked(0, records)).rejects.toThrow(SparkworksInputError);
        // 0 and the smallest normal float32 are fine, and a value below half the smallest subnormal stores 0.
        await system.writeParticles(0, [
          { position: [0, 0, 0], damping: 2 ** -126 },
          { position: [0, 0, 0], damping: 1e-50 },
        ]);
      }),
  );

  it('a subnormal damping is refused in a scene file and an emitter', () => {
    expect(refusal('{"particles": [{"position": [0, 0, 0], "damping": 1e-40}]}').message).toMatch(
      /\$\.particles\[0\]\.damping: damping must be in \[0, 1\]/,
    );
    expect(refusal('{"capacity": 1, "emitters": [{"damping": [0, 1e-40]}]}').message).toMatch(
      /\$\.emitters\[0\]\.damping\[1\]/,
    );
  });
});

describe('bugs the properties found, fixed since', () => {
  // Fixed: ForceRegistry (src/core/forces/registry.ts) cached the index-list masks with one offset per
  // generator, but cleared that cache only when an index-list generator was added or removed: a
  // generator added for every particle (or a range) after the masks were built got no offset (mask 0),
  // and removing one shifted the others'. The CPU then applied the new generator to no particle; the
  // GPU, after a removal, dropped an index-list generator. Found by "API call sequences" (seed
  // 20170015). changed() now clears the cache whatever changed.
  it.each(backends)(
    'a generator added after the registry was used applies on the %s (registry mask cache)',
    (_, create) =>
      withSystem(create, async (system) => {
        await system.writeParticles(0, [{ position: [0, 0, 0] }, { position: [0, 0, 0] }]);
        system.forces.add({ type: 'wind', force: [1, 0, 0] });
        await system.accumulateForces(1);
        system.forces.add({ type: 'wind', force: [0, 1, 0] });
        await system.step(1);
        const all = system.forces.add({ type: 'wind', force: [0, 0, 1] });
        system.forces.add({ type: 'wind', force: [0, 0, 1] }, { indices: [0] });
        await system.accumulateForces(1);
        system.forces.remove(all);
        await system.step(1);
        // Each accumulation and step adds every registered wind once (dt 1, mass 1): x 4, y 3, and
        // z 1 + 2 (the listed one, twice) for particle 0, 1 for particle 1.
        expect(Array.from((await system.read()).velocity)).toEqual([4, 3, 3, 4, 3, 1]);
      }),
  );

  // Fixed: the non-finite detector counted particles whose state goes from finite to non-finite in the
  // step and the colliders pass; a particle born non-finite (an emitter's inherit times its velocity, a
  // speed plus the emitter's velocity past float32's range, a firework rule whose payload names itself
  // with inherit 2) was never counted: readStats said nonFinite 0. Found by "accepted scenes with
  // extreme values" (seed 20170012, and FC_SEED=1..2). The emit pass now counts it too.
  it.each([
    ['CPU', cpuSystemFor],
    [
      'GPU',
      (scene: Parameters<typeof cpuSystemFor>[0], variant: typeof EXPLICIT) =>
        gpuSystemFor(gpu.get().device, scene, variant),
    ],
  ] as const)('a particle emitted non-finite is counted on the %s', async (_, build) => {
    const scene = parseScene(
      '{"capacity": 1, "emitters": [{"burst": 1, "emitterVelocity": [3e38, 0, 0], "inherit": 2}]}',
      'x.json',
    );
    await withSystem(
      () => build(scene, EXPLICIT),
      async (system) => {
        await system.stepMany(1 / 30, 2);
        expect(Number.isFinite((await system.read()).velocity[0])).toBe(false);
        expect((await system.readStats()).nonFinite).toBe(1);
      },
    );
  });

  // Fixed: parseScene accepted a scene with emitters and neither particles nor a capacity; its capacity
  // was then 0, which every system refuses ("capacity = 0 is invalid", without a JSON path). Found by
  // "mutated scenes drawn from the format" (FC_SEED=1..3 with FC_RUNS=5). Now refused at $.capacity.
  it('a scene with emitters and no particles or capacity is refused, or builds', async () => {
    let scene;
    try {
      scene = parseScene('{"emitters": [{"burst": 3}]}', 'x.json');
    } catch (error) {
      expect((error as Error).message).toMatch(/^x\.json: \$\.capacity: /);
      return;
    }
    (await cpuSystemFor(scene, EXPLICIT)).destroy();
  });

  // Fixed: issue 17 item 5's overflow, made safe for springs, was still there for rods, cables and
  // quadratic drag: |d|² (or |v|²) passes float32's range past about 1.8e19 and the particle went NaN.
  // Found by "tame scenes drawn from the format" at the scale 1e18 (FC_SEED=1). They take safeLength now.
  it.each([
    ['a rod', '"links": [{"type": "rod", "a": 0, "b": 1, "length": 1e19}]'],
    ['a cable', '"links": [{"type": "cable", "a": 0, "anchor": [1e19, 1e19, 1e19], "maxLength": 1e18}]'],
  ])('%s 3.5e19 long stays finite', async (_, links) => {
    const scene = parseScene(
      `{"particles": [{"position": [-1e19, -1e19, -1e19]}, {"position": [1e19, 1e19, 1e19]}], ${links}}`,
      'x.json',
    );
    const system = await cpuSystemFor(scene, EXPLICIT);
    await system.stepMany(1 / 60, 2);
    expect((await system.readStats()).nonFinite).toBe(0);
    system.destroy();
  });

  it('quadratic drag at a speed past 1.8e19 stays finite', async () => {
    const system = new CpuParticleSystem({ capacity: 1 });
    system.writeParticles(0, [{ position: [0, 0, 0], velocity: [2e19, 0, 0] }]);
    // The true force, k2 |v|² = 4e8 N, is finite; |v|² as float32 is not.
    system.forces.add({ type: 'drag', k1: 0, k2: 1e-30 });
    system.step(1 / 60);
    expect((await system.readStats()).nonFinite).toBe(0);
  });
});
