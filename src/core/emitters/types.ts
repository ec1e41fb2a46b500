/**
 * Emitters and firework rules as a user describes them (the API, the scene
 * file, the CLI): the input types, their defaults and limits, and the fields
 * each may name. Validated in params.ts, packed in spawnRules.ts.
 */
import type { Vec3Like } from '../particles';

export type { Vec3Like };
/** One value, or [min, max] (min <= max), drawn uniformly per particle. */
export type RangeInit = number | readonly [number, number];

/** Where an emitter's particles start: a point, a ball or sphere, a box, a disc or a cone, around `center`. */
export type ShapeInit =
  | {
      /** Every particle at `center`. */
      type: 'point';
      /** Default [0, 0, 0]; `emitters.set(i, { position })` moves it. */
      center?: Vec3Like;
    }
  /** A ball (uniform in its volume), or with `surface` its sphere. */
  | {
      /** A ball, or with `surface` a sphere. */
      type: 'sphere';
      /** Default [0, 0, 0]. */
      center?: Vec3Like;
      /** >= 0. */
      radius: number;
      /** true: uniform over the sphere's surface instead of its volume. Default false. */
      surface?: boolean;
    }
  /** Axis-aligned, uniform in its volume. */
  | {
      /** An axis-aligned box. */
      type: 'box';
      /** Default [0, 0, 0]. */
      center?: Vec3Like;
      /** Half the box's size along x, y and z, each >= 0. */
      halfExtents: Vec3Like;
    }
  /** Uniform over a disc of `radius` across `normal` (default [0, 1, 0]). */
  | {
      /** A flat disc. */
      type: 'disc';
      /** Default [0, 0, 0]. */
      center?: Vec3Like;
      /** The disc's normal, any nonzero vector. Default [0, 1, 0]. */
      normal?: Vec3Like;
      /** >= 0. */
      radius: number;
    }
  /** Uniform in a solid cone: apex at `center`, along `axis` (default [0, 1, 0]), half-angle `angle` (radians), `height`. */
  | {
      /** A solid cone. */
      type: 'cone';
      /** The apex. Default [0, 0, 0]. */
      center?: Vec3Like;
      /** The direction it opens along, any nonzero vector. Default [0, 1, 0]. */
      axis?: Vec3Like;
      /** Half-angle, radians, in [0, pi/2). */
      angle: number;
      /** Apex to base along the axis, >= 0. */
      height: number;
    };

/**
 * A direction with a spread (half-angle of the cone of directions, radians,
 * uniform over its spherical cap; pi: every direction) and a speed range; or
 * Cyclone's firework velocity, each component uniform in [min, max].
 */
export type VelocityInit =
  | {
      /** The cone's axis, any nonzero vector. Default [0, 1, 0]. */
      direction?: Vec3Like;
      /** Half-angle of the cone of directions, radians, in [0, pi]. Default 0. */
      spread?: number;
      /** Speed, m/s, >= 0, or a [min, max] range. Default 0. */
      speed?: RangeInit;
    }
  | {
      /** Lowest velocity, per component. */
      min: Vec3Like;
      /** Highest velocity, per component (>= min). */
      max: Vec3Like;
    };

/** What every spawn rule may say about the particles it makes. */
export interface SpawnInit {
  /** A direction, spread and speed, or Cyclone's [min, max] per component. Default: at rest. */
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

/** One emitter: its rate and bursts, its shape, and what the particles it makes start with. */
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
  /** Children spawned where a particle starts touching a collider (an emitter that launches fireworks takes the rule's). */
  onCollision?: CollisionEventInit;
}

/**
 * A collision event: where one of a rule's particles starts touching a
 * collider (it touched none the step before), `payload` is spawned at its
 * position after the contact, inheriting its velocity after the contact (a
 * bounce's, or 0 where it stuck or died), as a death's payload is. The
 * particle keeps its slot unless the collider kills it.
 */
export interface CollisionEventInit {
  /** Firework rules spawned (at most 4 entries, 255 children in all), as a rule's `payload`. */
  payload: readonly PayloadInit[];
}

/** Children a firework spawns when it dies: `count` fireworks of rule `type`. */
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
  /** The children spawned at its death (at most 4 entries, 255 children in all). Default none. */
  payload?: readonly PayloadInit[];
  /** Children spawned where one of its particles starts touching a collider. Default none. */
  onCollision?: CollisionEventInit;
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
export const SPAWN_KEYS = ['mass', 'damping', 'acceleration', 'radius', 'color', 'size', 'floor'] as const;
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
  'onCollision',
] as const;
export const FIREWORK_RULE_KEYS = [
  'type',
  'fuse',
  'payload',
  'velocity',
  ...SPAWN_KEYS,
  'inherit',
  'seed',
  'onCollision',
] as const;
/** What an emitter that launches fireworks takes from the rule, and so may not say itself. */
export const FROM_RULE = ['velocity', 'lifetime', ...SPAWN_KEYS] as const;
export const SHAPE_KEYS: Record<ShapeInit['type'], readonly string[]> = {
  point: ['type', 'center'],
  sphere: ['type', 'center', 'radius', 'surface'],
  box: ['type', 'center', 'halfExtents'],
  disc: ['type', 'center', 'normal', 'radius'],
  cone: ['type', 'center', 'axis', 'angle', 'height'],
};
