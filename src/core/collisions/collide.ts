/**
 * The CPU twin of shaders/collisions/collide.wgsl: every particle against every
 * collider, line for line in the shader's order so the two can be read side
 * by side. With `round = Math.fround` every operation rounds to float32 as the
 * GPU does. No GPU imports.
 */
import { OFFSET, FLOATS_PER_PARTICLE } from '../layout';
import { isFiniteState, noteNonFinite, type Rounding } from '../integrate';
import type { HealthRecord } from '../nonFinite';
import type { FloatArray } from '../particles';
import {
  COLLIDER,
  COLLIDER_WORDS,
  DEAD_RADIUS,
  FLAG_INSIDE,
  FLAG_KILL,
  FLAG_STICK,
  CONTACT_TRACKED,
  CONTACT_TOUCHED_BEFORE,
  KIND_BOX,
  KIND_PLANE,
  KIND_SPHERE,
  type PackedColliders,
} from './colliders';

/** Word offsets of the collider record's fields. */
const F = COLLIDER.wordOffsets;

const { POSITION, INVERSE_MASS, VELOCITY, ACCELERATION, RADIUS } = OFFSET;
/** The collision-event lane: the particle record's spare float (w of forceAccumSpare); see CONTACT_TRACKED. */
export const CONTACT_LANE = OFFSET.FORCE_ACCUM + 3;

/** A particle's position and velocity while its contacts are resolved (reused, never allocated in the loop). */
export interface Body {
  px: number;
  py: number;
  pz: number;
  vx: number;
  vy: number;
  vz: number;
}

/** The world-contact parameters a collider pass runs with. */
export interface CollideParams {
  dt: number;
  skin: number;
}

/**
 * A world contact closing no faster than the particle's acceleration (its
 * acceleration lane, normal part) makes in min(e / (1 - e) + extra, max)
 * steps is resting: no restitution (e: the collider's restitution). Shared
 * with shaders/collisions/collide.wgsl. Why (issue 17, item 10): a particle moves further
 * than the contact skin in a step, so one that hops lands with up to two
 * steps more of acceleration than it left with (one from stepping, one when
 * it skims just above the skin and is seen a step late), and the resolver
 * removes e x one step: take-off speeds then settle on e / (1 - e) steps'
 * worth, landings two steps faster, and the hopping never ends. Resting up to
 * one step above that ends it (extra = 3). Capped at `max` steps, so a
 * collider with e near 1 (where the cycle's speed grows without bound) still
 * bounces anything faster. At dt = 1/60 under 9.81 m/s^2 this gives up
 * landings under 0.65 m/s for e = 0.5 (hops under 2 mm) and under 1.15 m/s
 * for e = 0.8 (under 3 cm).
 */
export const RESTING_CLOSING_STEPS = { extra: 3, max: 10 } as const;

/** dot3 of shaders/collisions/collide.wgsl: ((ax*bx + ay*by) + az*bz), each op rounded. */
export function dot3(ax: number, ay: number, az: number, bx: number, by: number, bz: number, round: Rounding): number {
  return round(round(round(ax * bx) + round(ay * by)) + round(az * bz));
}

/**
 * Cyclone's resolveVelocity then resolveInterpenetration for a contact with
 * the immovable world, plus Coulomb friction; `resolveWorldContact` of the shader.
 */
