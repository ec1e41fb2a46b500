/**
 * What the playground draws of a scene besides its particles, as polylines
 * for the line pass (xyz strips): colliders as wireframes (a plane as a patch
 * of grid lines, a sphere as three great circles, a box as its twelve edges),
 * the emitters' shapes (point, ball, box, disc, cone) and the anchors of
 * links. Also the scene's extent, to frame the camera on.
 *
 * Pure data from the parsed scene (values already checked by parseScene).
 */
import type { Scene } from '../../scene/scene';

type Vec3 = [number, number, number];
export type Strip = number[];

const CIRCLE_SEGMENTS = 48;
/** Cyclone's gravity, m/s², which firework rules fall under by default. */
const GRAVITY = 9.81;

function vec(value: unknown, fallback: Vec3): Vec3 {
  if (!Array.isArray(value) || value.length < 3) return [...fallback];
  return [Number(value[0]), Number(value[1]), Number(value[2])];
}

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
function normalise(a: Vec3, fallback: Vec3 = [0, 1, 0]): Vec3 {
  const length = Math.hypot(a[0], a[1], a[2]);
  return length > 0 ? scale(a, 1 / length) : [...fallback];
}

/** Two unit axes spanning the plane across `normal` (unit). */
export function planeAxes(normal: Vec3): [Vec3, Vec3] {
  const helper: Vec3 = Math.abs(normal[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
  const u = normalise(cross(helper, normal));
  return [u, cross(normal, u)];
}

/** A circle of `radius` around `centre` across the unit `normal`, closed. */
export function circle(centre: Vec3, normal: Vec3, radius: number): Strip {
  const [u, v] = planeAxes(normal);
  const strip: Strip = [];
  for (let i = 0; i <= CIRCLE_SEGMENTS; i++) {
    const angle = (i / CIRCLE_SEGMENTS) * 2 * Math.PI;
    const p = add(centre, add(scale(u, Math.cos(angle) * radius), scale(v, Math.sin(angle) * radius)));
    strip.push(...p);
  }
  return strip;
}

/** Three great circles of a sphere. */
export function sphere(centre: Vec3, radius: number): Strip[] {
  return [circle(centre, [1, 0, 0], radius), circle(centre, [0, 1, 0], radius), circle(centre, [0, 0, 1], radius)];
}

/** Rotates `p` by the unit quaternion [x, y, z, w] (gl-matrix's vec3.transformQuat). */
function rotate(p: Vec3, q: readonly number[]): Vec3 {
  const [qx = 0, qy = 0, qz = 0, qw = 1] = q;
  const uv = cross([qx, qy, qz], p);
  const uuv = cross([qx, qy, qz], uv);
  return add(p, add(scale(uv, 2 * qw), scale(uuv, 2)));
}

/** A box's twelve edges: its bottom and top loops and four uprights, turned by `rotation` when given. */
export function box(centre: Vec3, half: Vec3, rotation?: readonly number[]): Strip[] {
  const length = rotation ? Math.hypot(...rotation) || 1 : 1;
  const q = rotation?.map((x) => x / length);
  const corner = (sx: number, sy: number, sz: number): Vec3 => {
    const local: Vec3 = [sx * half[0], sy * half[1], sz * half[2]];
    return add(centre, q ? rotate(local, q) : local);
  };
  const loop = (sy: number) => [
    ...corner(-1, sy, -1),
    ...corner(1, sy, -1),
    ...corner(1, sy, 1),
    ...corner(-1, sy, 1),
    ...corner(-1, sy, -1),
  ];
  const uprights = [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([sx, sz]) => [...corner(sx as number, -1, sz as number), ...corner(sx as number, 1, sz as number)]);
  return [loop(-1), loop(1), ...uprights];
}

/** A patch of a plane, `halfSize` around `centre`, as grid lines `spacing` apart. */
export function planePatch(centre: Vec3, normal: Vec3, halfSize: number, spacing: number): Strip[] {
  const [u, v] = planeAxes(normal);
  const lines = Math.max(1, Math.min(64, Math.round(halfSize / spacing)));
  const strips: Strip[] = [];
  for (let i = -lines; i <= lines; i++) {
    const t = (i / lines) * halfSize;
    for (const [along, across] of [
      [u, v],
      [v, u],
    ] as const) {
      const base = add(centre, scale(across, t));
      strips.push([...add(base, scale(along, -halfSize)), ...add(base, scale(along, halfSize))]);
    }
  }
  return strips;
}

/** A small three-axis cross at `p`. */
export function cross3(p: Vec3, size: number): Strip[] {
  return [0, 1, 2].map((axis) => {
    const d: Vec3 = [0, 0, 0];
    d[axis] = size;
    return [...add(p, scale(d, -1)), ...add(p, d)];
  });
}

/** The extent of what a scene places: its particles, colliders (planes aside), emitter shapes and anchors. */
export interface SceneExtent {
  centre: Vec3;
  /** Half the box's diagonal, at least a small floor. */
  radius: number;
}

export function sceneExtent(scene: Scene): SceneExtent {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const include = (p: Vec3, r = 0) => {
    for (let c = 0; c < 3; c++) {
      const x = p[c] as number;
      if (!Number.isFinite(x)) continue;
      min[c] = Math.min(min[c] as number, x - r);
      max[c] = Math.max(max[c] as number, x + r);
    }
  };
  for (const particle of scene.particles) {
    const position = vec(particle.position, [0, 0, 0]);
    include(position, particle.radius ?? scene.radius ?? 0);
    // Where a second of flight takes it (acceleration aside): a thrown particle stays in view a while.
    include(add(position, vec(particle.velocity, [0, 0, 0])));
  }
  for (const collider of (scene.colliders ?? []) as Record<string, unknown>[]) {
    if (collider.type === 'sphere') include(vec(collider.center, [0, 0, 0]), Number(collider.radius));
    if (collider.type === 'box' || collider.type === 'orientedBox') {
      const half = vec(collider.halfExtents, [0, 0, 0]);
      include(vec(collider.center, [0, 0, 0]), Math.hypot(...half));
    }
  }
  for (const emitter of (scene.emitters ?? []) as Record<string, unknown>[]) {
    const shape = (emitter.shape ?? {}) as Record<string, unknown>;
    const size = Number(shape.radius ?? shape.height ?? 0) || Math.hypot(...vec(shape.halfExtents, [0, 0, 0]));
    const centre = vec(shape.center, [0, 0, 0]);
    include(centre, size);
    // As for particles, where a second of flight (or its whole life, if shorter) takes the fastest it makes.
    const velocity = (emitter.velocity ?? {}) as Record<string, unknown>;
    const speed = Array.isArray(velocity.speed) ? Number(velocity.speed[1]) : Number(velocity.speed ?? 0);
    const life = Array.isArray(emitter.lifetime) ? Number(emitter.lifetime[1]) : Number(emitter.lifetime ?? 1);
    const flight = speed * Math.min(1, life);
    if (Number.isFinite(flight) && flight > 0) {
      include(add(centre, scale(normalise(vec(velocity.direction, [0, 1, 0])), flight)));
    }
  }
  for (const link of (scene.links ?? []) as Record<string, unknown>[]) {
    if (link.anchor) include(vec(link.anchor, [0, 0, 0]));
  }
  // Rockets climb out of their emitters' shapes: frame the height the middle one of the launched rules bursts at,
  // at its fastest, for its longest fuse, under Cyclone's gravity (a few long-fused rockets leave the view).
  const rules = (scene.fireworks ?? []) as Record<string, unknown>[];
  const heights = ((scene.emitters ?? []) as Record<string, unknown>[])
    .map((emitter) => rules.find((rule) => rule.type === emitter.firework))
    .filter((rule): rule is Record<string, unknown> => rule !== undefined)
    .map((rule) => {
      const speed = Math.max(0, vec(((rule.velocity ?? {}) as Record<string, unknown>).max, [0, 0, 0])[1]);
      const fuse = Array.isArray(rule.fuse) ? Number(rule.fuse[1]) : Number(rule.fuse ?? 0);
      const t = Math.min(Number.isFinite(fuse) ? fuse : 0, speed / GRAVITY);
      return speed * t - 0.5 * GRAVITY * t * t;
    })
    .sort((a, b) => a - b);
  const climb = heights[Math.floor(heights.length / 2)] ?? 0;
  if (climb > 0 && Number.isFinite(max[1])) include([min[0], max[1] + climb, min[2]]);
  if (!Number.isFinite(min[0])) return { centre: [0, 0, 0], radius: 1 };
  const centre: Vec3 = [0, 1, 2].map((c) => ((min[c] as number) + (max[c] as number)) / 2) as Vec3;
  const radius = Math.max(Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2, 0.5);
  return { centre, radius };
}

/** A grid spacing of 1, 2 or 5 times a power of ten, about `size / 10`. */
export function niceSpacing(size: number): number {
  const raw = size / 10;
  const power = 10 ** Math.floor(Math.log10(raw));
  const mantissa = raw / power;
  return (mantissa < 2 ? 1 : mantissa < 5 ? 2 : 5) * power;
}

/** A plane collider's point nearest `towards`, and its unit normal. */
export function planeFrame(collider: Record<string, unknown>, towards: Vec3): { centre: Vec3; normal: Vec3 } {
  const normal = normalise(vec(collider.normal, [0, 1, 0]));
  const offset = Number(collider.offset ?? 0);
  const d = towards[0] * normal[0] + towards[1] * normal[1] + towards[2] * normal[2] - offset;
  return { centre: add(towards, scale(normal, -d)), normal };
}

/**
 * The colliders as wireframes, but for `except` (the plane a page draws as its ground grid instead); planes as
 * patches around the point nearest the scene's centre.
 */
export function colliderStrips(scene: Scene, extent: SceneExtent, except?: unknown): Strip[] {
  const strips: Strip[] = [];
  const halfSize = extent.radius * 1.5;
  for (const collider of (scene.colliders ?? []) as Record<string, unknown>[]) {
    if (collider === except) continue;
    const centre = vec(collider.center, [0, 0, 0]);
    switch (collider.type) {
      case 'plane': {
        const frame = planeFrame(collider, extent.centre);
        strips.push(...planePatch(frame.centre, frame.normal, halfSize, niceSpacing(halfSize * 2)));
        break;
      }
      case 'sphere':
        strips.push(...sphere(centre, Number(collider.radius)));
        break;
      case 'box':
        strips.push(...box(centre, vec(collider.halfExtents, [0, 0, 0])));
        break;
      case 'orientedBox':
        strips.push(...box(centre, vec(collider.halfExtents, [0, 0, 0]), vec4(collider.rotation)));
        break;
    }
  }
  return strips;
}

function vec4(value: unknown): number[] {
  return Array.isArray(value) && value.length === 4 ? value.map(Number) : [0, 0, 0, 1];
}

/** The emitters' shapes, and the link anchors as small crosses. */
export function emitterStrips(scene: Scene, extent: SceneExtent): Strip[] {
  const strips: Strip[] = [];
  const mark = extent.radius * 0.03;
  for (const emitter of (scene.emitters ?? []) as Record<string, unknown>[]) {
    const shape = (emitter.shape ?? { type: 'point' }) as Record<string, unknown>;
    const centre = vec(shape.center, [0, 0, 0]);
    switch (shape.type) {
      case 'point':
        strips.push(...cross3(centre, mark));
        break;
      case 'sphere':
        strips.push(...sphere(centre, Math.max(Number(shape.radius), mark)));
        break;
      case 'box':
        strips.push(...box(centre, vec(shape.halfExtents, [0, 0, 0])));
        break;
      case 'disc': {
        const normal = normalise(vec(shape.normal, [0, 1, 0]));
        const radius = Math.max(Number(shape.radius), mark);
        strips.push(circle(centre, normal, radius), [...centre, ...add(centre, scale(normal, radius * 0.5))]);
        break;
      }
      case 'cone': {
        const axis = normalise(vec(shape.axis, [0, 1, 0]));
        const height = Number(shape.height);
        const radius = height * Math.tan(Number(shape.angle));
        const base = add(centre, scale(axis, height));
        const [u, v] = planeAxes(axis);
        strips.push(circle(base, axis, Math.max(radius, mark * 0.1)));
        for (const side of [u, v, scale(u, -1), scale(v, -1)])
          strips.push([...centre, ...add(base, scale(side, radius))]);
        break;
      }
    }
  }
  for (const link of (scene.links ?? []) as Record<string, unknown>[]) {
    if (link.anchor) strips.push(...cross3(vec(link.anchor, [0, 0, 0]), mark));
  }
  return strips;
}

/** The world's axes at the origin, `length` long: x, y and z (red, green and blue with a full hue span). */
export function axes(length: number): Strip[] {
  return [0, 1, 2].map((axis) => {
    const end: Vec3 = [0, 0, 0];
    end[axis] = length;
    return [0, 0, 0, ...end];
  });
}
