/**
 * Scene files for the CLI: JSON in, validated particles out.
 *
 * zod checks the structure; the value rules (mass, inverse mass, damping) are
 * the core's predicates, so the CLI and the API refuse the same values. Every
 * error names the JSON path of the first bad field and the value found there.
 */
import { z } from 'zod';
import { prepareColliders, type ColliderInit } from '../core/collisions/colliders';
import { prepareLinks, type LinkInit } from '../core/collisions/links';
import { resolveContactSettings, type CollisionOptions } from '../core/collisions/world';
import { prepareLifecycle, type LifecycleOptions } from '../core/emitters/options';
import type { EmitterInit, FireworkRuleInit } from '../core/emitters/types';
import { SparkworksInputError } from '../core/errors';
import { nearMiss, pathOf, quote, showValue, shownKey } from '../core/validation';
import { sceneForces, type SceneForces } from './forces';
import { sceneLook, withoutLook, type SceneLook } from './look';
import {
  RULES,
  isFiniteFloat32,
  isValidDamping,
  isValidInverseMass,
  isValidMass,
  isValidRadius,
  type ParticleInit,
} from '../core/particles';

// JSON has no NaN or Infinity, but 1e39 parses and would be Infinity as float32.
const finite = z.number({ error: 'must be a finite number' }).refine(isFiniteFloat32, RULES.vector);

const vec3 = z.tuple([finite, finite, finite], {
  error: (issue) => (issue.input === undefined ? 'is required, as [x, y, z]' : 'must be [x, y, z], 3 numbers'),
});

const particleFields = {
  /** [x, y, z], m; the one field that is required. */
  position: vec3.describe('[x, y, z], m; the one field that is required.'),
  /** [x, y, z], m/s. Default [0, 0, 0]. */
  velocity: vec3.optional().describe('[x, y, z], m/s. Default [0, 0, 0].'),
  /** [x, y, z], m/s² (Cyclone keeps gravity per particle). Default [0, 0, 0]. */
  acceleration: vec3.optional().describe('[x, y, z], m/s² (Cyclone keeps gravity per particle). Default [0, 0, 0].'),
  /** > 0; give `mass` or `inverseMass`, not both. Default 1. */
  mass: finite
    .refine(isValidMass, RULES.mass)
    .optional()
    .describe('> 0; give `mass` or `inverseMass`, not both. Default 1.'),
  /** >= 0; 0 makes the particle immovable. */
  inverseMass: finite
    .refine(isValidInverseMass, RULES.inverseMass)
    .optional()
    .describe('>= 0; 0 makes the particle immovable.'),
  /** In [0, 1]. Default 1. */
  damping: finite.refine(isValidDamping, RULES.damping).optional().describe('In [0, 1]. Default 1.'),
  /** Collision radius >= 0; overrides the scene's `radius`. Default 0. */
  radius: finite
    .refine(isValidRadius, RULES.radius)
    .optional()
    .describe("Collision radius >= 0; overrides the scene's `radius`. Default 0."),
  // What `simulate` writes beside a particle of a scene with emitters: accepted so its output reads as a scene, not read.
  /** From `simulate`'s output: the slot the particle lived in. Not read. */
  slot: z
    .number({ error: 'must be a number (a slot, as simulate writes it)' })
    .optional()
    .describe("From `simulate`'s output: the slot the particle lived in. Not read."),
  /** From `simulate`'s output: the particle's age, s. Not read. */
  age: z
    .number({ error: 'must be a number (an age, as simulate writes it)' })
    .optional()
    .describe("From `simulate`'s output: the particle's age, s. Not read."),
  /** From `simulate`'s output: the particle's lifetime, s. Not read. */
  lifetime: z
    .number({ error: 'must be a number (a lifetime, as simulate writes it)' })
    .optional()
    .describe("From `simulate`'s output: the particle's lifetime, s. Not read."),
};

/** The largest finite float32. */
const FLOAT32_MAX = (2 - 2 ** -23) * 2 ** 127;

