/**
 * How far the GPU's sampling of a new particle (shaders/lifecycle/spawn.wgsl) may be
 * from the CPU reference's (src/core/emitters/sampling.ts), derived from what
 * the WGSL spec allows, carried operation by operation alongside the
 * reference's own values (forward error analysis, as test/support/forceBound.ts
 * does for the forces). u = 2^-24; an ULP of r is at most 2u|r|.
 *
 * Both sides start from the same exact inputs: the table's float32 values and
 * the random shares (24 or 23 bits times a power of two, exact). Then:
 * - `+ - *` are "correctly rounded" in WGSL's sense: the exact result when it
 *   is a float32, else either neighbour (no rounding mode is fixed), where
 *   the reference rounds to nearest: 3u|r| apart on equal inputs, 0 when the
 *   exact result is a float32 (checked: the product or sum of two float32s
 *   is exact in float64). An input's error propagates (|a| e_b + |b| e_a +
 *   e_a e_b for a product).
 * - Where the shader has a + b*c (also across a `let`), a GPU may fuse it
 *   (one rounding of the exact a + bc): covered by the same per-operation
 *   terms, 3u|bc| + 3u|a + bc|.
 * - cos and sin: absolute error 2^-11 on [-pi, pi] (the turns are kept inside
 *   by TAU_BELOW), against the reference's correctly rounded value: 2^-11 + u.
 *   Both have derivative at most 1, so an input error passes through unchanged.
 * - sqrt: inherited from 1 / inverseSqrt(x): inverseSqrt 2 ULP, the division
 *   2.5 ULP: (1 + 4u)(1 + 5u) - 1 < 9.1u, 10.1u against the reference. An
 *   input error e moves sqrt(x) by at most min(sqrt(e), e / sqrt(x)).
 * - pow(x, 1/3): exp2(log2(x) / 3)'s accuracy, powRelativeError of
 *   test/support/errorBound.ts (x is an exact share in (0, 1)).
 * - 1 / mass: division 2.5 ULP (|mass| in [2^-126, 2^126]), 6u against the reference.
 * - min(x, max) is 1-Lipschitz: it passes the error through.
 */
import { SPAWN_RULE, SHAPE, VELOCITY_MODE } from '../../src/core/emitters/gpuRecords';
import type { Emission } from '../../src/core/emitters/lifecycle';
import { DRAW, draw, open01, uniform01 } from '../../src/core/emitters/random';
import type { StructArray } from '../../src/core/schema';
import { ONE_THIRD, TAU_BELOW } from '../../src/core/emitters/sampling';
import { UNIT_ROUNDOFF, powRelativeError } from './errorBound';

type Table = StructArray<typeof SPAWN_RULE.fields>;
const u = UNIT_ROUNDOFF;
const TRIG = 2 ** -11 + u;
const SQRT = 10.1 * u;
const DIVIDE = 6 * u;
/** Two correct roundings of the same exact value: 0 if it is a float32, else up to 3u|r|. */
const ROUNDING = (exactValue: number) => (Math.fround(exactValue) === exactValue ? 0 : 3 * u * Math.abs(exactValue));

/** A reference value (float32, as the CPU computed it) and a bound on |GPU - reference|. */
interface B {
  v: number;
  e: number;
}

const exact = (v: number): B => ({ v, e: 0 });
const f = Math.fround;

function mul(x: B, y: B): B {
  const v = f(x.v * y.v);
  const e = Math.abs(x.v) * y.e + Math.abs(y.v) * x.e + x.e * y.e + (x.e > 0 || y.e > 0 ? 2 * u * Math.abs(v) : 0);
  return { v, e };
}

/** a + b * c, fused or not. */
function mulAdd(a: B, b: B, c: B): B {
  const bc = f(b.v * c.v);
  const v = f(a.v + bc);
  const e = a.e + Math.abs(b.v) * c.e + Math.abs(c.v) * b.e + b.e * c.e + 3 * u * (Math.abs(a.v) + Math.abs(b.v * c.v));
  return { v, e };
}

