/**
 * Colliders: the world's fixed shapes (planes, spheres, axis-aligned and
 * oriented boxes), their validation and packed records. Their CPU twin of
 * shaders/collisions/collide.wgsl is ./collide.ts. No GPU imports.
 */
import {
  COLLISION_RULES,
  checkFlag,
  checkKeys,
  checkObject,
  checkVec3,
  isFinite32,
  isNonNegativeFinite32,
  isPositiveFinite32,
  isUnitInterval,
  refuse,
  check,
} from './check';
import { defineStruct, type StructArray } from '../schema';

/** What every collider type also takes: its restitution, friction and kill mode. */
export interface ColliderCommon {
  /** Share of the closing speed given back, in [0, 1]. Default 0 (no bounce). */
  restitution?: number;
  /** Coulomb friction coefficient >= 0. Default 0. */
  friction?: number;
  /** Particles that touch die instead of bouncing (see DEAD_RADIUS): onHit 'die'. Default false. */
  kill?: boolean;
  /**
   * What a particle that touches does: 'bounce' (the contact is resolved,
   * with restitution and friction), 'die' (as `kill: true`) or 'stick' (the
   * contact is resolved, then the particle stops there: velocity 0 and
   * inverse mass 0, so no step or collider moves it again; it keeps its radius,
   * an immovable obstacle, until it dies of age). Default 'bounce', or 'die'
   * with `kill: true`.
   */
  onHit?: ColliderHit;
}

/** What a collider does to a particle that touches it. */
export type ColliderHit = 'bounce' | 'die' | 'stick';
/** What a collider may do to a particle that touches it. */
export const COLLIDER_HITS: readonly ColliderHit[] = ['bounce', 'die', 'stick'];

/** A half-space: particles stay on the side the normal points to, `dot(normal, p) >= offset + radius`. */
export interface PlaneCollider extends ColliderCommon {
  /** Selects the half-space. */
  type: 'plane';
  /** The normal [x, y, z], pointing to the side particles are kept on; any nonzero vector, normalised on the host. */
  normal: ArrayLike<number>;
  /** Default 0. */
  offset?: number;
}
/** A sphere: an obstacle particles stay outside of, or a container they stay inside. */
export interface SphereCollider extends ColliderCommon {
  /** Selects the sphere. */
  type: 'sphere';
  /** Its centre [x, y, z], m. */
  center: ArrayLike<number>;
  /** Its radius, m, > 0. */
  radius: number;
  /** true: particles are kept inside (a container); false: outside (an obstacle). Default false. */
  inside?: boolean;
}
/** An axis-aligned box: an obstacle or a container. */
export interface BoxCollider extends ColliderCommon {
  /** Selects the axis-aligned box. */
  type: 'box';
  /** Its centre [x, y, z], m. */
  center: ArrayLike<number>;
  /** Half its size along x, y and z, m, each > 0. */
  halfExtents: ArrayLike<number>;
  /** true: particles are kept inside (a container); false: outside (an obstacle). Default false. */
  inside?: boolean;
}
/** A box turned by a quaternion: an obstacle or a container. */
export interface OrientedBoxCollider extends ColliderCommon {
  /** Selects the oriented box. */
  type: 'orientedBox';
  /** Its centre [x, y, z], m. */
  center: ArrayLike<number>;
  /** Half its size along its own axes, m, each > 0. */
  halfExtents: ArrayLike<number>;
  /** A quaternion [x, y, z, w] (gl-matrix order) turning the box's axes into the world's; normalised. */
  rotation: ArrayLike<number>;
  /** true: particles are kept inside (a container); false: outside (an obstacle). Default false. */
  inside?: boolean;
}
/** Any collider: one of the types above, told apart by `type`. */
export type ColliderInit = PlaneCollider | SphereCollider | BoxCollider | OrientedBoxCollider;

/** Every collider type a system accepts. */
export const COLLIDER_TYPES = ['plane', 'sphere', 'box', 'orientedBox'] as const;
/** Colliders a system may have at once: every particle tests every one. */
export const MAX_COLLIDERS = 64;

