/**
 * The spawn-rule table: validated emitters and firework rules (params.ts)
 * packed into SPAWN_RULE records, emitters first, then the firework rules.
 */
import { SPAWN_RULE } from './gpuRecords';
import {
  checkEmitter,
  checkFireworkRule,
  checkFireworkTypes,
  checkSpawnLists,
  type EmitterRuntime,
  type PayloadEntry,
  type Range,
  type SpawnValues,
} from './params';
import type { StructArray } from '../schema';
import type { EmitterInit, FireworkRuleInit } from './types';

/** Stored (min, span, max) of a range, in float32. */
function stored(range: Range): [number, number, number] {
  return [Math.fround(range.min), Math.fround(range.max - range.min), Math.fround(range.max)];
}

/** Writes one validated spawn rule into `table` at `index`. */
function packSpawn(
  table: StructArray<typeof SPAWN_RULE.fields>,
  index: number,
  v: SpawnValues,
  tag: number,
  payload: PayloadEntry[],
  hitPayload: PayloadEntry[],
): void {
  const [lifetimeMin, lifetimeSpan, lifetimeMax] = stored(v.lifetime);
  const [massMin, massSpan, massMax] = stored(v.mass);
  const [dampingMin, dampingSpan, dampingMax] = stored(v.damping);
  const [sizeMin, sizeSpan, sizeMax] = stored(v.size);
  const [speedMin, speedSpan, speedMax] = stored(v.speed);
  table
    .set(index, 'shapeX', v.shapeBasis[0])
    .set(index, 'shape', v.shape)
    .set(index, 'shapeY', v.shapeBasis[1])
    .set(index, 'radius', v.radius)
    .set(index, 'shapeZ', v.shapeBasis[2])
    .set(index, 'height', v.height)
    .set(index, 'halfExtents', v.halfExtents)
    .set(index, 'tanAngle', v.tanAngle)
    .set(index, 'velocityX', v.velocityBasis[0])
    .set(index, 'velocityMode', v.velocityMode)
    .set(index, 'velocityY', v.velocityBasis[1])
    .set(index, 'oneMinusCosSpread', v.oneMinusCosSpread)
    .set(index, 'velocityZ', v.velocityBasis[2])
    .set(index, 'speedMin', speedMin)
    .set(index, 'speedSpan', speedSpan)
    .set(index, 'speedMax', speedMax)
    .set(index, 'boxMin', v.boxMin)
    .set(
      index,
      'boxSpan',
      v.boxMin.map((low, c) => Math.fround((v.boxMax[c] as number) - low)),
    )
    .set(index, 'boxMax', v.boxMax)
    .set(index, 'inherit', v.inherit)
    .set(index, 'acceleration', v.acceleration)
    .set(index, 'collisionRadius', v.collisionRadius)
    .set(index, 'lifetimeMin', lifetimeMin)
    .set(index, 'lifetimeSpan', lifetimeSpan)
    .set(index, 'lifetimeMax', lifetimeMax)
    .set(index, 'massMin', massMin)
    .set(index, 'massSpan', massSpan)
    .set(index, 'massMax', massMax)
    .set(index, 'dampingMin', dampingMin)
    .set(index, 'dampingSpan', dampingSpan)
    .set(index, 'dampingMax', dampingMax)
    .set(index, 'sizeMin', sizeMin)
    .set(index, 'sizeSpan', sizeSpan)
    .set(index, 'sizeMax', sizeMax)
    .set(index, 'color', v.color)
    .set(index, 'seed', v.seed >>> 0)
    .set(index, 'tag', tag)
    .set(index, 'floor', v.floor)
    .set(
      index,
      'payloadRules',
      [0, 1, 2, 3].map((i) => payload[i]?.rule ?? 0),
    )
    .set(
      index,
      'payloadCounts',
      [0, 1, 2, 3].map((i) => payload[i]?.count ?? 0),
    )
    .set(
      index,
      'hitPayloadRules',
      [0, 1, 2, 3].map((i) => hitPayload[i]?.rule ?? 0),
    )
    .set(
      index,
      'hitPayloadCounts',
      [0, 1, 2, 3].map((i) => hitPayload[i]?.count ?? 0),
    );
}