export function resolveWorldContact(
  body: Body,
  ax: number,
  ay: number,
  az: number,
  nx: number,
  ny: number,
  nz: number,
  penetration: number,
  restitution: number,
  friction: number,
  dt: number,
  round: Rounding,
): void {
  const separatingVelocity = dot3(body.vx, body.vy, body.vz, nx, ny, nz, round);
  if (separatingVelocity < 0) {
    const accCausedSepVelocity = round(dot3(ax, ay, az, nx, ny, nz, round) * dt);
    // A resting contact, not a bounce (see RESTING_CLOSING_STEPS): closing no
    // faster than min(e / (1 - e) + extra, max) steps of acceleration, tested
    // without a division, (1 - e) multiplied out, so both backends round alike.
    const { extra, max } = RESTING_CLOSING_STEPS;
    const resting =
      accCausedSepVelocity < 0 &&
      separatingVelocity >= round(max * accCausedSepVelocity) &&
      round(separatingVelocity * round(1 - restitution)) >=
        round(round(extra - round((extra - 1) * restitution)) * accCausedSepVelocity);
    const e = resting ? 0 : restitution;
    let newSepVelocity = round(-separatingVelocity * e);
    if (accCausedSepVelocity < 0) {
      newSepVelocity = round(newSepVelocity + round(e * accCausedSepVelocity));
      newSepVelocity = Math.max(newSepVelocity, 0);
    }
    const tx = round(body.vx - round(nx * separatingVelocity));
    const ty = round(body.vy - round(ny * separatingVelocity));
    const tz = round(body.vz - round(nz * separatingVelocity));
    let keep = 1;
    if (friction > 0) {
      const tangential2 = dot3(tx, ty, tz, tx, ty, tz, round);
      if (tangential2 > 0) {
        const tangentialSpeed = round(Math.sqrt(tangential2));
        const drop = round(friction * round(newSepVelocity - separatingVelocity));
        keep = drop < tangentialSpeed ? round(1 - round(drop / tangentialSpeed)) : 0;
      }
    }
    body.vx = round(round(tx * keep) + round(nx * newSepVelocity));
    body.vy = round(round(ty * keep) + round(ny * newSepVelocity));
    body.vz = round(round(tz * keep) + round(nz * newSepVelocity));
  }
  if (penetration > 0) {
    body.px = round(body.px + round(nx * penetration));
    body.py = round(body.py + round(ny * penetration));
    body.pz = round(body.pz + round(nz * penetration));
  }
}

const scratch: Body = { px: 0, py: 0, pz: 0, vx: 0, vy: 0, vz: 0 };

/**
 * Runs every collider against particles [0, count) of `state`, in place: the
 * CPU twin of shaders/collisions/collide.wgsl. With `deltas` (two xyzw per particle: the
 * position correction, then the velocity change) it first applies the contact
 * resolver's corrections, as the shader's APPLY_DELTAS variant does. With
 * `health`, a particle this pass takes from finite to non-finite is counted
 * and handled by its policy (src/core/nonFinite.ts).
 */
