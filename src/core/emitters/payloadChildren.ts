/**
 * The children's side of a step's emission (shaders/lifecycle/emit.wgsl), for the CPU
 * reference: which record (a death or a collision event) a child request
 * belongs to, and which spawn rule of its parent's payloads it takes.
 */
import type { DEATH, SPAWN_RULE } from './gpuRecords';
import type { StructArray } from '../schema';

/** emit.wgsl findParent: the last of the step's `records` whose childStart <= c. */
export function findParent(deaths: StructArray<typeof DEATH.fields>, records: number, c: number): number {
  let low = 0;
  let high = records;
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if (deaths.get(middle, 'childStart') <= c) low = middle;
    else high = middle;
  }
  return low;
}

/**
 * The spawn rule (table index) of the `rest`th child of a record of rule
 * `parent`: its death payload first (`deathChildren` of them, 0 unless it
 * died), then its collision payload, each payload's entries in order.
 */
export function payloadRule(
  table: StructArray<typeof SPAWN_RULE.fields>,
  parent: number,
  rest: number,
  deathChildren: number,
): number {
  let counts: 'payloadCounts' | 'hitPayloadCounts' = 'payloadCounts';
  let rules: 'payloadRules' | 'hitPayloadRules' = 'payloadRules';
  if (rest >= deathChildren) {
    rest -= deathChildren;
    counts = 'hitPayloadCounts';
    rules = 'hitPayloadRules';
  }
  let entry = 0;
  for (; entry < 3; entry++) {
    const count = table.get(parent, counts, entry);
    if (rest < count) break;
    rest -= count;
  }
  return table.get(parent, rules, entry);
}
