/**
 * How far the GPU's colliders pass (shaders/collisions/collide.wgsl) may drift from its
 * CPU twin (src/core/collisions/colliders.ts), carried per particle and per
 * component like test/support/errorBound.ts carries the step's bound, and
 * chained after it: the step's bound is this pass's input error.
 *
 * Derivation (u = 2^-24; an ULP of y is at most 2u|y|). The bound re-runs the
 * twin operation by operation on "carried" values: the twin's own float32
 * value v (bit for bit what the CPU computes; checked at the end) and a bound
 * e on |GPU - CPU| for that value. Both sides run the same operations in the
 * same order (WGSL does not reassociate) on inputs that differ by at most e:
 * - + and -: each side rounds once (u|v| each): e = ea + eb + 2u|v|.
 * - *: the CPU rounds; the GPU rounds, or keeps the exact product when it
 *   fuses it into the next addition (an fma): either way within u|ab| of the
 *   exact product, so e = |a|eb + |b|ea + ea eb + 2u|v|. This covers every
 *   contraction a GPU compiler may do, as errorBound.ts's 3u(|c|+|ab|) does.
 * - x / y: WGSL's f32 division is within 2.5 ULP (5u relative), the CPU's
 *   within u: e = (ea + |v| eb) / (|y| - eb) + 6u|v|.
 * - sqrt: WGSL inherits sqrt's accuracy from 1 / inverseSqrt: 2 ULP then
 *   2.5 ULP, 9u relative, plus the CPU's u: e = min(ea / (2 sqrt(x - ea)),
 *   sqrt(ea)) + 10u|v|.
 * - min, max, clamp, abs, negation: exact and 1-Lipschitz: e passes through.
 * - A software adapter may flush subnormals: 2^-125 more per operation.
 * The whole bound is then widened by (1 + 2^-20) for the second-order terms.
 *
 * Branches. Where the two outcomes of a comparison agree at the threshold
 * (the response is continuous there) a comparison within the bound costs only
 * the size of the jump, added to the bound: `separatingVelocity < 0` (the
 * velocity changes by at most (1 + e)(1 + mu)|vs|), `penetration > 0` (the
 * position by at most |penetration|), the resting-contact test (the
 * bounce kept or given up: at most e|vs|), and the friction clamps. Where they do not (a contact exists or not, a particle is killed or
 * not, a box face or a wall sign is chosen, a particle at a sphere's centre),
 * the test scenes must keep every particle further from the threshold than
 * the bound: the bound throws `NearThresholdError`, naming the particle, the
 * collider and the comparison, rather than pass a scene where the GPU and the
 * CPU could legitimately branch apart.
 */
import {
  COLLIDER,
  type PackedColliders,
  COLLIDER_WORDS,
  FLAG_INSIDE,
  FLAG_KILL,
  KIND_PLANE,
  KIND_SPHERE,
} from '../../src/core/collisions/colliders';
import { RESTING_CLOSING_STEPS, type CollideParams } from '../../src/core/collisions/collide';
import { OFFSET, FLOATS_PER_PARTICLE } from '../../src/core/layout';
import { UNIT_ROUNDOFF, type StepErrorBound } from './errorBound';

/** Word offsets of the collider record's fields. */
const F = COLLIDER.wordOffsets;

const u = UNIT_ROUNDOFF;
const FLUSH = 2 ** -125;
const SECOND_ORDER = 1 + 2 ** -20;

export class NearThresholdError extends Error {
  override readonly name = 'NearThresholdError';
}

