/**
 * Property-based tests of the scene file (issue 17, deliverable 4): whatever
 * the text, parseScene either accepts it or refuses it with one
 * SparkworksInputError naming a JSON path ($...), never another exception;
 * what it accepts, the systems take without a complaint; and random valid
 * scenes never produce non-finite output unless the detector reports it:
 * tame ones (stable at the time steps used) stay finite with nothing counted,
 * on the CPU reference and on the GPU (real WGSL on the test adapter), and
 * any accepted one, up to float32's largest values, has every particle that
 * went NaN or infinite counted in readStats' `nonFinite`.
 *
 * The inputs: scenes drawn from the format (test/support/sceneArbitraries.ts),
 * those scenes and the gallery's (public/scenes) mutated the way a hostile or
 * careless hand would (keys dropped, repeated, renamed, prototype names as
 * keys and types, values of the wrong type, NaN-like strings, numbers JSON
 * can write and floats cannot, deep nesting, long strings;
 * test/support/jsonMutations.ts), random JSON text edits, and arbitrary JSON.
 * Seeds are fixed (test/support/propertyRuns.ts); a failure prints its seed
 * and path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SparkworksInputError } from '../src/core/errors';
import { SHOWN_LENGTH } from '../src/core/validation';
import {
  parseScene,
  sceneCapacity,
  sceneToCollisions,
  sceneObject,
  sceneToForces,
  sceneToLifecycle,
  sceneToParticles,
  type Scene,
} from '../src/scene/scene';
import type { ParticleSystemApi } from '../src/core/api';
import type { ParticleSnapshot } from '../src/core/particles';
import { ALL_VARIANTS, variantName, type Variant } from '../src/core/variants';
import {
  JsonObject,
  LONG_CHAR,
  editText,
  hostileValue,
  mutate,
  mutation,
  render,
  renumber,
  textEdit,
  toTree,
  type Tree,
} from './support/jsonMutations';
import { runs } from './support/propertyRuns';
import { DEFAULT_LIMITS, validScene } from './support/sceneArbitraries';
import { useDevice } from './support/gpu';
import { cpuSystemFor, gpuSystemFor } from './support/sceneSystems';
import { LARGE } from './support/tiers';

const gpu = useDevice();
const SOURCE = 'x.json';
/** Systems are built from accepted scenes up to this many slots (a mutated capacity may ask for millions). */
const BUILD_CAPACITY = 4096;

const GALLERY = new URL('../public/scenes/', import.meta.url);
const gallery = readdirSync(GALLERY)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name, tree: toTree(JSON.parse(readFileSync(new URL(name, GALLERY), 'utf8'))) }));

/** The keys of a path as refusals write it: `$.particles[3].mass`, `$["odd key"]`. */
function pathKeys(path: string): (string | number)[] | null {
  const keys: (string | number)[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    const name = /^\.([A-Za-z_$][\w$]*)/.exec(rest);
    const index = /^\[(\d+)\]/.exec(rest);
    const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    const match = name ?? index ?? quoted;
    if (!match) return null;
    keys.push(name ? (match[1] as string) : index ? Number(match[1]) : (JSON.parse(match[1] as string) as string));
    rest = rest.slice(match[0].length);
  }
  return keys;
}

/** Whether everything up to the path's last key exists in the document (own properties only). */
function parentExists(document: unknown, keys: readonly (string | number)[]): boolean {
  let node = document;
  for (const key of keys.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string | number, unknown>)[key];
  }
  return true;
}

/**
 * The property every text must have: accepted, and then converted and built
 * into a CPU system that takes a step without a complaint; or refused with
 * one line, `x.json: $<path>: <rule>; got <value>`, whose path leads into the
 * document and which cuts long strings.
 */
async function acceptedOrRefused(text: string): Promise<'accepted' | 'refused'> {
  let scene: Scene;
  try {
    scene = parseScene(text, SOURCE);
  } catch (error) {
    if (!(error instanceof SparkworksInputError)) {
      throw new Error(`parseScene threw ${String(error)} instead of a SparkworksInputError`, { cause: error });
    }
    const { message, what } = error;
    expect(what, message).toMatch(/^\$/);
    expect(message.startsWith(`${SOURCE}: ${what}: `), message).toBe(true);
    expect(message, 'one line').not.toMatch(/[\n\r\u2028\u2029]/);
    // Long strings are cut: no run of one longer than a shown value appears.
    expect(message.includes(LONG_CHAR.repeat(SHOWN_LENGTH + 1)), `a long string in ${message.slice(0, 300)}`).toBe(
      false,
    );
    const keys = pathKeys(what);
    expect(keys, `a path that reads back: ${what}`).not.toBeNull();
    let document: unknown = undefined;
    try {
      document = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      expect(what, 'a text that is not JSON is refused at $').toBe('$');
    }
    if (document !== undefined)
      expect(parentExists(document, keys ?? []), `${what} leads into the document`).toBe(true);
    return 'refused';
  }
  sceneToParticles(scene);
  sceneToForces(scene);
  sceneToCollisions(scene);
  sceneToLifecycle(scene);
  if (sceneCapacity(scene) <= BUILD_CAPACITY) {
    // What parseScene accepts, the systems take: a refusal here would be a check the scene file skipped.
    const system = await cpuSystemFor(scene, { integrator: 'explicit', damping: 'per-second' });
    system.step(1 / 60);
    system.destroy();
  }
  return 'accepted';
}