export function collide(
  state: FloatArray,
  count: number,
  colliders: PackedColliders,
  params: CollideParams,
  round: Rounding,
  deltas?: FloatArray,
  health: HealthRecord | null = null,
): void {
  const W = COLLIDER_WORDS;
  const { floats, words } = colliders;
  const dt = params.dt;
  const skin = params.skin;
  const body = scratch;
  for (let i = 0; i < count; i++) {
    const base = i * FLOATS_PER_PARTICLE;
    // Immovable particles (and dead ones) are never moved.
    if ((state[base + INVERSE_MASS] as number) <= 0) continue;
    const wasFinite = health !== null && isFiniteState(state, base);
    body.px = state[base + POSITION] as number;
    body.py = state[base + POSITION + 1] as number;
    body.pz = state[base + POSITION + 2] as number;
    body.vx = state[base + VELOCITY] as number;
    body.vy = state[base + VELOCITY + 1] as number;
    body.vz = state[base + VELOCITY + 2] as number;
    if (deltas) {
      const d = i * 8;
      body.px = round(body.px + (deltas[d] as number));
      body.py = round(body.py + (deltas[d + 1] as number));
      body.pz = round(body.pz + (deltas[d + 2] as number));
      body.vx = round(body.vx + (deltas[d + 4] as number));
      body.vy = round(body.vy + (deltas[d + 5] as number));
      body.vz = round(body.vz + (deltas[d + 6] as number));
    }
    const ax = state[base + ACCELERATION] as number;
    const ay = state[base + ACCELERATION + 1] as number;
    const az = state[base + ACCELERATION + 2] as number;
    const r = state[base + RADIUS] as number;
    let killed = false;
    let touched = false;
    let stuck = false;

    for (let c = 0; c < colliders.count && !killed && !stuck; c++) {
      const k = c * W;
      const kind = words[k + F.kind] as number;
      const flags = words[k + F.flags] as number;
      const inside = (flags & FLAG_INSIDE) !== 0;
      const kill = (flags & FLAG_KILL) !== 0;
      const stick = (flags & FLAG_STICK) !== 0;
      const e = floats[k + F.restitution] as number;
      const mu = floats[k + F.friction] as number;
      const cx = floats[k + F.center] as number;
      const cy = floats[k + F.center + 1] as number;
      const cz = floats[k + F.center + 2] as number;
      const a0 = k + F.axis0;
      const a1 = k + F.axis1;
      const a2 = k + F.axis2;
      const s = k + F.size;
      if (kind === KIND_PLANE) {
        const nx = floats[a0] as number;
        const ny = floats[a0 + 1] as number;
        const nz = floats[a0 + 2] as number;
        const distance = round(dot3(nx, ny, nz, body.px, body.py, body.pz, round) - (floats[s] as number));
        const penetration = round(r - distance);
        if (penetration > -skin) {
          touched ||= nx !== 0 || ny !== 0 || nz !== 0;
          if (kill) killed = true;
          else {
            resolveWorldContact(body, ax, ay, az, nx, ny, nz, penetration, e, mu, dt, round);
            stuck = stick;
          }
        }
      } else if (kind === KIND_SPHERE) {
        const dx = round(body.px - cx);
        const dy = round(body.py - cy);
        const dz = round(body.pz - cz);
        const distance = round(Math.sqrt(dot3(dx, dy, dz, dx, dy, dz, round)));
        let nx = 0;
        let ny = 1;
        let nz = 0;
        if (distance > 0) {
          nx = round(dx / distance);
          ny = round(dy / distance);
          nz = round(dz / distance);
        }
        const sphereRadius = floats[s] as number;
        let penetration = round(round(sphereRadius + r) - distance);
        if (inside) {
          nx = -nx;
          ny = -ny;
          nz = -nz;
          penetration = round(round(distance + r) - sphereRadius);
        }
        if (penetration > -skin) {
          touched ||= nx !== 0 || ny !== 0 || nz !== 0;
          if (kill) killed = true;
          else {
            resolveWorldContact(body, ax, ay, az, nx, ny, nz, penetration, e, mu, dt, round);
            stuck = stick;
          }
        }
      } else if (inside) {
        for (let axis = 0; axis < 3 && !killed && !stuck; axis++) {
          const u = k + F.axis0 + 4 * axis;
          const ux = floats[u] as number;
          const uy = floats[u + 1] as number;
          const uz = floats[u + 2] as number;
          const q = dot3(round(body.px - cx), round(body.py - cy), round(body.pz - cz), ux, uy, uz, round);
          const penetration = round(Math.abs(q) - round((floats[s + axis] as number) - r));
          if (penetration > -skin) {
            const sign = q >= 0 ? -1 : 1;
            touched ||= ux !== 0 || uy !== 0 || uz !== 0;
            if (kill) killed = true;
            else {
              resolveWorldContact(body, ax, ay, az, sign * ux, sign * uy, sign * uz, penetration, e, mu, dt, round);
              stuck = stick;
            }
          }
        }
      } else {
        const dx = round(body.px - cx);
        const dy = round(body.py - cy);
        const dz = round(body.pz - cz);
        const q0 = dot3(dx, dy, dz, floats[a0] as number, floats[a0 + 1] as number, floats[a0 + 2] as number, round);
        const q1 = dot3(dx, dy, dz, floats[a1] as number, floats[a1 + 1] as number, floats[a1 + 2] as number, round);
        const q2 = dot3(dx, dy, dz, floats[a2] as number, floats[a2 + 1] as number, floats[a2 + 2] as number, round);
        const h0 = floats[s] as number;
        const h1 = floats[s + 1] as number;
        const h2 = floats[s + 2] as number;
        const o0 = round(q0 - Math.min(Math.max(q0, -h0), h0));
        const o1 = round(q1 - Math.min(Math.max(q1, -h1), h1));
        const o2 = round(q2 - Math.min(Math.max(q2, -h2), h2));
        const distance2 = dot3(o0, o1, o2, o0, o1, o2, round);
        let nx: number;
        let ny: number;
        let nz: number;
        let penetration: number;
        if (distance2 > 0) {
          const distance = round(Math.sqrt(distance2));
          const l0 = round(o0 / distance);
          const l1 = round(o1 / distance);
          const l2 = round(o2 / distance);
          nx = round(
            round(round((floats[a0] as number) * l0) + round((floats[a1] as number) * l1)) +
              round((floats[a2] as number) * l2),
          );
          ny = round(
            round(round((floats[a0 + 1] as number) * l0) + round((floats[a1 + 1] as number) * l1)) +
              round((floats[a2 + 1] as number) * l2),
          );
          nz = round(
            round(round((floats[a0 + 2] as number) * l0) + round((floats[a1 + 2] as number) * l1)) +
              round((floats[a2 + 2] as number) * l2),
          );
          penetration = round(r - distance);
        } else {
          // The centre is inside the box: out through the nearest face (lowest axis on a tie).
          const d0 = round(h0 - Math.abs(q0));
          const d1 = round(h1 - Math.abs(q1));
          const d2 = round(h2 - Math.abs(q2));
          let axis = 0;
          let depth = d0;
          let qa = q0;
          if (d1 < depth) {
            axis = 1;
            depth = d1;
            qa = q1;
          }
          if (d2 < depth) {
            axis = 2;
            depth = d2;
            qa = q2;
          }
          const sign = qa >= 0 ? 1 : -1;
          const u = k + F.axis0 + 4 * axis;
          nx = sign * (floats[u] as number);
          ny = sign * (floats[u + 1] as number);
          nz = sign * (floats[u + 2] as number);
          penetration = round(depth + r);
        }
        if (penetration > -skin) {
          touched ||= nx !== 0 || ny !== 0 || nz !== 0;
          if (kill) killed = true;
          else {
            resolveWorldContact(body, ax, ay, az, nx, ny, nz, penetration, e, mu, dt, round);
            stuck = stick;
          }
        }
      }
    }

    // shaders/collisions/collide.wgsl: a tracked particle's collision-event lane gets TOUCHED_NOW, once a step.
    const contact = state[base + CONTACT_LANE] as number;
    if (touched && (contact === CONTACT_TRACKED || contact === CONTACT_TRACKED + CONTACT_TOUCHED_BEFORE)) {
      state[base + CONTACT_LANE] = contact + 1;
    }
    if (stuck) {
      // At rest where the contact left it, and immovable.
      state[base + INVERSE_MASS] = 0;
      state[base + VELOCITY] = 0;
      state[base + VELOCITY + 1] = 0;
      state[base + VELOCITY + 2] = 0;
      state[base + POSITION] = body.px;
      state[base + POSITION + 1] = body.py;
      state[base + POSITION + 2] = body.pz;
    } else if (killed) {
      state[base + INVERSE_MASS] = 0;
      state[base + VELOCITY] = 0;
      state[base + VELOCITY + 1] = 0;
      state[base + VELOCITY + 2] = 0;
      state[base + RADIUS] = DEAD_RADIUS;
      state[base + POSITION] = body.px;
      state[base + POSITION + 1] = body.py;
      state[base + POSITION + 2] = body.pz;
    } else {
      state[base + POSITION] = body.px;
      state[base + POSITION + 1] = body.py;
      state[base + POSITION + 2] = body.pz;
      state[base + VELOCITY] = body.vx;
      state[base + VELOCITY + 1] = body.vy;
      state[base + VELOCITY + 2] = body.vz;
    }
    // A contact can overflow too (a radius near float32's largest): counted as the step counts it.
    if (wasFinite && !isFiniteState(state, base)) noteNonFinite(state, base, i, health);
  }
}