export const KIND_PLANE = 0;
export const KIND_SPHERE = 1;
export const KIND_BOX = 2;
export const FLAG_INSIDE = 1;
export const FLAG_KILL = 2;
/** onHit 'stick': resolved, then parked where it touched (inverse mass 0, at rest). */
export const FLAG_STICK = 4;
/**
 * A particle's collision-event lane (the particle record's spare float, w of
 * forceAccumSpare): 0 for a particle the lifecycle does not track (every
 * permanent particle: the colliders never write it), else TRACKED plus
 * TOUCHED_NOW (a collider touched it this step: the colliders set it) plus
 * TOUCHED_BEFORE (it touched one the step before: the lifecycle moves
 * TOUCHED_NOW there after each step). Small integers, exact in float32.
 */
export const CONTACT_TRACKED = 4;
export const CONTACT_TOUCHED_NOW = 1;
export const CONTACT_TOUCHED_BEFORE = 2;
/**
 * The radius a killed particle gets. Killing sets inverse mass 0 (the step
 * skips it, Cyclone's rule for infinite mass) and velocity 0 (parked where it
 * touched); the negative radius is the mark every collision pass reads as "no
 * particle": not an obstacle, not in the grid. Writing a radius >= 0 and a
 * mass revives the slot, which is how emitters will recycle it.
 */
export const DEAD_RADIUS = -1;

/** The collider record (80 bytes); shaders/collisions/collide.wgsl's `Collider` is generated from it. */
export const COLLIDER = defineStruct('Collider', {
  center: 'vec3f',
  kind: 'u32',
  /** Plane: the unit normal. Box: its x axis in world space. */
  axis0: { type: 'vec3f', doc: 'plane: the unit normal; box: its x axis in world space' },
  flags: 'u32',
  axis1: 'vec3f',
  restitution: 'f32',
  axis2: 'vec3f',
  friction: 'f32',
  size: { type: 'vec3f', doc: 'plane: (offset, 0, 0); sphere: (radius, 0, 0); box: half extents' },
  pad: 'f32',
});
/** Packed collider records on the host. */
export type PackedColliders = StructArray<typeof COLLIDER.fields>;
export const COLLIDER_WORDS = COLLIDER.words;

/** Whether any collider sticks (the step with the colliders fused into it has no stick: such a set runs the colliders pass). */
export function hasStickCollider(colliders: PackedColliders): boolean {
  for (let i = 0; i < colliders.count; i++) if ((colliders.get(i, 'flags') & FLAG_STICK) !== 0) return true;
  return false;
}

export function wgslColliderStruct(): string {
  return COLLIDER.wgsl();
}

/** The kinds and flags of the records, as WGSL constants: defined here once, printed into every collider kernel. */
export function wgslColliderConstants(): string {
  return [
    `const KIND_PLANE: u32 = ${KIND_PLANE}u;`,
    `const KIND_SPHERE: u32 = ${KIND_SPHERE}u;`,
    `const KIND_BOX: u32 = ${KIND_BOX}u;`,
    `const FLAG_INSIDE: u32 = ${FLAG_INSIDE}u;`,
    `const FLAG_KILL: u32 = ${FLAG_KILL}u;`,
    `const FLAG_STICK: u32 = ${FLAG_STICK}u;`,
  ].join('\n');
}

/** The keys each collider type may have (the scene's JSON Schema lists them too). */
export const COLLIDER_KEYS = {
  plane: ['type', 'normal', 'offset', 'restitution', 'friction', 'kill', 'onHit'],
  sphere: ['type', 'center', 'radius', 'inside', 'restitution', 'friction', 'kill', 'onHit'],
  box: ['type', 'center', 'halfExtents', 'inside', 'restitution', 'friction', 'kill', 'onHit'],
  orientedBox: ['type', 'center', 'halfExtents', 'rotation', 'inside', 'restitution', 'friction', 'kill', 'onHit'],
} as const;

