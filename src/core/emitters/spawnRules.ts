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
import { WordRecords } from './records';
import type { EmitterInit, FireworkRuleInit } from './types';

/** Stored (min, span, max) of a range, in float32. */
function stored(range: Range): [number, number, number] {
  return [Math.fround(range.min), Math.fround(range.max - range.min), Math.fround(range.max)];
}

/** Writes one validated spawn rule into `table` at `index`. */
function packSpawn(
  table: WordRecords<typeof SPAWN_RULE.fields>,
  index: number,
  v: SpawnValues,
  tag: number,
  payload: PayloadEntry[],
): void {
  const [lifetimeMin, lifetimeSpan, lifetimeMax] = stored(v.lifetime);
  const [massMin, massSpan, massMax] = stored(v.mass);
  const [dampingMin, dampingSpan, dampingMax] = stored(v.damping);
  const [sizeMin, sizeSpan, sizeMax] = stored(v.size);
  const [speedMin, speedSpan, speedMax] = stored(v.speed);
  table
    .setVector(index, 'shapeX', v.shapeBasis[0])
    .setU32(index, 'shape', v.shape)
    .setVector(index, 'shapeY', v.shapeBasis[1])
    .setF32(index, 'radius', v.radius)
    .setVector(index, 'shapeZ', v.shapeBasis[2])
    .setF32(index, 'height', v.height)
    .setVector(index, 'halfExtents', v.halfExtents)
    .setF32(index, 'tanAngle', v.tanAngle)
    .setVector(index, 'velocityX', v.velocityBasis[0])
    .setU32(index, 'velocityMode', v.velocityMode)
    .setVector(index, 'velocityY', v.velocityBasis[1])
    .setF32(index, 'oneMinusCosSpread', v.oneMinusCosSpread)
    .setVector(index, 'velocityZ', v.velocityBasis[2])
    .setF32(index, 'speedMin', speedMin)
    .setF32(index, 'speedSpan', speedSpan)
    .setF32(index, 'speedMax', speedMax)
    .setVector(index, 'boxMin', v.boxMin)
    .setVector(
      index,
      'boxSpan',
      v.boxMin.map((low, c) => Math.fround((v.boxMax[c] as number) - low)),
    )
    .setVector(index, 'boxMax', v.boxMax)
    .setF32(index, 'inherit', v.inherit)
    .setVector(index, 'acceleration', v.acceleration)
    .setF32(index, 'collisionRadius', v.collisionRadius)
    .setF32(index, 'lifetimeMin', lifetimeMin)
    .setF32(index, 'lifetimeSpan', lifetimeSpan)
    .setF32(index, 'lifetimeMax', lifetimeMax)
    .setF32(index, 'massMin', massMin)
    .setF32(index, 'massSpan', massSpan)
    .setF32(index, 'massMax', massMax)
    .setF32(index, 'dampingMin', dampingMin)
    .setF32(index, 'dampingSpan', dampingSpan)
    .setF32(index, 'dampingMax', dampingMax)
    .setF32(index, 'sizeMin', sizeMin)
    .setF32(index, 'sizeSpan', sizeSpan)
    .setF32(index, 'sizeMax', sizeMax)
    .setU32(index, 'color', v.color)
    .setU32(index, 'seed', v.seed >>> 0)
    .setU32(index, 'tag', tag)
    .setF32(index, 'floor', v.floor)
    .setVector(
      index,
      'payloadRules',
      [0, 1, 2, 3].map((i) => payload[i]?.rule ?? 0),
    )
    .setVector(
      index,
      'payloadCounts',
      [0, 1, 2, 3].map((i) => payload[i]?.count ?? 0),
    );
}

/** Validated emitters and firework rules: the spawn-rule table and what each entry is. */
export interface PreparedSpawnRules {
  /** Emitters first (table indices [0, emitterCount)), then the firework rules. */
  readonly table: WordRecords<typeof SPAWN_RULE.fields>;
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
  /** Whether any rule has a payload (else the deaths need not be recorded). */
  readonly hasPayloads: boolean;
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
  const table = new WordRecords(SPAWN_RULE, E + fireworks.length);
  const fireworkTypes: number[] = [];
  let largestRadius = 0;
  let hasPayloads = false;
  const ruleValues = new Map<number, SpawnValues>();

  fireworks.forEach((input, i) => {
    const { values, payload } = checkFireworkRule(input, `${what.fireworks}[${i}]`, ruleIndex);
    if (payload.some((entry) => entry.count > 0)) hasPayloads = true;
    ruleValues.set(E + i, values);
    largestRadius = Math.max(largestRadius, values.collisionRadius);
    packSpawn(table, E + i, values, E + i, payload);
  });

  const runtimes: EmitterRuntime[] = emitters.map((input, e) => {
    const { runtime, values, tag } = checkEmitter(input, `${what.emitters}[${e}]`, e, ruleIndex, ruleValues);
    fireworkTypes.push(0);
    largestRadius = Math.max(largestRadius, values.collisionRadius);
    packSpawn(table, e, values, tag, []);
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
  };
}
