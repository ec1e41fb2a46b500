/**
 * `npm run scene-schema`: writes public/scene.schema.json, the scene format's
 * JSON Schema generated from its zod definition (src/scene/jsonSchema.ts),
 * formatted as the repository's Prettier formats JSON.
 * test/sceneSchema.test.ts fails while the committed file differs.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { sceneJsonSchema } from '../src/scene/jsonSchema';

const out = resolve(import.meta.dirname, '../public/scene.schema.json');
const options = (await resolveConfig(out)) ?? {};
writeFileSync(out, await format(JSON.stringify(sceneJsonSchema()), { ...options, filepath: out }));
console.log(`wrote ${out}`);
