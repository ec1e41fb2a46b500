/**
 * The scene file's format as zod schemas: its particles and its top level,
 * strict so that a misspelt key is refused. zod checks the structure; the
 * value rules (mass, inverse mass, damping) are the core's predicates, so the
 * CLI and the API refuse the same values.
 */
import { z } from 'zod';
import {
  RULES,
  isFiniteFloat32,
  isValidDamping,
  isValidInverseMass,
  isValidMass,
  isValidRadius,
} from '../core/particles';

// JSON has no NaN or Infinity, but 1e39 parses and would be Infinity as float32.
const finite = z.number({ error: 'must be a finite number' }).refine(isFiniteFloat32, RULES.vector);

const vec3 = z.tuple([finite, finite, finite], {
  error: (issue) => (issue.input === undefined ? 'is required, as [x, y, z]' : 'must be [x, y, z], 3 numbers'),
});

/** A particle's fields: what a scene's particle may have. */
export const particleFields = {
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

/** An optional array whose items the core checks (`error`: the refusal of anything else). */
const checkedArray = (error: string, description: string) =>
  z.array(z.unknown(), { error }).optional().describe(description);

/** A field of `simulate`'s output holding `what`: any value, not read. */
const fromSimulate = (what: string) =>
  z.unknown().optional().describe(`From \`simulate\`'s output: ${what}. Not read.`);

/** The top-level fields of `simulate`'s output, accepted so the output reads as a scene; not read. */
const simulateOutputFields = {
  /** From `simulate`'s output: `gpu` or `cpu`. Not read. */
  backend: fromSimulate('`gpu` or `cpu`'),
  /** From `simulate`'s output: the adapter that ran it. Not read. */
  adapter: fromSimulate('the adapter that ran it'),
  /** From `simulate`'s output: the integrator and damping it ran with. Not read. */
  variant: fromSimulate('the integrator and damping it ran with'),
  /** From `simulate`'s output: the steps that run took. Not read. */
  steps: fromSimulate('the steps that run took'),
  /** From `simulate`'s output: its time step, s. Not read. */
  dt: fromSimulate('its time step, s'),
  /** From `simulate`'s output: seconds simulated since the scene's start. Not read. */
  time: fromSimulate("seconds simulated since the scene's start"),
  /** From `simulate`'s output: steps since the scene's start. Not read. */
  stepCount: fromSimulate("steps since the scene's start"),
  /** From `simulate`'s output: the lifecycle's counts. Not read. */
  stats: fromSimulate("the lifecycle's counts"),
  /** From `simulate`'s output: true when Ctrl-C stopped the run. Not read. */
  interrupted: fromSimulate('true when Ctrl-C stopped the run'),
  /** From `simulate`'s output: the steps asked for, when interrupted. Not read. */
  requestedSteps: fromSimulate('the steps asked for, when interrupted'),
  /** From `simulate`'s output: the snapshot a resumed run continued. Not read. */
  resumedFrom: fromSimulate('the snapshot a resumed run continued'),
};

/** A scene with emitters or fireworks may have no particles of its own. */
export const hasLifecycle = (scene: object) => 'emitters' in scene || 'fireworks' in scene;

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
    colliders: checkedArray(
      'must be an array of colliders',
      'Colliders, as the `collisions.colliders` option takes them.',
    ),
    /** Cables and rods, as the `collisions.links` option takes them. */
    links: checkedArray('must be an array of links', 'Cables and rods, as the `collisions.links` option takes them.'),
    /** The contact resolver's settings: `particleCollisions`, `restitution`, `iterations`, `skin`. */
    collisions: z
      .record(z.string(), z.unknown(), { error: 'must be an object' })
      .optional()
      .describe("The contact resolver's settings: `particleCollisions`, `restitution`, `iterations`, `skin`."),
    // Forces: likewise, values checked by the core (src/core/forces), see src/scene/forces.ts.
    /** Force generators (each with an optional target) and `spring`/`bungee` pair springs. */
    forces: checkedArray(
      'must be an array of forces',
      'Force generators (each with an optional target) and `spring`/`bungee` pair springs.',
    ),
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
    emitters: checkedArray('must be an array of emitters', 'Emitters, as the `emitters` option takes them.'),
    /** Firework rules, as the `fireworks` option takes them. */
    fireworks: checkedArray(
      'must be an array of firework rules',
      'Firework rules, as the `fireworks` option takes them.',
    ),
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

/** The whole scene: `sceneObject` with `particles` optional under a lifecycle, and at least one particle without. */
export const sceneSchema = z.preprocess(
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
