/**
 * Scene files for the CLI: JSON in, validated particles out.
 *
 * zod checks the structure; the value rules (mass, inverse mass, damping) are
 * the core's predicates, so the CLI and the API refuse the same values. Every
 * error names the JSON path of the first bad field and the value found there.
 */
import { z } from 'zod';
import { SparkworksInputError } from '../core/errors';
import {
  RULES,
  isFiniteFloat32,
  isValidDamping,
  isValidInverseMass,
  isValidMass,
  type ParticleInit,
} from '../core/particles';

// JSON has no NaN or Infinity, but 1e39 parses and would be Infinity as float32.
const finite = z.number({ error: 'must be a finite number' }).refine(isFiniteFloat32, RULES.vector);

const vec3 = z.tuple([finite, finite, finite], {
  error: (issue) => (issue.input === undefined ? 'is required, as [x, y, z]' : 'must be [x, y, z], 3 numbers'),
});

const particleFields = {
  position: vec3,
  velocity: vec3.optional(),
  acceleration: vec3.optional(),
  mass: finite.refine(isValidMass, RULES.mass).optional(),
  inverseMass: finite.refine(isValidInverseMass, RULES.inverseMass).optional(),
  damping: finite.refine(isValidDamping, RULES.damping).optional(),
};

const particleSchema = z.strictObject(particleFields).superRefine((particle, context) => {
  if (particle.mass !== undefined && particle.inverseMass !== undefined) {
    const message = 'give mass or inverseMass, not both';
    context.addIssue({ code: 'custom', path: ['mass'], input: particle.mass, message });
  }
});

// A plain object, not a strict one: later scene keys (forces, emitters...) are allowed through.
const sceneSchema = z.object(
  {
    particles: z
      .array(particleSchema, {
        error: (issue) => (issue.input === undefined ? 'is required, as an array' : 'must be an array of particles'),
      })
      .min(1, 'a scene needs at least one particle'),
  },
  { error: 'a scene must be a JSON object {"particles": [...]}' },
);

export type Scene = z.infer<typeof sceneSchema>;

/** `$.particles[3].mass`, or `$["odd key"]` for keys that are not identifiers. */
function jsonPath(path: readonly PropertyKey[]): string {
  return path
    .map((key) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = String(key);
      return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
    })
    .reduce((out, part) => out + part, '$');
}

function shown(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

function refuse(sourceName: string, path: readonly PropertyKey[], rule: string, value: unknown): never {
  const where = jsonPath(path);
  throw new SparkworksInputError(`${sourceName}: ${where}: ${rule}; got ${shown(value)}`, where, value);
}

/** Parses and validates a scene; throws SparkworksInputError naming the first bad field. */
export function parseScene(text: string, sourceName: string): Scene {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    refuse(sourceName, [], `not valid JSON (${(error as Error).message})`, text.slice(0, 40));
  }
  const result = sceneSchema.safeParse(json, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  if (issue.code === 'unrecognized_keys') {
    // zod reports unknown keys on the object; name the key itself.
    const key = issue.keys[0] as string;
    const known = Object.keys(particleFields).join(', ');
    const value = (issue.input as Record<string, unknown>)[key];
    refuse(sourceName, [...issue.path, key], `unknown particle field (known: ${known})`, value);
  }
  refuse(sourceName, issue.path, issue.message, issue.input);
}

/** The scene's particles as the systems take them (defaults are the core's). */
export function sceneToParticles(scene: Scene): ParticleInit[] {
  return scene.particles.map((particle) => ({ ...particle }));
}