/** A twin value and the bound on the GPU's distance from it. */
interface C {
  v: number;
  e: number;
}
const f = Math.fround;
const exact = (v: number): C => ({ v, e: 0 });
const add = (a: C, b: C): C => {
  const v = f(a.v + b.v);
  return { v, e: (a.e + b.e + 2 * u * Math.abs(v)) * SECOND_ORDER + FLUSH };
};
const sub = (a: C, b: C): C => {
  const v = f(a.v - b.v);
  return { v, e: (a.e + b.e + 2 * u * Math.abs(v)) * SECOND_ORDER + FLUSH };
};
const mul = (a: C, b: C): C => {
  const v = f(a.v * b.v);
  return { v, e: (Math.abs(a.v) * b.e + Math.abs(b.v) * a.e + a.e * b.e + 2 * u * Math.abs(v)) * SECOND_ORDER + FLUSH };
};
const div = (a: C, b: C): C => {
  const v = f(a.v / b.v);
  const room = Math.abs(b.v) - b.e;
  const e = room > 0 ? (a.e + Math.abs(v) * b.e) / room + 6 * u * Math.abs(v) : Number.POSITIVE_INFINITY;
  return { v, e: e * SECOND_ORDER + FLUSH };
};
const sqrt = (a: C): C => {
  const v = f(Math.sqrt(a.v));
  const propagated = a.v - a.e > 0 ? a.e / (2 * Math.sqrt(a.v - a.e)) : Number.POSITIVE_INFINITY;
  return { v, e: (Math.min(propagated, Math.sqrt(a.e)) + 10 * u * Math.abs(v)) * SECOND_ORDER + FLUSH };
};
const neg = (a: C): C => ({ v: -a.v, e: a.e });
const widen = (a: C, by: number): C => ({ v: a.v, e: a.e + by });
const dot3 = (a: C[], b: C[]): C =>
  add(add(mul(a[0] as C, b[0] as C), mul(a[1] as C, b[1] as C)), mul(a[2] as C, b[2] as C));

const { POSITION, INVERSE_MASS, VELOCITY, ACCELERATION, RADIUS } = OFFSET;

/**
 * Carries `bound` (the step's bound, already advanced over the step) across
 * one colliders pass over `state` (the reference just after that step),
 * updating its position and velocity bounds in place. Returns the state the
 * twin must produce, for the caller to check the mirror is faithful.
 */