function trig(x: B, fn: (x: number) => number): B {
  return { v: f(fn(x.v)), e: x.e + TRIG };
}

function sqrt(x: B): B {
  if (x.v <= 0) return { v: 0, e: Math.sqrt(x.e) * (1 + SQRT) };
  const v = f(Math.sqrt(x.v));
  const moved = x.e === 0 ? 0 : Math.min(Math.sqrt(x.e), x.e / Math.sqrt(x.v));
  return { v, e: moved + SQRT * (v + moved) };
}

function cubeRoot(x: number): B {
  const v = f(Math.pow(x, ONE_THIRD));
  return { v, e: v * powRelativeError(x, ONE_THIRD) };
}

function within(table: Table, rule: number, name: 'lifetime' | 'mass' | 'damping' | 'size' | 'speed', key: number): B {
  const drawIndex = name === 'speed' ? DRAW.speed : DRAW[name];
  const share = exact(uniform01(draw(key, drawIndex)));
  const sum = mulAdd(exact(table.get(rule, `${name}Min`)), exact(table.get(rule, `${name}Span`)), share);
  return { v: Math.min(sum.v, table.get(rule, `${name}Max`)), e: sum.e };
}

/** shaders/lifecycle/spawn.wgsl unitVector with its bound. */
function unitVector(a: number, b: number): [B, B, B] {
  // z = 1 - 2a and 1 - a are exact on both sides (the exact results are float32s).
  const z = exact(f(1 - 2 * a));
  const rxy = mul(exact(2), sqrt(mul(exact(a), exact(f(1 - a)))));
  // b - 0.5 is exact; the product by TAU_BELOW may round either way.
  const turn = mul(exact(b - 0.5), exact(TAU_BELOW));
  return [mul(rxy, trig(turn, Math.cos)), mul(rxy, trig(turn, Math.sin)), z];
}

/** r cos(t) and r sin(t) for the turn t = (share - 0.5) TAU_BELOW, as the samplers compute them. */
function polar(r: B, share: number): [B, B] {
  const turn = mul(exact(share - 0.5), exact(TAU_BELOW));
  return [mul(r, trig(turn, Math.cos)), mul(r, trig(turn, Math.sin))];
}

/** A sum c + x p + y q (+ z r), left to right, each step possibly fused. */
function chain(center: B, terms: [B, B][]): B {
  return terms.reduce((s, [axis, scale]) => mulAdd(s, axis, scale), center);
}

export interface SpawnBound {
  position: [number, number, number];
  velocity: [number, number, number];
  lifetime: number;
  inverseMass: number;
  damping: number;
  size: number;
}

