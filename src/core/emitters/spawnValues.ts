/**
 * The fields every spawn rule has (an emitter's or a firework rule's): its
 * shape, velocity, ranges, colour, floor and seed, validated into the numbers
 * the spawn-rule table stores (spawnRules.ts packs them).
 */
import { isValidDamping, isValidMass, isValidRadius, RULES } from '../particles';
import { isFiniteFloat32 } from '../validation';
import { SHAPE, VELOCITY_MODE } from './gpuRecords';
import { basisAcross, check, checkDirection, checkRange, checkVector, packColor, type Range } from './inputChecks';
import { NO_FLOOR, SHAPE_KEYS, type ShapeInit } from './types';

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

/** The values of a spawn rule's shape. */
export type ShapeValues = Pick<SpawnValues, 'shape' | 'shapeBasis' | 'radius' | 'height' | 'halfExtents' | 'tanAngle'>;

const X = [1, 0, 0];
const Y = [0, 1, 0];
const Z = [0, 0, 1];

/** A point shape's values (fresh, for the caller to change). */
export function pointShape(): ShapeValues {
  return {
    shape: SHAPE.point,
    shapeBasis: [X, Y, Z],
    radius: 0,
    height: 0,
    halfExtents: [0, 0, 0],
    tanAngle: 0,
  };
}

export function checkShape(what: string, value: unknown): { center: number[]; values: ShapeValues } {
  const types = Object.keys(SHAPE_KEYS) as ShapeInit['type'][];
  const type = check.oneOf(`${what}.type`, (value as { type?: unknown } | null)?.type, types);
  const shape = check.object(what, value, SHAPE_KEYS[type]);
  const center = shape.center === undefined ? [0, 0, 0] : checkVector(`${what}.center`, shape.center);
  const nonNegative = (key: string) =>
    check.finite(`${what}.${key}`, shape[key], 'must be finite and >= 0', (x) => x >= 0);
  const values = pointShape();
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
): Omit<SpawnValues, keyof ShapeValues> {
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