export function advanceThroughColliders(
  bound: StepErrorBound,
  state: Float32Array,
  colliders: PackedColliders,
  params: CollideParams,
): Float32Array {
  const out = state.slice();
  const { floats, words } = colliders;
  const skin = exact(-params.skin);
  for (let i = 0; i < bound.count; i++) {
    const base = i * FLOATS_PER_PARTICLE;
    if ((state[base + INVERSE_MASS] as number) <= 0) continue;
    const where = (c: number, what: string) => `particle ${i}, collider ${c}, step ${bound.steps}: ${what}`;
    // Discontinuous branch: the twin's outcome, and the GPU must agree.
    const decide = (a: C, b: C, c: number, what: string): boolean => {
      const margin = Math.abs(a.v - b.v);
      if (!(margin > a.e + b.e)) {
        throw new NearThresholdError(
          `${where(c, what)} is within the float32 bound of its threshold ` +
            `(|${a.v} - ${b.v}| = ${margin} <= ${a.e + b.e}): GPU and CPU may branch apart; move it in the scene`,
        );
      }
      return a.v < b.v;
    };
    const vector = (offset: number, errors: Float64Array | null): C[] =>
      [0, 1, 2].map((k) => ({ v: state[base + offset + k] as number, e: errors ? (errors[i * 3 + k] as number) : 0 }));
    let p = vector(POSITION, bound.position);
    let v = vector(VELOCITY, bound.velocity);
    const a = vector(ACCELERATION, null);
    const r = exact(state[base + RADIUS] as number);
    const dt = exact(params.dt);
    let killed = false;

    const resolve = (n: C[], penetration: C, e: C, mu: C): void => {
      const vs = dot3(v, n);
      const closingAmbiguous = !(Math.abs(vs.v) > vs.e);
      if (vs.v < 0) {
        const accSep = mul(dot3(a, n), dt);
        // The resting-contact test of the twin (RESTING_CLOSING_STEPS): restitution 0 below it.
        const { extra, max } = RESTING_CLOSING_STEPS;
        const maxSide = mul(exact(max), accSep);
        const scaled = mul(vs, sub(exact(1), e));
        const threshold = mul(sub(exact(extra), mul(exact(extra - 1), e)), accSep);
        const resting = accSep.v < 0 && vs.v >= maxSide.v && scaled.v >= threshold.v;
        const used = resting ? exact(0) : e;
        let newSep = mul(neg(vs), used);
        if (accSep.v < 0) {
          newSep = add(newSep, mul(used, accSep));
          newSep = { v: Math.max(newSep.v, 0), e: newSep.e };
        }
        if (!(Math.abs(accSep.v) > accSep.e)) newSep = widen(newSep, e.v * (Math.abs(accSep.v) + accSep.e));
        // Either side of the resting test within the bound: the bounce is kept or given up, at most e|vs| apart.
        const restingAmbiguous =
          !(Math.abs(vs.v - maxSide.v) > vs.e + maxSide.e) ||
          !(Math.abs(scaled.v - threshold.v) > scaled.e + threshold.e);
        if (restingAmbiguous) newSep = widen(newSep, e.v * (Math.abs(vs.v) + vs.e));
        const t = [0, 1, 2].map((k) => sub(v[k] as C, mul(n[k] as C, vs)));
        let keep = exact(1);
        if (mu.v > 0) {
          const t2 = dot3(t, t);
          // At t2 = 0 the tangential velocity is 0 and keep does not matter:
          // a GPU on the other side changes v by at most |t|.
          if (!(Math.abs(t2.v) > t2.e)) {
            for (const x of t) x.e += Math.abs(x.v) + x.e;
          }
          if (t2.v > 0) {
            const speed = sqrt(t2);
            const drop = mul(mu, sub(newSep, vs));
            const ratio = div(drop, speed);
            keep = drop.v < speed.v ? sub(exact(1), ratio) : exact(0);
            if (!(Math.abs(drop.v - speed.v) > drop.e + speed.e)) {
              keep = widen(keep, (Math.abs(drop.v - speed.v) + drop.e + speed.e) / (speed.v - speed.e));
            }
          }
        }
        v = [0, 1, 2].map((k) => add(mul(t[k] as C, keep), mul(n[k] as C, newSep)));
      }
      if (closingAmbiguous) {
        const jump = (1 + e.v) * (1 + mu.v) * (Math.abs(vs.v) + vs.e);
        v = v.map((x) => widen(x, jump));
      }
      if (penetration.v > 0) p = [0, 1, 2].map((k) => add(p[k] as C, mul(n[k] as C, penetration)));
      if (!(Math.abs(penetration.v) > penetration.e)) {
        p = p.map((x) => widen(x, Math.abs(penetration.v) + penetration.e));
      }
    };

    for (let c = 0; c < colliders.count && !killed; c++) {
      const k = c * COLLIDER_WORDS;
      const kind = words[k + F.kind] as number;
      const flags = words[k + F.flags] as number;
      const inside = (flags & FLAG_INSIDE) !== 0;
      const kill = (flags & FLAG_KILL) !== 0;
      const e = exact(floats[k + F.restitution] as number);
      const mu = exact(floats[k + F.friction] as number);
      const field = (at: number): C[] => [0, 1, 2].map((j) => exact(floats[k + at + j] as number));
      const center = field(F.center);
      const axes = [field(F.axis0), field(F.axis1), field(F.axis2)];
      const size = field(F.size);
      const contact = (n: C[], penetration: C, what: string): void => {
        if (decide(skin, penetration, c, `${what}: penetration > -skin`)) {
          if (kill) killed = true;
          else resolve(n, penetration, e, mu);
        }
      };
      if (kind === KIND_PLANE) {
        const distance = sub(dot3(axes[0] as C[], p), size[0] as C);
        contact(axes[0] as C[], sub(r, distance), 'plane');
      } else if (kind === KIND_SPHERE) {
        const d = [0, 1, 2].map((j) => sub(p[j] as C, center[j] as C));
        const distance = sqrt(dot3(d, d));
        let n = [exact(0), exact(1), exact(0)];
        if (decide(exact(0), distance, c, 'sphere: distance > 0')) n = d.map((x) => div(x, distance));
        let penetration = sub(add(size[0] as C, r), distance);
        if (inside) {
          n = n.map(neg);
          penetration = sub(add(distance, r), size[0] as C);
        }
        contact(n, penetration, inside ? 'inside sphere' : 'sphere');
      } else if (inside) {
        for (let axis = 0; axis < 3 && !killed; axis++) {
          const u3 = axes[axis] as C[];
          const q = dot3(
            [0, 1, 2].map((j) => sub(p[j] as C, center[j] as C)),
            u3,
          );
          const penetration = sub({ v: Math.abs(q.v), e: q.e }, sub(size[axis] as C, r));
          if (decide(skin, penetration, c, `inside box axis ${axis}: penetration > -skin`)) {
            // The wall's side flips with q's sign: a discontinuity.
            const positive = !decide(q, exact(0), c, `inside box axis ${axis}: q >= 0`);
            if (kill) killed = true;
            else resolve(positive ? u3.map(neg) : u3, penetration, e, mu);
          }
        }
      } else {
        const d = [0, 1, 2].map((j) => sub(p[j] as C, center[j] as C));
        const q = axes.map((axis) => dot3(d, axis));
        // q - clamp(q, -h, h) is exactly 0 on both sides while |q| < h by more
        // than q's error; past h, q - h. Which axes are past is a discontinuity
        // (an edge or a corner turns the normal), so each is decided.
        const past = q.map((x, j) => decide(size[j] as C, { v: Math.abs(x.v), e: x.e }, c, `box: |q[${j}]| > h[${j}]`));
        const outside = q.map((x, j) => {
          const h = (size[j] as C).v;
          return past[j] ? sub(x, exact(Math.min(Math.max(x.v, -h), h))) : exact(0);
        });
        const distance2 = dot3(outside, outside);
        let n: C[];
        let penetration: C;
        if (past.some(Boolean) && decide(exact(0), distance2, c, 'box: centre outside (distance2 > 0)')) {
          const distance = sqrt(distance2);
          const local = outside.map((x) => div(x, distance));
          n = [0, 1, 2].map((j) =>
            add(
              add(mul((axes[0] as C[])[j] as C, local[0] as C), mul((axes[1] as C[])[j] as C, local[1] as C)),
              mul((axes[2] as C[])[j] as C, local[2] as C),
            ),
          );
          penetration = sub(r, distance);
        } else {
          const depth = q.map((x, j) => sub(size[j] as C, { v: Math.abs(x.v), e: x.e }));
          let axis = 0;
          if (decide(depth[1] as C, depth[0] as C, c, 'box: nearest face (1 vs 0)')) axis = 1;
          if (decide(depth[2] as C, depth[axis] as C, c, `box: nearest face (2 vs ${axis})`)) axis = 2;
          const positive = !decide(q[axis] as C, exact(0), c, `box: side of face ${axis}`);
          n = positive ? (axes[axis] as C[]) : (axes[axis] as C[]).map(neg);
          penetration = add(depth[axis] as C, r);
        }
        contact(n, penetration, 'box');
      }
    }

    if (killed) {
      bound.velocity.fill(0, i * 3, i * 3 + 3);
      out[base + INVERSE_MASS] = 0;
      out[base + RADIUS] = -1;
      for (let k = 0; k < 3; k++) {
        bound.position[i * 3 + k] = (p[k] as C).e;
        out[base + POSITION + k] = (p[k] as C).v;
        out[base + VELOCITY + k] = 0;
      }
    } else {
      for (let k = 0; k < 3; k++) {
        bound.position[i * 3 + k] = (p[k] as C).e;
        bound.velocity[i * 3 + k] = (v[k] as C).e;
        out[base + POSITION + k] = (p[k] as C).v;
        out[base + VELOCITY + k] = (v[k] as C).v;
      }
    }
  }
  return out;
}
