/**
 * Emitter and firework-rule input, validated once for every backend (the
 * API, the scene file, the CLI), and packed into spawn-rule records. Every
 * refusal is a SparkworksInputError naming the value (`emitters[2].lifetime`)
 * and the limit it broke, thrown before anything is built, so a refused input
 * changes nothing.
 */
import { SparkworksInputError } from '../errors';
import { isFiniteFloat32, isValidDamping, isValidMass, RULES } from '../particles';
import {
  MAX_EMITTERS,
  MAX_FIREWORK_RULES,
  MAX_PAYLOADS,
  MAX_PAYLOAD_TOTAL,
  SHAPE,
  SPAWN_RULE,
  VELOCITY_MODE,
} from './gpuRecords';
import { WordRecords } from './records';

export type Vec3Like = ArrayLike<number>;
/** One value, or [min, max] (min <= max), drawn uniformly per particle. */
export type RangeInit = number | readonly [number, number];

export type ShapeInit =
  | { type: 'point'; center?: Vec3Like }
  /** A ball (uniform in its volume), or with `surface` its sphere. */
  | { type: 'sphere'; center?: Vec3Like; radius: number; surface?: boolean }
  /** Axis-aligned, uniform in its volume. */
  | { type: 'box'; center?: Vec3Like; halfExtents: Vec3Like }
  /** Uniform over a disc of `radius` across `normal` (default [0, 1, 0]). */
  | { type: 'disc'; center?: Vec3Like; normal?: Vec3Like; radius: number }
  /** Uniform in a solid cone: apex at `center`, along `axis` (default [0, 1, 0]), half-angle `angle` (radians), `height`. */
  | { type: 'cone'; center?: Vec3Like; axis?: Vec3Like; angle: number; height: number };

/**
 * A direction with a spread (half-angle of the cone of directions, radians,
 * uniform over its spherical cap; pi: every direction) and a speed range; or
 * Cyclone's firework velocity, each component uniform in [min, max].
 */
export type VelocityInit =
  { direction?: Vec3Like; spread?: number; speed?: RangeInit } | { min: Vec3Like; max: Vec3Like };

/** What every spawn rule may say about the particles it makes. */
export interface SpawnInit {
  velocity?: VelocityInit;
  /** Mass range > 0 (stored as its inverse). Default 1. */
  mass?: RangeInit;
  /** Share of velocity kept (per second or per step, by the damping mode), in [0, 1]. Default 1. */
  damping?: RangeInit;
  /** Constant acceleration (gravity), Cyclone's per-particle acceleration. */
  acceleration?: Vec3Like;
  /** Collision radius >= 0. Default 0 (a point). */
  radius?: number;
  /** rgb or rgba in [0, 1], packed rgba8. Default white. */
  color?: ArrayLike<number>;
  /** Drawn size >= 0. Default 1. */
  size?: RangeInit;
  /** A particle below this height dies (and delivers its payload); null: no floor. */
  floor?: number | null;
  /** Share of the emitter's velocity (a firework's: its parent's) a particle starts with. Default 1. */
  inherit?: number;
  /** The random stream's seed, an integer in [0, 2^32). */
  seed?: number;
}

export interface EmitterInit extends SpawnInit {
  /** Particles per second >= 0; fractions carry over between steps. Default 0. */
  rate?: number;
  /** Particles emitted at the first step. Default 0. */
  burst?: number;
  /** Where particles start. Default a point at the origin. */
  shape?: ShapeInit;
  /** Seconds a particle lives, >= 0 (0: it dies at the end of its first step). Default 1. */
  lifetime?: RangeInit;
  /** The emitter's own velocity, which particles inherit (times `inherit`). Default [0, 0, 0]. */
  emitterVelocity?: Vec3Like;
  /**
   * Launches fireworks of this type: the particles take the rule's fuse,
   * velocity, mass, damping, acceleration, colour, size and floor, and deliver
   * its payload when they die.
   */
  firework?: number;
}

export interface PayloadInit {
  /** The firework type of the children. */
  type: number;
  /** How many, an integer >= 0. */
  count: number;
}

/**
 * Cyclone's FireworkRule: a type, a fuse, a velocity range, a damping, and a
 * payload of children spawned at the parent's position and velocity when it
 * dies. Defaults follow Cyclone's FireworkRule::create and Firework::update:
 * mass 1, acceleration GRAVITY (0, -9.81, 0), floor 0 (a firework below the
 * ground dies), inherit 1 (children start with the parent's velocity).
 */
