/**
 * Emitter and firework-rule input, validated once for every backend (the
 * API, the scene file, the CLI) into the numbers a spawn rule stores
 * (spawnRules.ts packs them). Every refusal is an EmitterInputError naming
 * the value (`emitters[2].lifetime`) and the limit it broke, in the shared
 * wording (src/core/validation.ts), thrown before anything is built, so a
 * refused input changes nothing.
 */
import { SparkworksInputError } from '../errors';
import { isValidDamping, isValidMass, isValidRadius, RULES } from '../particles';
import { isFiniteFloat32, refusalMessage, validator, type Validator } from '../validation';
import { MAX_EMITTERS, MAX_FIREWORK_RULES, MAX_PAYLOADS, MAX_PAYLOAD_TOTAL, SHAPE, VELOCITY_MODE } from './gpuRecords';
import {
  EMITTER_KEYS,
  FIREWORK_RULE_KEYS,
  FROM_RULE,
  GRAVITY,
  MAX_BURST,
  MAX_RATE,
  NO_FLOOR,
  SHAPE_KEYS,
  type EmitterInit,
  type FireworkRuleInit,
  type ShapeInit,
} from './types';

/** The emitters' refusals: SparkworksInputError, in the shared wording (src/core/validation.ts). */
const check: Validator = validator();

type Vec3 = [number, number, number];

function checkVector(what: string, value: unknown): Vec3 {
  return check.vector(what, value, 'must be 3 finite numbers [x, y, z]', { componentRule: RULES.vector }) as Vec3;
}

/** A unit vector from a non-zero one, normalised in float64. */
function checkDirection(what: string, value: unknown): Vec3 {
  const v = checkVector(what, value);
  const length = Math.hypot(...v);
  if (!(length > 1e-30)) check.refuse(what, value, 'must be a non-zero direction');
  return [v[0] / length, v[1] / length, v[2] / length];
}

export interface Range {
  min: number;
  max: number;
}

/** `x` or `[min, max]`, each value finite and passing `ok`, min <= max. */
function checkRange(what: string, value: unknown, rule: string, ok: (x: number) => boolean): Range {
  if (typeof value === 'number') {
    check.finite(what, value, rule, ok);
    return { min: value, max: value };
  }
  if (!Array.isArray(value) || value.length !== 2)
    check.refuse(what, value, `must be a number or [min, max] (${rule})`);
  const min = check.finite(`${what}[0]`, value[0], rule, ok);
  const max = check.finite(`${what}[1]`, value[1], rule, ok);
  if (min > max) check.refuse(what, value, `an empty range: min ${min} > max ${max}`);
  return { min, max };
}

/** An orthonormal basis (x, y) across the unit `z`, right-handed: Duff et al., "Building an Orthonormal Basis, Revisited" (JCGT 2017). */
export function basisAcross(z: readonly number[]): [number[], number[]] {
  const [nx, ny, nz] = z as [number, number, number];
  const sign = nz >= 0 ? 1 : -1;
  const a = -1 / (sign + nz);
  const b = nx * ny * a;
  return [
    [1 + sign * nx * nx * a, sign * b, -sign * nx],
    [b, sign + ny * ny * a, -ny],
  ];
}

/** rgba8 as WGSL's pack4x8unorm packs it: floor(0.5 + 255 * clamp(c, 0, 1)), r in the low byte. */
export function packColor(what: string, value: unknown): number {
  const c = value as ArrayLike<unknown> | null | undefined;
  if (c === null || typeof c !== 'object' || typeof c.length !== 'number' || (c.length !== 3 && c.length !== 4)) {
    check.refuse(what, value, 'must be [r, g, b] or [r, g, b, a], each in [0, 1]');
  }
  let packed = 0;
  for (let i = 0; i < 4; i++) {
    const x = i < c.length ? check.finite(`${what}[${i}]`, c[i], 'must be in [0, 1]', (v) => v >= 0 && v <= 1) : 1;
    packed |= Math.floor(0.5 + 255 * x) << (8 * i);
  }
  return packed >>> 0;
}

/** A spawn rule as validated numbers, ready to pack. */
export interface SpawnValues {
  shape: number;
  shapeBasis: [number[], number[], number[]];
  radius: number;
  height: number;
  halfExtents: number[];
  tanAngle: number;
  velocityMode: number;
  velocityBasis: [number[], number[], number[]];
  oneMinusCosSpread: number;
  speed: Range;
  boxMin: number[];
  boxMax: number[];
  inherit: number;
  acceleration: number[];
  collisionRadius: number;
  lifetime: Range;
  mass: Range;
  damping: Range;
  size: Range;
  color: number;
  seed: number;
  floor: number;
}