/**
 * Asserts the property `of(check)` makes (with fc.assert's `parameters`),
 * `check` telling each text it is given accepted or refused and counting the
 * outcomes; then each outcome came up more often than `least` says, or the
 * property proved little.
 */
async function assertOutcomes<Ts extends [unknown, ...unknown[]]>(
  parameters: fc.Parameters<unknown>,
  least: { accepted?: number; refused: number },
  of: (check: (text: string) => Promise<void>) => fc.IAsyncProperty<Ts>,
): Promise<void> {
  const counts = { accepted: 0, refused: 0 };
  await fc.assert(
    of(async (text) => {
      counts[await acceptedOrRefused(text)]++;
    }),
    parameters as fc.Parameters<Ts>,
  );
  if (least.accepted !== undefined) expect(counts.accepted).toBeGreaterThan(least.accepted);
  expect(counts.refused).toBeGreaterThan(least.refused);
}

describe('scene files: accepted, or refused with a SparkworksInputError naming a JSON path', () => {
  it('accepts every scene drawn from the format, and builds it', async () => {
    await fc.assert(
      fc.asyncProperty(validScene(), async (scene) => {
        expect(await acceptedOrRefused(JSON.stringify(scene))).toBe('accepted');
      }),
      runs(1, 300),
    );
  });

  it('mutated scenes drawn from the format', () =>
    assertOutcomes(runs(2, 1500), { accepted: 50, refused: 500 }, (check) =>
      fc.asyncProperty(validScene(), fc.array(mutation(), { minLength: 1, maxLength: 4 }), (scene, mutations) =>
        check(render(mutate(toTree(scene), mutations))),
      ),
    ));

  it('mutated gallery scenes (public/scenes)', () =>
    assertOutcomes(runs(3, 600), { accepted: 20, refused: 200 }, (check) =>
      fc.asyncProperty(
        fc.constantFrom(...gallery),
        fc.array(mutation(), { minLength: 1, maxLength: 3 }),
        ({ tree }, mutations) => check(render(mutate(tree, mutations))),
      ),
    ));

  it('scenes whose JSON text is edited character by character', () =>
    assertOutcomes(runs(4, 800), { refused: 400 }, (check) =>
      fc.asyncProperty(
        fc.oneof(
          validScene().map((scene) => JSON.stringify(scene, null, 1)),
          fc.constantFrom(...gallery).map(({ tree }) => render(tree)),
        ),
        fc.array(textEdit(), { minLength: 1, maxLength: 4 }),
        (text, edits) => check(editText(text, edits)),
      ),
    ));

  it('arbitrary JSON documents, at the top level and as each top-level key', async () => {
    const keys = Object.keys(sceneObject.shape);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hostileValue(),
          fc.jsonValue().map(toTree),
          fc.tuple(fc.constantFrom(...keys), hostileValue()).map(([key, value]) => sceneWithKey(key, value)),
        ),
        async (tree) => {
          await acceptedOrRefused(render(tree));
        },
      ),
      runs(5, 800),
    );
  });
});

/** A one-particle scene with `key` set to `value`. */
function sceneWithKey(key: string, value: Tree): Tree {
  const entries: [string, Tree][] = [['particles', toTree([{ position: [0, 0, 0] }])]];
  if (key === 'particles') entries.length = 0;
  entries.push([key, value]);
  return new JsonObject(entries);
}

// ---------------------------------------------------------------------------
// Random valid scenes never produce non-finite output unless the detector reports it

/** How a scene is run: the time steps the scenes are tame at (sceneArbitraries.ts), any variant. */
const runOf = (maxSteps: number) =>
  fc.record({
    dt: fc.constantFrom(1 / 30, 1 / 60, 1 / 120, 0.01),
    steps: fc.integer({ min: 1, max: maxSteps }),
    variant: fc.constantFrom(...ALL_VARIANTS),
  });
type Run = { dt: number; steps: number; variant: Variant };

/** The particles whose position or velocity is NaN or infinite. */
function nonFiniteParticles(snapshot: ParticleSnapshot): number[] {
  const bad: number[] = [];
  for (let i = 0; i < snapshot.count; i++) {
    for (let c = 0; c < 3; c++) {
      if (!Number.isFinite(snapshot.position[i * 3 + c]) || !Number.isFinite(snapshot.velocity[i * 3 + c])) {
        bad.push(i);
        break;
      }
    }
  }
  return bad;
}