export interface FireworkRuleInit extends SpawnInit {
  /** An integer >= 1, unique among the rules (Cyclone numbers them 1 to 9). */
  type: number;
  /** Seconds before it bursts, >= 0 (Cyclone's age range). */
  fuse: RangeInit;
  payload?: readonly PayloadInit[];
}

/** Cyclone's GRAVITY. */
export const GRAVITY = [0, -9.81, 0] as const;
/** Particles per second an emitter may ask for (its u32 fixed-point increment stays exact). */
export const MAX_RATE = 1e9;
/** Particles one burst may ask for. */
export const MAX_BURST = 2 ** 31 - 1;
/** Stored for "no floor": nothing is below -FLT_MAX. */
export const NO_FLOOR = -3.4028234663852886e38;

/** What every spawned particle takes from its emitter or firework rule, beside its velocity and lifetime. */
const SPAWN_KEYS = ['mass', 'damping', 'acceleration', 'radius', 'color', 'size', 'floor'] as const;
export const EMITTER_KEYS = [
  'rate',
  'burst',
  'shape',
  'velocity',
  'lifetime',
  ...SPAWN_KEYS,
  'inherit',
  'seed',
  'emitterVelocity',
  'firework',
] as const;
export const FIREWORK_RULE_KEYS = ['type', 'fuse', 'payload', 'velocity', ...SPAWN_KEYS, 'inherit', 'seed'] as const;
/** What an emitter that launches fireworks takes from the rule, and so may not say itself. */
const FROM_RULE = ['velocity', 'lifetime', ...SPAWN_KEYS] as const;
const SHAPE_KEYS: Record<ShapeInit['type'], readonly string[]> = {
  point: ['type', 'center'],
  sphere: ['type', 'center', 'radius', 'surface'],
  box: ['type', 'center', 'halfExtents'],
  disc: ['type', 'center', 'normal', 'radius'],
  cone: ['type', 'center', 'axis', 'angle', 'height'],
};

function shown(value: unknown): string {
  if (typeof value === 'number') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A refused emitter or firework value: `what` names it (`emitters[2].lifetime`), `rule` is the limit it broke. */
export class EmitterInputError extends SparkworksInputError {
  constructor(
    what: string,
    value: unknown,
    readonly rule: string,
  ) {
    super(`${what} = ${shown(value)} is invalid: ${rule}`, what, value);
  }
}

function refuse(what: string, value: unknown, rule: string): never {
  throw new EmitterInputError(what, value, rule);
}

function checkObject(what: string, value: unknown, known: readonly string[]): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) refuse(what, value, 'must be an object');
  for (const key of Object.keys(value)) {
    if (!known.includes(key))
      refuse(`${what}.${key}`, (value as Record<string, unknown>)[key], `unknown field (known: ${known.join(', ')})`);
  }
  return value as Record<string, unknown>;
}

function checkNumber(what: string, value: unknown, rule: string, ok: (x: number) => boolean): number {
  if (typeof value !== 'number' || !isFiniteFloat32(value) || !ok(value)) refuse(what, value, rule);
  return value;
}

function checkInteger(what: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    refuse(what, value, `must be an integer in [${min}, ${max}]`);
  }
  return value;
}

function checkVector(what: string, value: unknown): [number, number, number] {
  const v = value as ArrayLike<unknown> | null | undefined;
  if (v === null || typeof v !== 'object' || typeof v.length !== 'number' || v.length !== 3) {
    refuse(what, value, 'must be 3 finite numbers [x, y, z]');
  }
  for (let c = 0; c < 3; c++) checkNumber(`${what}[${c}]`, v[c], RULES.vector, () => true);
  return [v[0] as number, v[1] as number, v[2] as number];
}

/** A unit vector from a non-zero one, normalised in float64. */
function checkDirection(what: string, value: unknown): [number, number, number] {
  const v = checkVector(what, value);
  const length = Math.hypot(...v);
  if (!(length > 1e-30)) refuse(what, value, 'must be a non-zero direction');
  return [v[0] / length, v[1] / length, v[2] / length];
}

export interface Range {
  min: number;
  max: number;
}

