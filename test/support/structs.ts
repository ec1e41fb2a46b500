/**
 * Every struct the system declares with src/core/schema.ts, so the schema
 * test can check each one on the adapter. A new record or uniform block is
 * added here.
 */
import { arrayOf, defineStruct, type StructDef } from '../../src/core/schema';
import { COLLIDER } from '../../src/core/collisions/colliders';
import { LINK } from '../../src/core/collisions/links';
import {
  DEATH,
  EMITTER_FRAME,
  EMITTER_STATE,
  FRAME_PARAMS,
  LIFE_COUNTERS,
  SPAWN_RULE,
} from '../../src/core/emitters/gpuRecords';
import { LIFE, PARTICLE } from '../../src/core/layout';
import { FORCE_RECORD, FORCE_TABLE } from '../../src/core/forces/records';
import { INDIRECT_ARGS } from '../../src/shaders/indirectArgs';
import { PASS_PARAMS } from '../../src/shaders/params';
import { GROUP_LIFE } from '../../src/render/groupTimeline';
import { GRID_PARAMS as RENDER_GRID_PARAMS } from '../../src/render/gridPass';
import { LINE_PARAMS } from '../../src/render/linePass';
import { LINK_PARAMS, LINK_RECORD } from '../../src/render/linkPass';
import { DRAW_PARAMS } from '../../src/render/particleLook';

const example = defineStruct('SchemaExample', { a: 'vec2f', b: 'vec3f', c: 'f32', d: 'u32', e: 'i32' });

export const ALL_STRUCTS: readonly StructDef[] = [
  example,
  PARTICLE,
  LIFE,
  COLLIDER,
  LINK,
  SPAWN_RULE,
  EMITTER_FRAME,
  FRAME_PARAMS,
  EMITTER_STATE,
  LIFE_COUNTERS,
  DEATH,
  FORCE_RECORD,
  FORCE_TABLE,
  ...PASS_PARAMS,
  INDIRECT_ARGS,
  GROUP_LIFE,
  DRAW_PARAMS,
  RENDER_GRID_PARAMS,
  LINE_PARAMS,
  LINK_PARAMS,
  LINK_RECORD,
  defineStruct('SchemaNested', { first: 'u32', inner: example, list: arrayOf(example, 3), matrix: 'mat4x4f' }),
];