/**
 * Steps `system` as the run says and returns what a reader sees: the particles
 * gone non-finite and the detector's count (readStats, policy `report`).
 */
async function stepAndLook(system: ParticleSystemApi, run: Run) {
  try {
    await system.stepMany(run.dt, run.steps);
    const bad = nonFiniteParticles(await system.read());
    const { nonFinite, firstNonFinite } = await system.readStats();
    return { bad, nonFinite, firstNonFinite };
  } finally {
    system.destroy();
  }
}

const describeRun = (run: Run) => `${run.steps} steps of ${run.dt} s, ${variantName(run.variant)}`;

describe('tame scenes drawn from the format stay finite', () => {
  // Tame: the forces are within the explicit integrator's stability at these time steps (see
  // sceneArbitraries.ts); degenerate geometry (particles at force centres, on axes, on top of each
  // other) comes up often. Nothing may go NaN or infinite, and the detector must count nothing.
  it('on the CPU reference', async () => {
    await fc.assert(
      fc.asyncProperty(validScene(), runOf(240), async (scene, run) => {
        const parsed = parseScene(JSON.stringify(scene), SOURCE);
        const seen = await stepAndLook(await cpuSystemFor(parsed, run.variant), run);
        expect(seen, describeRun(run)).toEqual({ bad: [], nonFinite: 0, firstNonFinite: -1 });
      }),
      runs(6, 300),
    );
  });

  it('on the GPU', LARGE, async () => {
    await fc.assert(
      fc.asyncProperty(validScene(), runOf(120), async (scene, run) => {
        const parsed = parseScene(JSON.stringify(scene), SOURCE);
        const seen = await stepAndLook(await gpuSystemFor(gpu.get().device, parsed, run.variant), run);
        expect(seen, describeRun(run)).toEqual({ bad: [], nonFinite: 0, firstNonFinite: -1 });
      }),
      runs(7, 25),
    );
  });
});

describe('accepted scenes with extreme values: non-finite output is reported', () => {
  // Any value a rule accepts, up to the largest float32: such a scene may legitimately overflow,
  // but then the detector (readStats' nonFinite, policy `report`) has counted every particle gone bad.
  const extreme = fc.tuple(
    validScene({ ...DEFAULT_LIMITS, huge: true }),
    fc.array(renumber(), { minLength: 0, maxLength: 4 }),
  );

  async function check(
    [scene, mutations]: [object, Parameters<typeof mutate>[1]],
    run: Run,
    build: (scene: Scene, variant: Variant) => Promise<ParticleSystemApi>,
  ): Promise<'refused' | 'finite' | 'reported'> {
    // 'refused' also stands for a scene too large to run here.
    let parsed: Scene;
    try {
      parsed = parseScene(render(mutate(toTree(scene), mutations)), SOURCE);
    } catch (error) {
      expect(error).toBeInstanceOf(SparkworksInputError);
      return 'refused';
    }
    // A renumbered capacity may ask for millions of slots: these runs keep to small systems.
    if (sceneCapacity(parsed) > 256) return 'refused';
    const seen = await stepAndLook(await build(parsed, run.variant), run);
    const context = `${describeRun(run)}: particles ${seen.bad.slice(0, 8).join(', ')} non-finite, ${seen.nonFinite} counted`;
    expect(seen.nonFinite, context).toBeGreaterThanOrEqual(seen.bad.length);
    if (seen.nonFinite > 0) expect(seen.firstNonFinite, context).toBeGreaterThanOrEqual(0);
    return seen.bad.length > 0 ? 'reported' : 'finite';
  }

  // With the seed below this found a particle emitted non-finite (inherit times the emitter's velocity
  // past float32's range) that was never counted; fixed, see test/properties.counterexamples.test.ts.
  it('on the CPU reference', async () => {
    const counts = { refused: 0, finite: 0, reported: 0 };
    await fc.assert(
      fc.asyncProperty(extreme, runOf(60), async (input, run) => {
        counts[await check(input, run, cpuSystemFor)]++;
      }),
      runs(8, 400),
    );
    // Both outcomes of an accepted scene come up, or the property says nothing about one of them. (How
    // often is the generator's business: the overflow fixes made non-finite outcomes rarer.)
    expect(counts.finite).toBeGreaterThan(0);
    expect(counts.reported).toBeGreaterThan(0);
  });

  it('on the GPU', LARGE, async () => {
    await fc.assert(
      fc.asyncProperty(extreme, runOf(30), async (input, run) => {
        await check(input, run, (scene, variant) => gpuSystemFor(gpu.get().device, scene, variant));
      }),
      runs(9, 25),
    );
  });
});