/** `x` or `[min, max]`, each value passing `ok`, min <= max. */
function checkRange(what: string, value: unknown, rule: string, ok: (x: number) => boolean): Range {
  if (typeof value === 'number') {
    checkNumber(what, value, rule, ok);
    return { min: value, max: value };
  }
  if (!Array.isArray(value) || value.length !== 2) refuse(what, value, `must be a number or [min, max] (${rule})`);
  const min = checkNumber(`${what}[0]`, value[0], rule, ok);
  const max = checkNumber(`${what}[1]`, value[1], rule, ok);
  if (min > max) refuse(what, value, `an empty range: min ${min} > max ${max}`);
  return { min, max };
}

/** Stored (min, span, max) of a range, in float32. */
function stored(range: Range): [number, number, number] {
  return [Math.fround(range.min), Math.fround(range.max - range.min), Math.fround(range.max)];
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
    refuse(what, value, 'must be [r, g, b] or [r, g, b, a], each in [0, 1]');
  }
  let packed = 0;
  for (let i = 0; i < 4; i++) {
    const x = i < c.length ? checkNumber(`${what}[${i}]`, c[i], 'must be in [0, 1]', (v) => v >= 0 && v <= 1) : 1;
    packed |= Math.floor(0.5 + 255 * x) << (8 * i);
  }
  return packed >>> 0;
}

