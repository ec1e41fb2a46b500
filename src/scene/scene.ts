/**
 * Scene files for the CLI: JSON in, validated particles out.
 *
 * The format is sceneSchema.ts's; the checks across fields are the core's
 * (collisions, forces, emitters, look), run here once the structure passes.
 * Every error names the JSON path of the first bad field and the value found
 * there (sceneRefusal.ts).
 */
import { z } from 'zod';
import { prepareColliders, type ColliderInit } from '../core/collisions/colliders';
import { prepareLinks, type LinkInit } from '../core/collisions/links';
import { resolveContactSettings, type CollisionOptions } from '../core/collisions/world';
import { prepareLifecycle } from '../core/emitters/options';
import { SparkworksInputError } from '../core/errors';
import { nearMiss, pathOf, quote } from '../core/validation';
import { sceneForces } from './forces';
import { sceneCapacity, sceneToLifecycle, sceneToLook } from './sceneOptions';
import { lineAndColumn, refuse } from './sceneRefusal';
import { particleFields, sceneObject, sceneSchema, type Scene } from './sceneSchema';

export { sceneObject, type Scene } from './sceneSchema';
export {
  sceneCapacity,
  sceneToCollisions,
  sceneToForces,
  sceneToLifecycle,
  sceneToLook,
  sceneToParticles,
} from './sceneOptions';

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
