import { z } from 'zod';
import { sceneObject } from './scene';

/**
 * The scene format as a JSON Schema (draft 2020-12), generated from its zod
 * definition: what public/scene.schema.json holds and the playground's
 * completion reads.
 */
export function sceneJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(sceneObject, { unrepresentable: 'any' }) as Record<string, unknown>;
}