/** Both given, as `simulate` writes them: `mass` is exactly 1 / inverseMass, and inverseMass is what is stored. */
const agree = (mass: number, inverseMass: number) => inverseMass > 0 && mass === 1 / inverseMass;

const particleSchema = z.strictObject(particleFields).superRefine((particle, context) => {
  if (
    particle.mass !== undefined &&
    particle.inverseMass !== undefined &&
    !agree(particle.mass, particle.inverseMass)
  ) {
    const message = 'give mass or inverseMass, not both (or both as simulate writes them, with mass = 1 / inverseMass)';
    context.addIssue({ code: 'custom', path: ['mass'], input: particle.mass, message });
  }
});

/** The top-level fields of `simulate`'s output, accepted so the output reads as a scene; not read. */
const simulateOutputFields = {
  /** From `simulate`'s output: `gpu` or `cpu`. Not read. */
  backend: z.unknown().optional().describe("From `simulate`'s output: `gpu` or `cpu`. Not read."),
  /** From `simulate`'s output: the adapter that ran it. Not read. */
  adapter: z.unknown().optional().describe("From `simulate`'s output: the adapter that ran it. Not read."),
  /** From `simulate`'s output: the integrator and damping it ran with. Not read. */
  variant: z
    .unknown()
    .optional()
    .describe("From `simulate`'s output: the integrator and damping it ran with. Not read."),
  /** From `simulate`'s output: the steps that run took. Not read. */
  steps: z.unknown().optional().describe("From `simulate`'s output: the steps that run took. Not read."),
  /** From `simulate`'s output: its time step, s. Not read. */
  dt: z.unknown().optional().describe("From `simulate`'s output: its time step, s. Not read."),
  /** From `simulate`'s output: seconds simulated since the scene's start. Not read. */
  time: z
    .unknown()
    .optional()
    .describe("From `simulate`'s output: seconds simulated since the scene's start. Not read."),
  /** From `simulate`'s output: steps since the scene's start. Not read. */
  stepCount: z.unknown().optional().describe("From `simulate`'s output: steps since the scene's start. Not read."),
  /** From `simulate`'s output: the lifecycle's counts. Not read. */
  stats: z.unknown().optional().describe("From `simulate`'s output: the lifecycle's counts. Not read."),
  /** From `simulate`'s output: true when Ctrl-C stopped the run. Not read. */
  interrupted: z.unknown().optional().describe("From `simulate`'s output: true when Ctrl-C stopped the run. Not read."),
  /** From `simulate`'s output: the steps asked for, when interrupted. Not read. */
  requestedSteps: z
    .unknown()
    .optional()
    .describe("From `simulate`'s output: the steps asked for, when interrupted. Not read."),
  /** From `simulate`'s output: the snapshot a resumed run continued. Not read. */
  resumedFrom: z
    .unknown()
    .optional()
    .describe("From `simulate`'s output: the snapshot a resumed run continued. Not read."),
};

/** A scene with emitters or fireworks may have no particles of its own. */
const hasLifecycle = (scene: object) => 'emitters' in scene || 'fireworks' in scene;

/**
 * The scene format's top level as a zod schema: what `Scene` is inferred from.
 * Strict: a top-level typo ("collider") is refused, not silently ignored.
 * `parseScene` adds the checks across fields and the JSON-path messages.
 */