/** Validated emitters and firework rules: the spawn-rule table and what each entry is. */
export interface PreparedSpawnRules {
  /** Emitters first (table indices [0, emitterCount)), then the firework rules. */
  readonly table: StructArray<typeof SPAWN_RULE.fields>;
  readonly emitterCount: number;
  readonly ruleCount: number;
  /** The firework type of each table index (0 for a plain emitter). */
  readonly fireworkTypes: readonly number[];
  /** Table index of each firework type. */
  readonly ruleIndex: ReadonlyMap<number, number>;
  /** Each emitter's initial rate, burst, centre and velocity. */
  readonly emitters: readonly EmitterRuntime[];
  /** The largest collision radius any rule gives (sizes the collision grid). */
  readonly largestRadius: number;
  /** Whether any rule has a payload, on death or on collision (else the deaths need not be recorded). */
  readonly hasPayloads: boolean;
  /**
   * The floor every entry of the table has (as stored, float32), or null when
   * they differ, one is not finite or there are none: with one floor shared,
   * the death test need not look a particle's rule up (shaders/lifecycle/lifeDeath.wgsl).
   */
  readonly sharedFloor: number | null;
  /**
   * The shapes and the velocity modes the table's entries use, as bit masks
   * (bit SHAPE[name], bit VELOCITY_MODE[name]): the emission's kernel compiles
   * the others out (shaders/lifecycle/spawn.wgsl).
   */
  readonly shapes: number;
  readonly velocityModes: number;
}

/** A mask with bit v set for each value v of `field` among the first `entries` of `table`. */
function usedBits(
  table: StructArray<typeof SPAWN_RULE.fields>,
  field: 'shape' | 'velocityMode',
  entries: number,
): number {
  let bits = 0;
  for (let i = 0; i < entries; i++) bits |= 1 << table.get(i, field);
  return bits >>> 0;
}

/** The floor each of the first `entries` of `table` has, as stored (see PreparedSpawnRules.sharedFloor). */
function sharedFloorOf(table: StructArray<typeof SPAWN_RULE.fields>, entries: number): number | null {
  if (entries === 0) return null;
  const floor = table.get(0, 'floor');
  for (let i = 1; i < entries; i++) if (table.get(i, 'floor') !== floor) return null;
  return Number.isFinite(floor) ? floor : null;
}

/**
 * Validates emitters and firework rules and packs the spawn-rule table.
 * Throws SparkworksInputError naming the first bad value, before returning.
 */
export function prepareSpawnRules(
  emitters: readonly EmitterInit[] = [],
  fireworks: readonly FireworkRuleInit[] = [],
  what = { emitters: 'emitters', fireworks: 'fireworks' },
): PreparedSpawnRules {
  checkSpawnLists(emitters, fireworks, what);
  const E = emitters.length;
  // First pass: the rule types, so payloads and emitters can name any of them.
  const ruleIndex = checkFireworkTypes(fireworks, what.fireworks, E);
  const table = SPAWN_RULE.array(E + fireworks.length);
  const fireworkTypes: number[] = [];
  let largestRadius = 0;
  let hasPayloads = false;
  const ruleValues = new Map<number, SpawnValues>();

  fireworks.forEach((input, i) => {
    const { values, payload, hitPayload } = checkFireworkRule(input, `${what.fireworks}[${i}]`, ruleIndex);
    if ([...payload, ...hitPayload].some((entry) => entry.count > 0)) hasPayloads = true;
    ruleValues.set(E + i, values);
    largestRadius = Math.max(largestRadius, values.collisionRadius);
    packSpawn(table, E + i, values, E + i, payload, hitPayload);
  });

  const runtimes: EmitterRuntime[] = emitters.map((input, e) => {
    const { runtime, values, tag, hitPayload } = checkEmitter(
      input,
      `${what.emitters}[${e}]`,
      e,
      ruleIndex,
      ruleValues,
    );
    if (hitPayload.some((entry) => entry.count > 0)) hasPayloads = true;
    fireworkTypes.push(0);
    largestRadius = Math.max(largestRadius, values.collisionRadius);
    packSpawn(table, e, values, tag, [], hitPayload);
    return runtime;
  });
  for (const input of fireworks) fireworkTypes.push(input.type);
  return {
    table,
    emitterCount: E,
    ruleCount: fireworks.length,
    fireworkTypes,
    ruleIndex,
    emitters: runtimes,
    largestRadius,
    hasPayloads,
    sharedFloor: sharedFloorOf(table, E + fireworks.length),
    shapes: usedBits(table, 'shape', E + fireworks.length),
    velocityModes: usedBits(table, 'velocityMode', E + fireworks.length),
  };
}