const X = [1, 0, 0];
const Y = [0, 1, 0];
const Z = [0, 0, 1];

export function checkShape(
  what: string,
  value: unknown,
): {
  center: number[];
  values: Pick<SpawnValues, 'shape' | 'shapeBasis' | 'radius' | 'height' | 'halfExtents' | 'tanAngle'>;
} {
  const types = Object.keys(SHAPE_KEYS) as ShapeInit['type'][];
  const type = check.oneOf(`${what}.type`, (value as { type?: unknown } | null)?.type, types);
  const shape = check.object(what, value, SHAPE_KEYS[type]);
  const center = shape.center === undefined ? [0, 0, 0] : checkVector(`${what}.center`, shape.center);
  const nonNegative = (key: string) =>
    check.finite(`${what}.${key}`, shape[key], 'must be finite and >= 0', (x) => x >= 0);
  const values: Pick<SpawnValues, 'shape' | 'shapeBasis' | 'radius' | 'height' | 'halfExtents' | 'tanAngle'> = {
    shape: SHAPE.point,
    shapeBasis: [X, Y, Z],
    radius: 0,
    height: 0,
    halfExtents: [0, 0, 0],
    tanAngle: 0,
  };
  switch (type) {
    case 'point':
      break;
    case 'sphere':
      values.radius = nonNegative('radius');
      values.shape = check.flag(`${what}.surface`, shape.surface) ? SHAPE.sphereSurface : SHAPE.sphere;
      break;
    case 'box':
      values.shape = SHAPE.box;
      values.halfExtents = checkVector(`${what}.halfExtents`, shape.halfExtents);
      values.halfExtents.forEach((h, c) => {
        if (h < 0) check.refuse(`${what}.halfExtents[${c}]`, h, 'must be >= 0');
      });
      break;
    case 'disc': {
      values.shape = SHAPE.disc;
      values.radius = nonNegative('radius');
      const normal = shape.normal === undefined ? Y : checkDirection(`${what}.normal`, shape.normal);
      values.shapeBasis = [...basisAcross(normal), normal] as [number[], number[], number[]];
      break;
    }
    case 'cone': {
      values.shape = SHAPE.cone;
      const angle = check.finite(
        `${what}.angle`,
        shape.angle,
        'the half-angle must be in [0, pi/2) radians',
        (x) => x >= 0 && x < Math.PI / 2,
      );
      values.tanAngle = Math.tan(angle);
      if (!isFiniteFloat32(values.tanAngle))
        check.refuse(`${what}.angle`, angle, 'the half-angle must be in [0, pi/2) radians');
      values.height = nonNegative('height');
      const axis = shape.axis === undefined ? Y : checkDirection(`${what}.axis`, shape.axis);
      values.shapeBasis = [...basisAcross(axis), axis] as [number[], number[], number[]];
      break;
    }
  }
  return { center, values };
}

export function checkVelocity(
  what: string,
  value: unknown,
): Pick<SpawnValues, 'velocityMode' | 'velocityBasis' | 'oneMinusCosSpread' | 'speed' | 'boxMin' | 'boxMax'> {
  const isBox = value !== null && typeof value === 'object' && ('min' in value || 'max' in value);
  if (isBox) {
    const box = check.object(what, value, ['min', 'max']);
    const boxMin = checkVector(`${what}.min`, box.min);
    const boxMax = checkVector(`${what}.max`, box.max);
    boxMin.forEach((low, c) => {
      if (low > (boxMax[c] as number))
        check.refuse(`${what}.min[${c}]`, low, `an empty range: min ${low} > max ${boxMax[c]}`);
    });
    return {
      velocityMode: VELOCITY_MODE.box,
      velocityBasis: [X, Y, Z],
      oneMinusCosSpread: 0,
      speed: { min: 0, max: 0 },
      boxMin,
      boxMax,
    };
  }
  const cone = check.object(what, value, ['direction', 'spread', 'speed']);
  const direction = cone.direction === undefined ? Y : checkDirection(`${what}.direction`, cone.direction);
  const spread =
    cone.spread === undefined
      ? 0
      : check.finite(
          `${what}.spread`,
          cone.spread,
          'the half-angle must be in [0, pi] radians',
          (x) => x >= 0 && x <= Math.PI,
        );
  const speed =
    cone.speed === undefined
      ? { min: 0, max: 0 }
      : checkRange(`${what}.speed`, cone.speed, 'must be finite and >= 0', (x) => x >= 0);
  return {
    velocityMode: VELOCITY_MODE.cone,
    velocityBasis: [...basisAcross(direction), direction] as [number[], number[], number[]],
    oneMinusCosSpread: 1 - Math.cos(spread),
    speed,
    boxMin: [0, 0, 0],
    boxMax: [0, 0, 0],
  };
}

