/**
 * The CPU reference of shaders/lifecycle/spawn.wgsl: a new particle from its spawn
 * rule, operation for operation in the shader's order, each rounded with
 * `round` (Math.fround: float32 as the GPU; the identity: float64). sin, cos,
 * sqrt and pow are JavaScript's (correctly rounded or nearly); WGSL allows
 * the GPU its own accuracy for them, which the tests' bounds account for.
 * Scratch vectors are reused, gl-matrix style: nothing is allocated per particle.
 */
import type { Rounding } from '../integrate';
import { OFFSET, type LifeRecords } from '../layout';
import type { FloatArray } from '../particles';
import { SHAPE, SPAWN_RULE, VELOCITY_MODE } from './gpuRecords';
import { DRAW, draw, open01, uniform01 } from './random';
import type { StructArray } from '../schema';

type Table = StructArray<typeof SPAWN_RULE.fields>;

const { POSITION, INVERSE_MASS, VELOCITY, DAMPING, ACCELERATION, RADIUS, FORCE_ACCUM } = OFFSET;

/** The float32 just below 2*pi (see shaders/lifecycle/spawn.wgsl). */
export const TAU_BELOW = 6.283185005187988;
/** f32(1/3). */
export const ONE_THIRD = Math.fround(1 / 3);

export type Vec3 = [number, number, number];

/** min(low + span * u, high), each operation rounded. */
export function within(low: number, span: number, high: number, u: number, round: Rounding): number {
  return Math.min(round(low + round(span * u)), high);
}

export function safeSqrt(x: number, round: Rounding): number {
  return x <= 0 ? 0 : round(Math.sqrt(x));
}

/** A uniform direction from two uniform draws (shaders/lifecycle/spawn.wgsl unitVector), into `out`. */
export function unitVector(out: Vec3, a: number, b: number, round: Rounding): Vec3 {
  const z = round(1 - round(2 * a));
  const rxy = round(2 * safeSqrt(round(a * round(1 - a)), round));
  const turn = round((b - 0.5) * TAU_BELOW);
  out[0] = round(rxy * round(Math.cos(turn)));
  out[1] = round(rxy * round(Math.sin(turn)));
  out[2] = z;
  return out;
}

const direction: Vec3 = [0, 0, 0];

/** out = a + x * p + y * q (+ z * r), left to right as WGSL evaluates it, component by component. */
function sumOfScaled(
  out: Vec3,
  table: Table,
  rule: number,
  base: ArrayLike<number> | null,
  terms: readonly [keyof typeof SPAWN_RULE.fields, number][],
  round: Rounding,
): Vec3 {
  for (let c = 0; c < 3; c++) {
    let s = base === null ? 0 : (base[c] as number);
    terms.forEach(([field, scale], k) => {
      const product = round(table.get(rule, field, c) * scale);
      s = base === null && k === 0 ? product : round(s + product);
    });
    out[c] = s;
  }
  return out;
}

/** shaders/lifecycle/spawn.wgsl samplePosition, into `out`. */
export function samplePosition(
  out: Vec3,
  table: Table,
  rule: number,
  center: ArrayLike<number>,
  key: number,
  round: Rounding,
): Vec3 {
  const a = uniform01(draw(key, DRAW.shape0));
  const b = uniform01(draw(key, DRAW.shape1));
  const c = uniform01(draw(key, DRAW.shape2));
  const radius = table.get(rule, 'radius');
  switch (table.get(rule, 'shape')) {
    case SHAPE.sphere: {
      const r = round(radius * round(Math.pow(open01(draw(key, DRAW.shape2)), ONE_THIRD)));
      unitVector(direction, a, b, round);
      for (let k = 0; k < 3; k++) out[k] = round((center[k] as number) + round((direction[k] as number) * r));
      return out;
    }
    case SHAPE.sphereSurface: {
      unitVector(direction, a, b, round);
      for (let k = 0; k < 3; k++) out[k] = round((center[k] as number) + round((direction[k] as number) * radius));
      return out;
    }
    case SHAPE.box: {
      const share = [a, b, c];
      for (let k = 0; k < 3; k++) {
        const s = round(round((share[k] as number) * 2) - 1);
        out[k] = round((center[k] as number) + round(table.get(rule, 'halfExtents', k) * s));
      }
      return out;
    }
    case SHAPE.disc: {
      const r = round(radius * safeSqrt(open01(draw(key, DRAW.shape0)), round));
      const turn = round((b - 0.5) * TAU_BELOW);
      const p = round(r * round(Math.cos(turn)));
      const q = round(r * round(Math.sin(turn)));
      return sumOfScaled(
        out,
        table,
        rule,
        center,
        [
          ['shapeX', p],
          ['shapeY', q],
        ],
        round,
      );
    }
    case SHAPE.cone: {
      const along = round(table.get(rule, 'height') * round(Math.pow(open01(draw(key, DRAW.shape0)), ONE_THIRD)));
      const r = round(round(along * table.get(rule, 'tanAngle')) * safeSqrt(open01(draw(key, DRAW.shape1)), round));
      const turn = round((c - 0.5) * TAU_BELOW);
      const p = round(r * round(Math.cos(turn)));
      const q = round(r * round(Math.sin(turn)));
      return sumOfScaled(
        out,
        table,
        rule,
        center,
        [
          ['shapeZ', along],
          ['shapeX', p],
          ['shapeY', q],
        ],
        round,
      );
    }
    default:
      out[0] = center[0] as number;
      out[1] = center[1] as number;
      out[2] = center[2] as number;
      return out;
  }
}