/** A spawn rule as validated numbers, ready to pack. */
interface SpawnValues {
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

function checkShape(
  what: string,
  value: unknown,
): {
  center: number[];
  values: Pick<SpawnValues, 'shape' | 'shapeBasis' | 'radius' | 'height' | 'halfExtents' | 'tanAngle'>;
} {
  const type = (value as { type?: unknown } | null)?.type;
  if (value === null || typeof value !== 'object' || typeof type !== 'string' || !(type in SHAPE_KEYS)) {
    refuse(`${what}.type`, type, `must be one of ${Object.keys(SHAPE_KEYS).join(', ')}`);
  }
  const shape = checkObject(what, value, SHAPE_KEYS[type as ShapeInit['type']]);
  const center = shape.center === undefined ? [0, 0, 0] : checkVector(`${what}.center`, shape.center);
  const nonNegative = (key: string) =>
    checkNumber(`${what}.${key}`, shape[key], 'must be finite and >= 0', (x) => x >= 0);
  const values: Pick<SpawnValues, 'shape' | 'shapeBasis' | 'radius' | 'height' | 'halfExtents' | 'tanAngle'> = {
    shape: SHAPE.point,
    shapeBasis: [X, Y, Z],
    radius: 0,
    height: 0,
    halfExtents: [0, 0, 0],
    tanAngle: 0,
  };
  switch (type as ShapeInit['type']) {
    case 'point':
      break;
    case 'sphere':
      values.radius = nonNegative('radius');
      if (shape.surface !== undefined && typeof shape.surface !== 'boolean') {
        refuse(`${what}.surface`, shape.surface, 'must be true or false');
      }
      values.shape = shape.surface === true ? SHAPE.sphereSurface : SHAPE.sphere;
      break;
    case 'box':
      values.shape = SHAPE.box;
      values.halfExtents = checkVector(`${what}.halfExtents`, shape.halfExtents);
      values.halfExtents.forEach((h, c) => {
        if (h < 0) refuse(`${what}.halfExtents[${c}]`, h, 'must be >= 0');
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
      const angle = checkNumber(
        `${what}.angle`,
        shape.angle,
        'the half-angle must be in [0, pi/2) radians',
        (x) => x >= 0 && x < Math.PI / 2,
      );
      values.tanAngle = Math.tan(angle);
      if (!isFiniteFloat32(values.tanAngle))
        refuse(`${what}.angle`, angle, 'the half-angle must be in [0, pi/2) radians');
      values.height = nonNegative('height');
      const axis = shape.axis === undefined ? Y : checkDirection(`${what}.axis`, shape.axis);
      values.shapeBasis = [...basisAcross(axis), axis] as [number[], number[], number[]];
      break;
    }
  }
  return { center, values };
}

function checkVelocity(
  what: string,
  value: unknown,
): Pick<SpawnValues, 'velocityMode' | 'velocityBasis' | 'oneMinusCosSpread' | 'speed' | 'boxMin' | 'boxMax'> {
  const isBox = value !== null && typeof value === 'object' && ('min' in value || 'max' in value);
  if (isBox) {
    const box = checkObject(what, value, ['min', 'max']);
    const boxMin = checkVector(`${what}.min`, box.min);
    const boxMax = checkVector(`${what}.max`, box.max);
    boxMin.forEach((low, c) => {
      if (low > (boxMax[c] as number))
        refuse(`${what}.min[${c}]`, low, `an empty range: min ${low} > max ${boxMax[c]}`);
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
  const cone = checkObject(what, value, ['direction', 'spread', 'speed']);
  const direction = cone.direction === undefined ? Y : checkDirection(`${what}.direction`, cone.direction);
  const spread =
    cone.spread === undefined
      ? 0
      : checkNumber(
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
function checkSpawn(
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
    input.radius === undefined ? 0 : checkNumber(`${what}.radius`, input.radius, RULES.radius, (x) => x >= 0);
  const color = input.color === undefined ? 0xffffffff : packColor(`${what}.color`, input.color);
  const floorValue = input.floor === undefined ? defaults.floor : input.floor;
  const floor =
    floorValue === null
      ? NO_FLOOR
      : checkNumber(`${what}.floor`, floorValue, 'must be a finite height or null (no floor)', () => true);
  const inherit =
    input.inherit === undefined
      ? 1
      : checkNumber(`${what}.inherit`, input.inherit, 'must be finite (a share of the velocity)', () => true);
  const seed = input.seed === undefined ? defaults.seed : checkInteger(`${what}.seed`, input.seed, 0, 2 ** 32 - 1);
  return { ...velocity, inherit, acceleration, collisionRadius, lifetime, mass, damping, size, color, seed, floor };
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

interface PayloadEntry {
  /** Table index of the child rule. */
  rule: number;
  count: number;
}

/** One emitter's host-side settings: what the per-step frame carries. */
export interface EmitterRuntime {
  rate: number;
  burst: number;
  center: number[];
  velocity: number[];
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

const FIREWORK_SEED_BASE = 0x5eed0000;

/**
 * Validates emitters and firework rules and packs the spawn-rule table.
 * Throws SparkworksInputError naming the first bad value, before returning.
 */
export function prepareSpawnRules(
  emitters: readonly EmitterInit[] = [],
  fireworks: readonly FireworkRuleInit[] = [],
  what = { emitters: 'emitters', fireworks: 'fireworks' },
): PreparedSpawnRules {
  if (!Array.isArray(emitters)) refuse(what.emitters, emitters, 'must be an array of emitters');
  if (!Array.isArray(fireworks)) refuse(what.fireworks, fireworks, 'must be an array of firework rules');
  if (emitters.length > MAX_EMITTERS)
    refuse(`${what.emitters}.length`, emitters.length, `at most ${MAX_EMITTERS} emitters`);
  if (fireworks.length > MAX_FIREWORK_RULES) {
    refuse(`${what.fireworks}.length`, fireworks.length, `at most ${MAX_FIREWORK_RULES} firework rules`);
  }
  const E = emitters.length;
  // First pass: the rule types, so payloads and emitters can name any of them.
  const ruleIndex = new Map<number, number>();
  fireworks.forEach((rule, i) => {
    const at = `${what.fireworks}[${i}]`;
    checkObject(at, rule, FIREWORK_RULE_KEYS);
    const type = checkInteger(`${at}.type`, (rule as { type?: unknown }).type, 1, 2 ** 31 - 1);
    if (ruleIndex.has(type)) refuse(`${at}.type`, type, 'a firework type must be unique among the rules');
    ruleIndex.set(type, E + i);
  });
  const table = new WordRecords(SPAWN_RULE, E + fireworks.length);
  const fireworkTypes: number[] = [];
  let largestRadius = 0;
  let hasPayloads = false;
  const ruleValues: SpawnValues[] = [];

  fireworks.forEach((input, i) => {
    const at = `${what.fireworks}[${i}]`;
    const rule = input as unknown as Record<string, unknown>;
    if (rule.fuse === undefined)
      refuse(`${at}.fuse`, rule.fuse, 'is required: seconds before it bursts, a number or [min, max]');
    const spawn = checkSpawn(at, rule, 'fuse', {
      acceleration: GRAVITY,
      floor: 0,
      seed: (FIREWORK_SEED_BASE + input.type) >>> 0,
    });
    const payloadInput = rule.payload ?? [];
    if (!Array.isArray(payloadInput)) refuse(`${at}.payload`, payloadInput, 'must be an array of {type, count}');
    if (payloadInput.length > MAX_PAYLOADS)
      refuse(`${at}.payload.length`, payloadInput.length, `at most ${MAX_PAYLOADS} payload entries`);
    let total = 0;
    const payload = payloadInput.map((entry: unknown, k: number) => {
      const where = `${at}.payload[${k}]`;
      const p = checkObject(where, entry, ['type', 'count']);
      const type = checkInteger(`${where}.type`, p.type, 1, 2 ** 31 - 1);
      const child = ruleIndex.get(type);
      if (child === undefined)
        refuse(`${where}.type`, type, `no firework rule has this type (types: ${[...ruleIndex.keys()].join(', ')})`);
      const count = checkInteger(`${where}.count`, p.count, 0, MAX_PAYLOAD_TOTAL);
      total += count;
      if (total > MAX_PAYLOAD_TOTAL)
        refuse(`${where}.count`, count, `a rule's payload counts sum to at most ${MAX_PAYLOAD_TOTAL}`);
      return { rule: child, count };
    });
    if (total > 0) hasPayloads = true;
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
    ruleValues.push(values);
    largestRadius = Math.max(largestRadius, values.collisionRadius);
    packSpawn(table, E + i, values, E + i, payload);
  });

  const runtimes: EmitterRuntime[] = emitters.map((input, e) => {
    const at = `${what.emitters}[${e}]`;
    const emitter = checkObject(at, input, EMITTER_KEYS);
    const rate =
      emitter.rate === undefined
        ? 0
        : checkNumber(
            `${at}.rate`,
            emitter.rate,
            `particles per second, finite and in [0, ${MAX_RATE}]`,
            (x) => x >= 0 && x <= MAX_RATE,
          );
    const burst = emitter.burst === undefined ? 0 : checkInteger(`${at}.burst`, emitter.burst, 0, MAX_BURST);
    const { center, values: shape } = checkShape(`${at}.shape`, emitter.shape ?? { type: 'point' });
    const emitterVelocity =
      emitter.emitterVelocity === undefined ? [0, 0, 0] : checkVector(`${at}.emitterVelocity`, emitter.emitterVelocity);
    const seed = emitter.seed === undefined ? e + 1 : checkInteger(`${at}.seed`, emitter.seed, 0, 2 ** 32 - 1);
    const inherit =
      emitter.inherit === undefined
        ? 1
        : checkNumber(`${at}.inherit`, emitter.inherit, 'must be finite (a share of the velocity)', () => true);
    let values: SpawnValues;
    let tag = e;
    if (emitter.firework !== undefined) {
      const type = checkInteger(`${at}.firework`, emitter.firework, 1, 2 ** 31 - 1);
      const index = ruleIndex.get(type);
      if (index === undefined)
        refuse(
          `${at}.firework`,
          type,
          `no firework rule has this type (types: ${[...ruleIndex.keys()].join(', ') || 'none'})`,
        );
      for (const key of FROM_RULE) {
        if (emitter[key] !== undefined)
          refuse(
            `${at}.${key}`,
            emitter[key],
            `an emitter that launches fireworks takes its ${key} from firework rule ${type}`,
          );
      }
      const rule = ruleValues[index - E] as SpawnValues;
      values = { ...rule, ...shape, inherit, seed };
      tag = index;
      fireworkTypes.push(0);
    } else {
      values = { ...checkSpawn(at, emitter, 'lifetime', { acceleration: [0, 0, 0], floor: null, seed }), ...shape };
      fireworkTypes.push(0);
    }
    largestRadius = Math.max(largestRadius, values.collisionRadius);
    packSpawn(table, e, values, tag, []);
    return { rate, burst, center, velocity: emitterVelocity };
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

/** Validates a rate change. */
export function checkRate(what: string, rate: unknown): number {
  return checkNumber(
    what,
    rate,
    `particles per second, finite and in [0, ${MAX_RATE}]`,
    (x) => x >= 0 && x <= MAX_RATE,
  );
}

/** Validates a burst request. */
export function checkBurst(what: string, count: unknown): number {
  return checkInteger(what, count, 0, MAX_BURST);
}

export { checkVector as checkEmitterVector };