/** The fields every spawn rule shares, with the defaults given. */
export function checkSpawn(
  what: string,
  input: Record<string, unknown>,
  lifetimeKey: 'lifetime' | 'fuse',
  defaults: { acceleration: readonly number[]; floor: number | null; seed: number },
): Omit<SpawnValues, 'shape' | 'shapeBasis' | 'radius' | 'height' | 'halfExtents' | 'tanAngle'> {
  const velocity = checkVelocity(`${what}.velocity`, input.velocity ?? {});
  const lifetimeValue = input[lifetimeKey] ?? 1;
  const lifetime = checkRange(
    `${what}.${lifetimeKey}`,
    lifetimeValue,
    'seconds, finite and >= 0 (0: dies at the end of its first step)',
    (x) => x >= 0,
  );
  const mass = checkRange(`${what}.mass`, input.mass ?? 1, RULES.mass, isValidMass);
  const damping = checkRange(`${what}.damping`, input.damping ?? 1, RULES.damping, isValidDamping);
  const size = checkRange(`${what}.size`, input.size ?? 1, 'must be finite and >= 0', (x) => x >= 0);
  const acceleration =
    input.acceleration === undefined
      ? [...defaults.acceleration]
      : checkVector(`${what}.acceleration`, input.acceleration);
  const collisionRadius =
    input.radius === undefined ? 0 : check.finite(`${what}.radius`, input.radius, RULES.radius, isValidRadius);
  const color = input.color === undefined ? 0xffffffff : packColor(`${what}.color`, input.color);
  const floorValue = input.floor === undefined ? defaults.floor : input.floor;
  const floor =
    floorValue === null
      ? NO_FLOOR
      : check.finite(`${what}.floor`, floorValue, 'must be a finite height or null (no floor)');
  const inherit =
    input.inherit === undefined
      ? 1
      : check.finite(`${what}.inherit`, input.inherit, 'must be finite (a share of the velocity)');
  const seed = input.seed === undefined ? defaults.seed : check.integer(`${what}.seed`, input.seed, 0, 2 ** 32 - 1);
  return { ...velocity, inherit, acceleration, collisionRadius, lifetime, mass, damping, size, color, seed, floor };
}

/** Table index and count of one payload entry. */
export interface PayloadEntry {
  /** Table index of the child rule. */
  rule: number;
  count: number;
}

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
  const values: SpawnValues = {
    ...spawn,
    shape: SHAPE.point,
    shapeBasis: [X, Y, Z],
    radius: 0,
    height: 0,
    halfExtents: [0, 0, 0],
    tanAngle: 0,
  };
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
    const type = check.integer(`${where}.type`, p.type, 1, 2 ** 31 - 1);
    const child = ruleIndex.get(type);
    if (child === undefined)
      check.refuse(
        `${where}.type`,
        type,
        `no firework rule has this type (types: ${[...ruleIndex.keys()].join(', ') || 'none'})`,
      );
    const count = check.integer(`${where}.count`, p.count, 0, MAX_PAYLOAD_TOTAL);
    total += count;
    if (total > MAX_PAYLOAD_TOTAL)
      check.refuse(`${where}.count`, count, `a rule's payload counts sum to at most ${MAX_PAYLOAD_TOTAL}`);
    return { rule: child, count };
  });
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
  const type = check.integer(`${at}.firework`, emitter.firework, 1, 2 ** 31 - 1);
  const index = ruleIndex.get(type);
  if (index === undefined)
    check.refuse(
      `${at}.firework`,
      type,
      `no firework rule has this type (types: ${[...ruleIndex.keys()].join(', ') || 'none'})`,
    );
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

export { checkVector as checkEmitterVector };