export const sceneObject = z.strictObject(
  {
    /** The JSON Schema a file names for its editor; not read. */
    $schema: z
      .string({ error: 'must be a string (the URL of a JSON Schema)' })
      .optional()
      .describe('The JSON Schema a file names for its editor; not read.'),
    /** What the scene shows; not read. */
    description: z.string({ error: 'must be a string' }).optional().describe('What the scene shows; not read.'),
    /** The particles, in slot order; may be left out with emitters or fireworks. */
    particles: z
      .array(particleSchema, {
        error: (issue) => (issue.input === undefined ? 'is required, as an array' : 'must be an array of particles'),
      })
      .describe('The particles, in slot order; may be left out with emitters or fireworks.'),
    // Collisions: the structure is checked here, the values by the core
    // (src/core/collisions), whose refusals are reported with their JSON path.
    /** Every particle's collision radius, unless the particle gives its own. */
    radius: finite
      .refine(isValidRadius, RULES.radius)
      .optional()
      .describe("Every particle's collision radius, unless the particle gives its own."),
    /** Colliders, as the `collisions.colliders` option takes them. */
    colliders: z
      .array(z.unknown(), { error: 'must be an array of colliders' })
      .optional()
      .describe('Colliders, as the `collisions.colliders` option takes them.'),
    /** Cables and rods, as the `collisions.links` option takes them. */
    links: z
      .array(z.unknown(), { error: 'must be an array of links' })
      .optional()
      .describe('Cables and rods, as the `collisions.links` option takes them.'),
    /** The contact resolver's settings: `particleCollisions`, `restitution`, `iterations`, `skin`. */
    collisions: z
      .record(z.string(), z.unknown(), { error: 'must be an object' })
      .optional()
      .describe("The contact resolver's settings: `particleCollisions`, `restitution`, `iterations`, `skin`."),
    // Forces: likewise, values checked by the core (src/core/forces), see src/scene/forces.ts.
    /** Force generators (each with an optional target) and `spring`/`bungee` pair springs. */
    forces: z
      .array(z.unknown(), { error: 'must be an array of forces' })
      .optional()
      .describe('Force generators (each with an optional target) and `spring`/`bungee` pair springs.'),
    // Emitters and firework rules: likewise, values checked by the core (src/core/emitters).
    // The scene's particles take slots [0, particles.length) and never die; the emitters recycle the rest.
    /** Particle slots, an integer >= the particle count. Default: the particle count. */
    capacity: z
      .number({ error: 'must be an integer >= 1 (particle slots)' })
      .int('must be an integer >= 1 (particle slots)')
      .min(1, 'must be an integer >= 1 (particle slots)')
      .optional()
      .describe('Particle slots, an integer >= the particle count. Default: the particle count.'),
    /** Emitters, as the `emitters` option takes them. */
    emitters: z
      .array(z.unknown(), { error: 'must be an array of emitters' })
      .optional()
      .describe('Emitters, as the `emitters` option takes them.'),
    /** Firework rules, as the `fireworks` option takes them. */
    fireworks: z
      .array(z.unknown(), { error: 'must be an array of firework rules' })
      .optional()
      .describe('Firework rules, as the `fireworks` option takes them.'),
    // The look: likewise, values checked by the core (src/core/look), see src/scene/look.ts.
    /**
     * How the system is drawn: mode, blend, size, curves, sprite, sort, trails (emitters and firework rules may have their own `look`).
     */
    look: z
      .unknown()
      .optional()
      .describe(
        'How the system is drawn: mode, blend, size, curves, sprite, sort, trails (emitters and firework rules may have their own `look`).',
      ),
    ...simulateOutputFields,
  },
  { error: 'a scene must be a JSON object {"particles": [...]}' },
);

const sceneSchema = z.preprocess(
  // With emitters or fireworks, `particles` may be left out.
  (input) =>
    input !== null &&
    typeof input === 'object' &&
    !Array.isArray(input) &&
    hasLifecycle(input) &&
    !('particles' in input)
      ? { ...input, particles: [] }
      : input,
  sceneObject.superRefine((scene, context) => {
    if (scene.particles.length === 0 && !hasLifecycle(scene)) {
      const message = 'a scene needs at least one particle';
      context.addIssue({ code: 'custom', path: ['particles'], input: scene.particles, message });
    }
  }),
);

/** A scene file as parsed and checked by `parseScene`. */
export type Scene = z.infer<typeof sceneObject>;

