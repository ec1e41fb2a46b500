/**
 * Emitter and firework-rule input, validated once for every backend (the
 * API, the scene file, the CLI) into the numbers a spawn rule stores
 * (spawnRules.ts packs them). Every refusal is an EmitterInputError naming
 * the value (`emitters[2].lifetime`) and the limit it broke, in the shared
 * wording (src/core/validation.ts), thrown before anything is built, so a
 * refused input changes nothing. This file checks one emitter and its rate
 * and bursts; the checks it shares with the firework rules are beside it.
 */
import { check, checkVector } from './inputChecks';
import { checkCollisionEvent, checkFireworkReference, type PayloadEntry } from './fireworkParams';
import { checkShape, checkSpawn, type SpawnValues } from './spawnValues';
import { EMITTER_KEYS, FROM_RULE, MAX_BURST, MAX_RATE, type EmitterInit } from './types';

export { basisAcross, checkVector as checkEmitterVector, packColor, type Range } from './inputChecks';
export { checkShape, checkSpawn, checkVelocity, type SpawnValues } from './spawnValues';
export {
  checkCollisionEvent,
  checkFireworkRule,
  checkFireworkTypes,
  checkSpawnLists,
  type PayloadEntry,
} from './fireworkParams';

/** One emitter's host-side settings: what the per-step frame carries. */
export interface EmitterRuntime {
  /** Particles per second. */
  rate: number;
  /** Particles asked for by bursts since creation (cumulative, modulo 2^32). */
  burst: number;
  /** The shape's centre, [x, y, z]. */
  center: number[];
  /** The emitter's velocity, [x, y, z], which its particles inherit. */
  velocity: number[];
}

/**
 * One emitter, named `at`, the `e`th: its runtime settings and spawn values.
 * An emitter that launches fireworks takes the rule's values (`rules`, by
 * table index) and the rule's table index as its tag; else its tag is `e`.
 */
export function checkEmitter(
  input: EmitterInit,
  at: string,
  e: number,
  ruleIndex: ReadonlyMap<number, number>,
  rules: ReadonlyMap<number, SpawnValues>,
): { runtime: EmitterRuntime; values: SpawnValues; tag: number; hitPayload: PayloadEntry[] } {
  const emitter = check.object(at, input, EMITTER_KEYS);
  const rate = emitter.rate === undefined ? 0 : checkRate(`${at}.rate`, emitter.rate);
  const burst = emitter.burst === undefined ? 0 : checkBurst(`${at}.burst`, emitter.burst);
  const { center, values: shape } = checkShape(`${at}.shape`, emitter.shape ?? { type: 'point' });
  const emitterVelocity =
    emitter.emitterVelocity === undefined ? [0, 0, 0] : checkVector(`${at}.emitterVelocity`, emitter.emitterVelocity);
  const seed = emitter.seed === undefined ? e + 1 : check.integer(`${at}.seed`, emitter.seed, 0, 2 ** 32 - 1);
  const inherit =
    emitter.inherit === undefined
      ? 1
      : check.finite(`${at}.inherit`, emitter.inherit, 'must be finite (a share of the velocity)');
  const runtime = { rate, burst, center, velocity: emitterVelocity };
  if (emitter.firework === undefined) {
    const spawn = checkSpawn(at, emitter, 'lifetime', { acceleration: [0, 0, 0], floor: null, seed });
    const hitPayload = checkCollisionEvent(`${at}.onCollision`, emitter.onCollision, ruleIndex);
    return { runtime, values: { ...spawn, ...shape }, tag: e, hitPayload };
  }
  const { type, index } = checkFireworkReference(`${at}.firework`, emitter.firework, ruleIndex);
  for (const key of [...FROM_RULE, 'onCollision'] as const) {
    if (emitter[key] !== undefined)
      check.refuse(
        `${at}.${key}`,
        emitter[key],
        `an emitter that launches fireworks takes its ${key} from firework rule ${type}`,
      );
  }
  const rule = rules.get(index) as SpawnValues;
  return { runtime, values: { ...rule, ...shape, inherit, seed }, tag: index, hitPayload: [] };
}

/** Validates a rate change. */
export function checkRate(what: string, rate: unknown): number {
  return check.finite(
    what,
    rate,
    `particles per second, finite and in [0, ${MAX_RATE}]`,
    (x) => x >= 0 && x <= MAX_RATE,
  );
}

/** Validates a burst request. */
export function checkBurst(what: string, count: unknown): number {
  return check.integer(what, count, 0, MAX_BURST);
}
