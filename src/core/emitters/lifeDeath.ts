/**
 * The CPU reference of shaders/lifecycle/lifeDeath.wgsl: when a particle dies (it has
 * outlived its lifetime, fallen below its rule's floor or been killed by a
 * collider) and how many children its death and its collision events make,
 * summed as the shaders sum them (saturating, never wrapping).
 */
import { OFFSET, FLOATS_PER_PARTICLE, NO_RULE, type LifeRecords } from '../layout';
import type { FloatArray } from '../particles';
import type { StructArray } from '../schema';
import type { SPAWN_RULE } from './gpuRecords';

type Table = StructArray<typeof SPAWN_RULE.fields>;

const { POSITION, RADIUS } = OFFSET;

/** The lifecycle shaders' addCount (src/core/emitters/gpuRecords.ts): a u32 sum that stops at 2^32 - 1. */
export function addCount(a: number, b: number): number {
  return Math.min(a + b, 2 ** 32 - 1);
}

/** shaders/lifecycle/lifeDeath.wgsl dies: whether the particle in `slot`, now `age` old, dies this step. */
export function dies(state: FloatArray, life: LifeRecords, table: Table, slot: number, age: number): boolean {
  const base = slot * FLOATS_PER_PARTICLE;
  let dead = age > life.get(slot, 'lifetime') || (state[base + RADIUS] as number) < 0;
  const rule = life.get(slot, 'rule');
  if (rule !== NO_RULE) dead = dead || (state[base + POSITION + 1] as number) < table.get(rule, 'floor');
  return dead;
}

/** shaders/lifecycle/lifeDeath.wgsl childrenOf: the children a particle of spawn rule `rule` leaves when it dies. */
export function childrenOf(table: Table, rule: number): number {
  if (rule === NO_RULE) return 0;
  let children = 0;
  for (let i = 0; i < 4; i++) children += table.get(rule, 'payloadCounts', i);
  return children;
}

/** shaders/lifecycle/lifeDeath.wgsl hitChildrenOf: the children a particle of spawn rule `rule` leaves at a collision event. */
export function hitChildrenOf(table: Table, rule: number): number {
  if (rule === NO_RULE) return 0;
  let children = 0;
  for (let i = 0; i < 4; i++) children += table.get(rule, 'hitPayloadCounts', i);
  return children;
}