/** shaders/lifecycle/spawn.wgsl sampleVelocity, into `out`. */
export function sampleVelocity(
  out: Vec3,
  table: Table,
  rule: number,
  inheritFrom: ArrayLike<number>,
  key: number,
  round: Rounding,
): Vec3 {
  if (table.get(rule, 'velocityMode') === VELOCITY_MODE.box) {
    const draws = [DRAW.boxX, DRAW.boxY, DRAW.boxZ];
    for (let k = 0; k < 3; k++) {
      const u = uniform01(draw(key, draws[k] as number));
      out[k] = Math.min(
        round(table.get(rule, 'boxMin', k) + round(table.get(rule, 'boxSpan', k) * u)),
        table.get(rule, 'boxMax', k),
      );
    }
  } else {
    const w = round(uniform01(draw(key, DRAW.spreadAngle)) * table.get(rule, 'oneMinusCosSpread'));
    const cosAngle = round(1 - w);
    const sinAngle = safeSqrt(round(w * round(2 - w)), round);
    const turn = round((uniform01(draw(key, DRAW.spreadTurn)) - 0.5) * TAU_BELOW);
    const p = round(sinAngle * round(Math.cos(turn)));
    const q = round(sinAngle * round(Math.sin(turn)));
    sumOfScaled(
      direction,
      table,
      rule,
      null,
      [
        ['velocityX', p],
        ['velocityY', q],
        ['velocityZ', cosAngle],
      ],
      round,
    );
    const u = uniform01(draw(key, DRAW.speed));
    const speed = within(
      table.get(rule, 'speedMin'),
      table.get(rule, 'speedSpan'),
      table.get(rule, 'speedMax'),
      u,
      round,
    );
    for (let k = 0; k < 3; k++) out[k] = round((direction[k] as number) * speed);
  }
  const inherit = table.get(rule, 'inherit');
  for (let k = 0; k < 3; k++) out[k] = round((out[k] as number) + round((inheritFrom[k] as number) * inherit));
  return out;
}

/** The scalar draws of shaders/lifecycle/spawn.wgsl: mass, damping, lifetime, size. */
export function sampleScalar(
  table: Table,
  rule: number,
  key: number,
  quantity: 'mass' | 'damping' | 'lifetime' | 'size',
  round: Rounding,
): number {
  const u = uniform01(draw(key, DRAW[quantity]));
  return within(
    table.get(rule, `${quantity}Min`),
    table.get(rule, `${quantity}Span`),
    table.get(rule, `${quantity}Max`),
    u,
    round,
  );
}

const spawnedPosition: Vec3 = [0, 0, 0];
const spawnedVelocity: Vec3 = [0, 0, 0];

/**
 * shaders/lifecycle/spawn.wgsl spawnParticle: the particle of spawn rule `rule` and
 * random key `key`, written into `state` at `base`, with no force accumulated.
 */
export function spawnParticle(
  state: FloatArray,
  base: number,
  table: Table,
  rule: number,
  center: ArrayLike<number>,
  inheritFrom: ArrayLike<number>,
  key: number,
  round: Rounding,
): void {
  // Each quantity has its own draw, so the order is free.
  const mass = sampleScalar(table, rule, key, 'mass', round);
  const damping = sampleScalar(table, rule, key, 'damping', round);
  samplePosition(spawnedPosition, table, rule, center, key, round);
  sampleVelocity(spawnedVelocity, table, rule, inheritFrom, key, round);
  for (let c = 0; c < 3; c++) {
    state[base + POSITION + c] = spawnedPosition[c] as number;
    state[base + VELOCITY + c] = spawnedVelocity[c] as number;
    state[base + ACCELERATION + c] = table.get(rule, 'acceleration', c);
    state[base + FORCE_ACCUM + c] = 0;
  }
  state[base + INVERSE_MASS] = round(1 / mass);
  state[base + DAMPING] = damping;
  state[base + RADIUS] = table.get(rule, 'collisionRadius');
}

/**
 * spawnLifetime and spawnSize, with the rest of the newborn's life record
 * that shaders/lifecycle/emit.wgsl writes; returns its tag (the rule it obeys).
 */
export function spawnLife(
  life: LifeRecords,
  slot: number,
  table: Table,
  rule: number,
  key: number,
  round: Rounding,
): number {
  life.set(slot, 'age', 0);
  life.set(slot, 'lifetime', sampleScalar(table, rule, key, 'lifetime', round));
  life.set(slot, 'size', sampleScalar(table, rule, key, 'size', round));
  life.set(slot, 'color', table.get(rule, 'color'));
  const tag = table.get(rule, 'tag');
  life.set(slot, 'rule', tag);
  life.set(slot, 'alive', 1);
  life.set(slot, 'generation', (life.get(slot, 'generation') + 1) >>> 0);
  return tag;
}