/** `$.particles[3].mass`, or `$["odd key"]` for keys that are not identifiers; long keys cut, as values are. */
function jsonPath(path: readonly PropertyKey[]): string {
  return path
    .map((key) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = shownKey(String(key));
      return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${quote(name)}]`;
    })
    .reduce((out, part) => out + part, '$');
}

/** A refusal in the scene file's words, `scene.json: $.particles[1].mass: <rule>; got <value>` (values shown as the core shows them). */
function refuse(sourceName: string, path: readonly PropertyKey[], rule: string, value: unknown): never {
  const where = jsonPath(path);
  throw new SparkworksInputError(`${sourceName}: ${where}: ${rule}; got ${shownNumber(value)}`, where, value, rule);
}

/**
 * A refused value as shown, a number past float32's range named so: JSON
 * reads 1e400 as Infinity, and 1e39 is finite here but not on the GPU.
 */
function shownNumber(value: unknown): string {
  if (typeof value !== 'number' || Number.isNaN(value) || isFiniteFloat32(value)) return showValue(value);
  const overflow = Number.isFinite(value) ? '' : 'as JSON reads a number past 1e308: ';
  return `${showValue(value)} (${overflow}out of float32's range, magnitude at most ${FLOAT32_MAX.toPrecision(8)})`;
}

/** `, line L, column C` for V8's `at position N` in a JSON error, where it gives no line of its own. */
function lineAndColumn(text: string, reason: string): string {
  const match = /at position (\d+)(?! \(line)/.exec(reason);
  if (!match) return '';
  const before = text.replace(/^\uFEFF/, '').slice(0, Number(match[1]));
  const lines = before.split('\n');
  return `, line ${lines.length}, column ${(lines.at(-1)?.length ?? 0) + 1}`;
}

/** Parses and validates a scene; throws SparkworksInputError naming the first bad field. */
export function parseScene(text: string, sourceName: string): Scene {
  let json: unknown;
  try {
    // A UTF-8 byte-order mark (editors on Windows write one) is not part of the JSON.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    // V8 quotes the text around the error as it is: escape its line breaks and control characters, to stay one line.
    const reason = (error as Error).message.replace(/[\u0000-\u001f\u2028\u2029]/g, (c) => quote(c).slice(1, -1));
    const rule = `not valid JSON (${reason}${lineAndColumn(text, reason)})`;
    throw new SparkworksInputError(`${sourceName}: $: ${rule}`, '$', undefined, rule);
  }
  const result = sceneSchema.safeParse(json, { reportInput: true });
  if (result.success) {
    checkCollisions(result.data, sourceName);
    checkForces(result.data, sourceName);
    checkLifecycle(result.data, sourceName);
    checkLook(result.data, sourceName);
    // Emitters alone need slots to recycle: capacity 0 is a system no backend can make.
    if (sceneCapacity(result.data) < 1) {
      refuse(
        sourceName,
        ['capacity'],
        'is required with emitters or fireworks and no particles: the slots they recycle, an integer >= 1',
        result.data.capacity,
      );
    }
    return result.data;
  }
  // An unknown key first: a misspelt key (`positon`) also leaves the key it meant missing.
  const issue = (result.error.issues.find((i) => i.code === 'unrecognized_keys') ??
    result.error.issues[0]) as z.core.$ZodIssue;
  if (issue.code === 'unrecognized_keys') {
    // zod reports unknown keys on the object; name the key itself, and the key it was probably meant to be.
    const key = issue.keys[0] as string;
    const value = (issue.input as Record<string, unknown>)[key];
    const topLevel = issue.path.length === 0;
    const known = Object.keys(topLevel ? sceneObject.shape : particleFields);
    const what = topLevel ? 'unknown scene key' : 'unknown particle field';
    refuse(sourceName, [...issue.path, key], `${what}${nearMiss(key, known)} (known: ${known.join(', ')})`, value);
  }
  refuse(sourceName, issue.path, issue.message, issue.input);
}

/** Runs the core's collision checks, reporting a refusal with its JSON path. */
function checkCollisions(scene: Scene, sourceName: string): void {
  try {
    if (scene.colliders) prepareColliders(scene.colliders as ColliderInit[], 'colliders');
    if (scene.links) prepareLinks(scene.links as LinkInit[], scene.particles.length, 'links');
    if (scene.collisions) resolveContactSettings(scene.collisions as CollisionOptions, 'collisions');
  } catch (error) {
    if (!(error instanceof SparkworksInputError)) throw error;
    refuse(sourceName, pathOf(error.what), error.rule || error.message, error.value);
  }
  for (const key of ['colliders', 'links']) {
    if (scene.collisions && key in scene.collisions) {
      refuse(sourceName, ['collisions', key], `${key} go at the top level of the scene`, scene.collisions[key]);
    }
  }
}

/** Runs the core's force checks, reporting a refusal with its JSON path. */
function checkForces(scene: Scene, sourceName: string): void {
  try {
    sceneForces(scene.forces, scene.particles.length);
  } catch (error) {
    if (!(error instanceof SparkworksInputError)) throw error;
    refuse(sourceName, pathOf(error.what), error.rule || error.message, error.value);
  }
}

/** Runs the core's emitter and firework checks, reporting a refusal with its JSON path. */
function checkLifecycle(scene: Scene, sourceName: string): void {
  const capacity = sceneCapacity(scene);
  if (capacity < scene.particles.length) {
    refuse(sourceName, ['capacity'], `must be at least the number of particles (${scene.particles.length})`, capacity);
  }
  try {
    prepareLifecycle(sceneToLifecycle(scene), capacity);
  } catch (error) {
    if (!(error instanceof SparkworksInputError)) throw error;
    if (error.rule !== '') refuse(sourceName, pathOf(error.what), error.rule, error.value);
    // A refusal without a rule of its own is the capacity's (too many slots for emitters).
    refuse(sourceName, ['capacity'], error.message, capacity);
  }
}

/** Runs the core's look checks, reporting a refusal with its JSON path. */
function checkLook(scene: Scene, sourceName: string): void {
  try {
    sceneToLook(scene);
  } catch (error) {
    if (!(error instanceof SparkworksInputError)) throw error;
    refuse(sourceName, pathOf(error.what), error.rule || error.message, error.value);
  }
}

/** The scene's look (the top level's and each spawn rule's), checked and split into draws: see src/scene/look.ts. */
export function sceneToLook(scene: Scene): SceneLook {
  return sceneLook(scene.look, scene.emitters, scene.fireworks);
}

/** Particle slots: the scene's `capacity`, else its particle count. */
export function sceneCapacity(scene: Scene): number {
  return scene.capacity ?? scene.particles.length;
}

/**
 * The scene's emitters and firework rules as the systems take them, the
 * scene's particles being the permanent ones; {} without emitters or fireworks.
 */
export function sceneToLifecycle(scene: Scene): LifecycleOptions {
  if (!hasLifecycle(scene)) return {};
  return {
    // A rule's `look` is the renderer's (sceneToLook), not the emitters'.
    emitters: (scene.emitters ?? []).map(withoutLook) as EmitterInit[],
    fireworks: (scene.fireworks ?? []).map(withoutLook) as FireworkRuleInit[],
    permanent: scene.particles.length,
  };
}

/** The scene's force generators (with their targets) and pair springs, as the systems take them. */
export function sceneToForces(scene: Scene): SceneForces {
  return sceneForces(scene.forces, scene.particles.length);
}

/** The scene's particles as the systems take them (defaults are the core's; the scene-wide radius fills in). */
export function sceneToParticles(scene: Scene): ParticleInit[] {
  return scene.particles.map(({ slot: _slot, age: _age, lifetime: _lifetime, ...particle }) => ({
    ...particle,
    // simulate's output gives both; the stored inverse mass is the exact one (the schema checked they agree).
    ...(particle.mass !== undefined && particle.inverseMass !== undefined ? { mass: undefined } : {}),
    ...(particle.radius === undefined && scene.radius !== undefined ? { radius: scene.radius } : {}),
  }));
}

/** The scene's colliders, links and contact settings as the systems take them, or undefined without any. */
export function sceneToCollisions(scene: Scene): CollisionOptions | undefined {
  if (!scene.colliders && !scene.links && !scene.collisions) return undefined;
  return {
    ...(scene.collisions as CollisionOptions | undefined),
    ...(scene.colliders ? { colliders: scene.colliders as ColliderInit[] } : {}),
    ...(scene.links ? { links: scene.links as LinkInit[] } : {}),
  };
}
