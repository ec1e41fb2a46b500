/**
 * Firework-rule input: the emitter and rule lists' limits, the rules' types
 * (the names payloads and emitters use), one rule's spawn values, and the
 * payloads a particle leaves at its death and at a collision event.
 */
import { MAX_EMITTERS, MAX_FIREWORK_RULES, MAX_PAYLOADS, MAX_PAYLOAD_TOTAL } from './gpuRecords';
import { check } from './inputChecks';
import { checkSpawn, pointShape, type SpawnValues } from './spawnValues';
import { FIREWORK_RULE_KEYS, GRAVITY, type EmitterInit, type FireworkRuleInit } from './types';

/** Table index and count of one payload entry. */
export interface PayloadEntry {
  /** Table index of the child rule. */
  rule: number;
  count: number;
}

/** The lists themselves: arrays, within the limits. */
export function checkSpawnLists(
  emitters: readonly EmitterInit[],
  fireworks: readonly FireworkRuleInit[],
  what: { emitters: string; fireworks: string },
): void {
  if (!Array.isArray(emitters)) check.refuse(what.emitters, emitters, 'must be an array of emitters');
  if (!Array.isArray(fireworks)) check.refuse(what.fireworks, fireworks, 'must be an array of firework rules');
  if (emitters.length > MAX_EMITTERS)
    check.refuse(`${what.emitters}.length`, emitters.length, `at most ${MAX_EMITTERS} emitters`);
  if (fireworks.length > MAX_FIREWORK_RULES) {
    check.refuse(`${what.fireworks}.length`, fireworks.length, `at most ${MAX_FIREWORK_RULES} firework rules`);
  }
}

/**
 * The firework types, each an integer >= 1 unique among the rules, mapped to
 * their table index (after the `first` emitters), so that payloads and
 * emitters can name any of them.
 */
export function checkFireworkTypes(
  fireworks: readonly FireworkRuleInit[],
  what: string,
  first: number,
): Map<number, number> {
  const ruleIndex = new Map<number, number>();
  fireworks.forEach((rule, i) => {
    const at = `${what}[${i}]`;
    check.object(at, rule, FIREWORK_RULE_KEYS);
    const type = check.integer(`${at}.type`, (rule as { type?: unknown }).type, 1, 2 ** 31 - 1);
    if (ruleIndex.has(type)) check.refuse(`${at}.type`, type, 'a firework type must be unique among the rules');
    ruleIndex.set(type, first + i);
  });
  return ruleIndex;
}

const FIREWORK_SEED_BASE = 0x5eed0000;

/** One firework rule (its type already checked), named `at`: its spawn values and its payload's table entries. */
export function checkFireworkRule(
  input: FireworkRuleInit,
  at: string,
  ruleIndex: ReadonlyMap<number, number>,
): { values: SpawnValues; payload: PayloadEntry[]; hitPayload: PayloadEntry[] } {
  const rule = input as unknown as Record<string, unknown>;
  if (rule.fuse === undefined)
    check.refuse(`${at}.fuse`, rule.fuse, 'is required: seconds before it bursts, a number or [min, max]');
  const spawn = checkSpawn(at, rule, 'fuse', {
    acceleration: GRAVITY,
    floor: 0,
    seed: (FIREWORK_SEED_BASE + input.type) >>> 0,
  });
  const payload = checkPayload(`${at}.payload`, rule.payload ?? [], ruleIndex);
  const hitPayload = checkCollisionEvent(`${at}.onCollision`, rule.onCollision, ruleIndex);
  // A firework starts at its parent's position: a point shape.
  const values: SpawnValues = { ...spawn, ...pointShape() };
  return { values, payload, hitPayload };
}

/** A payload (`at`: a rule's payload, or an onCollision's): its table entries. */
function checkPayload(at: string, payloadInput: unknown, ruleIndex: ReadonlyMap<number, number>): PayloadEntry[] {
  if (!Array.isArray(payloadInput)) check.refuse(at, payloadInput, 'must be an array of {type, count}');
  if (payloadInput.length > MAX_PAYLOADS)
    check.refuse(`${at}.length`, payloadInput.length, `at most ${MAX_PAYLOADS} payload entries`);
  let total = 0;
  return payloadInput.map((entry: unknown, k: number) => {
    const where = `${at}[${k}]`;
    const p = check.object(where, entry, ['type', 'count']);
    const child = checkFireworkReference(`${where}.type`, p.type, ruleIndex).index;
    const count = check.integer(`${where}.count`, p.count, 0, MAX_PAYLOAD_TOTAL);
    total += count;
    if (total > MAX_PAYLOAD_TOTAL)
      check.refuse(`${where}.count`, count, `a rule's payload counts sum to at most ${MAX_PAYLOAD_TOTAL}`);
    return { rule: child, count };
  });
}

/** A firework type named at `what` (an integer >= 1) and its rule's table index; refused when no rule has the type. */
export function checkFireworkReference(
  what: string,
  value: unknown,
  ruleIndex: ReadonlyMap<number, number>,
): { type: number; index: number } {
  const type = check.integer(what, value, 1, 2 ** 31 - 1);
  const index = ruleIndex.get(type);
  if (index === undefined)
    check.refuse(what, type, `no firework rule has this type (types: ${[...ruleIndex.keys()].join(', ') || 'none'})`);
  return { type, index };
}

/** An onCollision (`at`), or none: its payload's table entries. */
export function checkCollisionEvent(
  at: string,
  input: unknown,
  ruleIndex: ReadonlyMap<number, number>,
): PayloadEntry[] {
  if (input === undefined) return [];
  const event = check.object(at, input, ['payload']);
  if (event.payload === undefined)
    check.refuse(`${at}.payload`, event.payload, 'is required: an array of {type, count}');
  return checkPayload(`${at}.payload`, event.payload, ruleIndex);
}