/** The bound for the particle of rule `rule` with random key `key`, at `center`, inheriting `inheritFrom` (exact). */
export function spawnBound(
  table: Table,
  rule: number,
  center: ArrayLike<number>,
  inheritFrom: ArrayLike<number>,
  key: number,
): SpawnBound {
  const a = uniform01(draw(key, DRAW.shape0));
  const b = uniform01(draw(key, DRAW.shape1));
  const c = uniform01(draw(key, DRAW.shape2));
  const centre = [0, 1, 2].map((k) => exact(center[k] as number));
  const radius = exact(table.get(rule, 'radius'));
  const vec = (field: keyof typeof SPAWN_RULE.fields, k: number) => exact(table.get(rule, field, k));
  let position: B[];
  switch (table.get(rule, 'shape')) {
    case SHAPE.sphere: {
      const r = mul(radius, cubeRoot(open01(draw(key, DRAW.shape2))));
      const d = unitVector(a, b);
      position = centre.map((x, k) => mulAdd(x, d[k] as B, r));
      break;
    }
    case SHAPE.sphereSurface: {
      const d = unitVector(a, b);
      position = centre.map((x, k) => mulAdd(x, d[k] as B, radius));
      break;
    }
    case SHAPE.box: {
      const share = [a, b, c];
      // 2s - 1 is exact (a float32 share times 2, minus 1).
      position = centre.map((x, k) => mulAdd(x, vec('halfExtents', k), exact(f((share[k] as number) * 2 - 1))));
      break;
    }
    case SHAPE.disc: {
      const r = mul(radius, sqrt(exact(open01(draw(key, DRAW.shape0)))));
      const [p, q] = polar(r, b);
      position = centre.map((x, k) =>
        chain(x, [
          [vec('shapeX', k), p],
          [vec('shapeY', k), q],
        ]),
      );
      break;
    }
    case SHAPE.cone: {
      const along = mul(exact(table.get(rule, 'height')), cubeRoot(open01(draw(key, DRAW.shape0))));
      const r = mul(mul(along, exact(table.get(rule, 'tanAngle'))), sqrt(exact(open01(draw(key, DRAW.shape1)))));
      const [p, q] = polar(r, c);
      position = centre.map((x, k) =>
        chain(x, [
          [vec('shapeZ', k), along],
          [vec('shapeX', k), p],
          [vec('shapeY', k), q],
        ]),
      );
      break;
    }
    default:
      position = centre;
  }

  let velocity: B[];
  if (table.get(rule, 'velocityMode') === VELOCITY_MODE.box) {
    const draws = [DRAW.boxX, DRAW.boxY, DRAW.boxZ];
    velocity = [0, 1, 2].map((k) => {
      const sum = mulAdd(vec('boxMin', k), vec('boxSpan', k), exact(uniform01(draw(key, draws[k] as number))));
      return { v: Math.min(sum.v, table.get(rule, 'boxMax', k)), e: sum.e };
    });
  } else {
    const share = uniform01(draw(key, DRAW.spreadAngle));
    const k = table.get(rule, 'oneMinusCosSpread');
    const w = mul(exact(share), exact(k));
    // 1 - w and 2 - w are 1 - share*k and 2 - share*k: fusable.
    const cosAngle = mulAdd(exact(1), exact(-share), exact(k));
    const twoMinusW = mulAdd(exact(2), exact(-share), exact(k));
    const sinAngle = sqrt(mul(w, twoMinusW));
    const [p, q] = polar(sinAngle, uniform01(draw(key, DRAW.spreadTurn)));
    const direction = [0, 1, 2].map((c) =>
      chain(mul(vec('velocityX', c), p), [
        [vec('velocityY', c), q],
        [vec('velocityZ', c), cosAngle],
      ]),
    );
    const speed = within(table, rule, 'speed', key);
    velocity = direction.map((d) => mul(d, speed));
  }
  const inherit = exact(table.get(rule, 'inherit'));
  velocity = velocity.map((v, k) => mulAdd(v, exact(inheritFrom[k] as number), inherit));

  const mass = within(table, rule, 'mass', key);
  const inverseMass = f(1 / mass.v);
  // 1/m moves by e/m^2 (to first order, e << m) and the division's own 2.5 ULP.
  const inverseMassError = mass.e / (mass.v * (mass.v - mass.e)) + DIVIDE * inverseMass;
  const triple = (bs: B[]) => bs.map((x) => x.e) as [number, number, number];
  return {
    position: triple(position),
    velocity: triple(velocity),
    lifetime: within(table, rule, 'lifetime', key).e,
    inverseMass: inverseMassError,
    damping: within(table, rule, 'damping', key).e,
    size: within(table, rule, 'size', key).e,
  };
}

/**
 * The bound of each of `births` (as the reference's lifecycle emits them),
 * its position and velocity written into `bound` at the birth's slot; each
 * returned beside its birth, for the other fields.
 */
export function boundBirths(
  table: Table,
  births: readonly Emission[],
  bound: { position: Float64Array; velocity: Float64Array },
): { birth: Emission; spawn: SpawnBound }[] {
  return births.map((birth) => {
    const spawn = spawnBound(table, birth.rule, birth.center, birth.inheritFrom, birth.key);
    for (let c = 0; c < 3; c++) {
      bound.position[3 * birth.slot + c] = spawn.position[c] as number;
      bound.velocity[3 * birth.slot + c] = spawn.velocity[c] as number;
    }
    return { birth, spawn };
  });
}