/** Rotation matrix columns (the box's axes in world space) of a unit quaternion, in float64. */
function quaternionAxes(q: readonly number[]): [number[], number[], number[]] {
  const [x, y, z, w] = q as [number, number, number, number];
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
    [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
    [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/**
 * Validates colliders and packs them into records. Throws SparkworksInputError
 * naming the first bad value (e.g. `colliders[2].radius`) and its limit before
 * returning anything, so a refused list changes nothing.
 */
export function prepareColliders(colliders: readonly ColliderInit[], what = 'colliders'): PackedColliders {
  if (!Array.isArray(colliders)) refuse(what, colliders, 'must be an array of colliders');
  if (colliders.length > MAX_COLLIDERS) {
    refuse(`${what}.length`, colliders.length, `at most ${MAX_COLLIDERS} colliders (each particle tests every one)`);
  }
  const packed = COLLIDER.array(colliders.length);
  colliders.forEach((input, i) => {
    const at = `${what}[${i}]`;
    const collider = checkObject(at, input);
    const type = collider.type as ColliderInit['type'];
    if (!COLLIDER_TYPES.includes(type))
      refuse(`${at}.type`, collider.type, `must be one of ${COLLIDER_TYPES.join(', ')}`);
    checkKeys(at, collider, COLLIDER_KEYS[type]);
    const restitution = check.number(
      `${at}.restitution`,
      collider.restitution ?? 0,
      COLLISION_RULES.restitution,
      isUnitInterval,
    );
    const friction = check.number(
      `${at}.friction`,
      collider.friction ?? 0,
      COLLISION_RULES.friction,
      isNonNegativeFinite32,
    );
    const legacyKill = checkFlag(`${at}.kill`, collider.kill);
    const onHit = collider.onHit ?? (legacyKill ? 'die' : 'bounce');
    if (!COLLIDER_HITS.includes(onHit as ColliderHit))
      refuse(`${at}.onHit`, collider.onHit, `must be one of ${COLLIDER_HITS.join(', ')}`);
    if (legacyKill && onHit !== 'die') refuse(`${at}.onHit`, collider.onHit, "kill: true means onHit 'die'");
    const kill = onHit === 'die';
    const stick = onHit === 'stick';
    const inside = type === 'plane' ? false : checkFlag(`${at}.inside`, collider.inside);
    // A -0 packed as +0: the fused step takes a collider without restitution to have +0 (colliderComposition.ts).
    packed.set(i, 'restitution', Math.abs(restitution));
    packed.set(i, 'friction', friction);
    packed.set(i, 'flags', (inside ? FLAG_INSIDE : 0) | (kill ? FLAG_KILL : 0) | (stick ? FLAG_STICK : 0));
    if (type === 'plane') {
      const normal = checkVec3(`${at}.normal`, collider.normal);
      const length = Math.hypot(...normal);
      const unit = normal.map((x) => Math.fround(x / length));
      if (!(length > 0) || !Number.isFinite(length) || unit.every((x) => x === 0)) {
        refuse(`${at}.normal`, normal, COLLISION_RULES.normal);
      }
      const offset = check.number(`${at}.offset`, collider.offset ?? 0, `offset ${COLLISION_RULES.offset}`, isFinite32);
      packed.set(i, 'kind', KIND_PLANE);
      packed.set(i, 'axis0', unit);
      packed.set(i, 'size', [offset, 0, 0]);
      return;
    }
    const center = checkVec3(`${at}.center`, collider.center);
    packed.set(i, 'center', center);
    if (type === 'sphere') {
      const radius = check.number(
        `${at}.radius`,
        collider.radius,
        `radius ${COLLISION_RULES.positive}`,
        isPositiveFinite32,
      );
      packed.set(i, 'kind', KIND_SPHERE);
      packed.set(i, 'size', [radius, 0, 0]);
      return;
    }
    const halfExtents = checkVec3(`${at}.halfExtents`, collider.halfExtents);
    halfExtents.forEach((h, c) => {
      if (!isPositiveFinite32(h)) refuse(`${at}.halfExtents[${c}]`, h, `half extents ${COLLISION_RULES.positive}`);
    });
    let axes: number[][] = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    if (type === 'orientedBox') {
      const rotation = checkVec3(`${at}.rotation`, collider.rotation, 4);
      const norm = Math.hypot(...rotation);
      if (!(norm > 0) || !Number.isFinite(norm)) refuse(`${at}.rotation`, rotation, COLLISION_RULES.rotation);
      axes = quaternionAxes(rotation.map((x) => x / norm));
    }
    packed.set(i, 'kind', KIND_BOX);
    packed.set(i, 'axis0', axes[0] as number[]);
    packed.set(i, 'axis1', axes[1] as number[]);
    packed.set(i, 'axis2', axes[2] as number[]);
    packed.set(i, 'size', halfExtents);
  });
  return packed;
}
