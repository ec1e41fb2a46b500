/**
 * The CPU reference of shaders/forces/forces.wgsl: the registry's field generators
 * for every particle, line for line in the shader's order, over the same
 * packed records. With `round = Math.fround` every operation rounds to
 * float32 as the GPU does; with the identity it runs in float64.
 */
import type { Rounding } from '../integrate';
import { OFFSET, FLOATS_PER_PARTICLE } from '../layout';
import type { FloatArray } from '../particles';
import {
  FORCE_KINDS,
  NO_MASK,
  RECORD_FLOATS,
  RECORD_INTS,
  RECORD_INT_AT,
  slotIndex,
  type PackedForces,
} from './records';
import { safeLength } from '../safeLength';
import { turbulenceField } from './turbulence';

const { POSITION, VELOCITY, INVERSE_MASS, FORCE_ACCUM } = OFFSET;

const K = FORCE_KINDS;
const GRAVITY_G = slotIndex('gravity', 'g');
const DRAG_K1 = slotIndex('drag', 'k1');
const DRAG_K2 = slotIndex('drag', 'k2');
const SPRING_ANCHOR = slotIndex('anchoredSpring', 'anchor');
const SPRING_REST = slotIndex('anchoredSpring', 'restLength');
const SPRING_STIFFNESS = slotIndex('anchoredSpring', 'stiffness');
const BUOYANCY_TOP = slotIndex('buoyancy', 'surfaceTop');
const BUOYANCY_INVERSE_BAND = slotIndex('buoyancy', 'inverseBand');
const BUOYANCY_FULL = slotIndex('buoyancy', 'fullForce');
const STIFF_ANCHOR = slotIndex('stiffSpring', 'anchor');
const STIFF_A = slotIndex('stiffSpring', 'positionCoefficient');
const STIFF_B = slotIndex('stiffSpring', 'velocityCoefficient');
const ATTRACTOR_POSITION = slotIndex('attractor', 'position');
const ATTRACTOR_STRENGTH = slotIndex('attractor', 'strength');
const ATTRACTOR_SOFTENING2 = slotIndex('attractor', 'softening2');
const VORTEX_POSITION = slotIndex('vortex', 'position');
const VORTEX_STRENGTH = slotIndex('vortex', 'strength');
const VORTEX_AXIS = slotIndex('vortex', 'axis');
const VORTEX_SOFTENING2 = slotIndex('vortex', 'softening2');
const WIND_FORCE = slotIndex('wind', 'force');
const TURBULENCE_ORIGIN = slotIndex('turbulence', 'origin');
const TURBULENCE_STRENGTH = slotIndex('turbulence', 'strength');
const TURBULENCE_FREQUENCY = slotIndex('turbulence', 'frequency');

// The anchored spring and bungee share a slot layout; the code below relies on it.
if (
  SPRING_ANCHOR !== slotIndex('anchoredBungee', 'anchor') ||
  SPRING_REST !== slotIndex('anchoredBungee', 'restLength') ||
  SPRING_STIFFNESS !== slotIndex('anchoredBungee', 'stiffness')
) {
  throw new Error('anchoredSpring and anchoredBungee records must share their slots');
}

/** `isTarget` of the shader. */
export function isTarget(ints: Uint32Array, record: number, masks: Uint32Array, index: number): boolean {
  const first = ints[record * RECORD_INTS + RECORD_INT_AT.first] as number;
  const end = ints[record * RECORD_INTS + RECORD_INT_AT.end] as number;
  const mask = ints[record * RECORD_INTS + RECORD_INT_AT.mask] as number;
  if (index < first || index >= end) return false;
  if (mask === NO_MASK) return true;
  const bit = index - first;
  return ((masks[mask + (bit >>> 5)] as number) & (1 << (bit & 31))) !== 0;
}

function at(params: FloatArray, index: number): number {
  return params[index] as number;
}

// Scratch, so the particle loop allocates nothing.
const f = [0, 0, 0];
const field = [0, 0, 0];

/**
 * Adds every generator's force to the accumulators of particles [0, count).
 * `params` is packed.params32 for float32 and packed.params for float64.
 */
export function applyFieldForces(
  state: FloatArray,
  count: number,
  packed: PackedForces,
  params: FloatArray,
  masks: Uint32Array,
  round: Rounding,
): void {
  const { ints } = packed;
  for (let i = 0; i < count; i++) {
    const base = i * FLOATS_PER_PARTICLE;
    // Nothing for immovable particles: the step never clears their accumulator.
    const inverseMass = state[base + INVERSE_MASS] as number;
    if (inverseMass <= 0) continue;
    const px = state[base + POSITION] as number;
    const py = state[base + POSITION + 1] as number;
    const pz = state[base + POSITION + 2] as number;
    const vx = state[base + VELOCITY] as number;
    const vy = state[base + VELOCITY + 1] as number;
    const vz = state[base + VELOCITY + 2] as number;
    for (let g = 0; g < packed.generatorCount; g++) {
      if (!isTarget(ints, g, masks, i)) continue;
      const r = g * RECORD_FLOATS;
      f[0] = f[1] = f[2] = 0;
      switch (ints[g * RECORD_INTS + RECORD_INT_AT.kind]) {
        case K.gravity:
          for (let c = 0; c < 3; c++) f[c] = round(at(params, r + GRAVITY_G + c) / inverseMass);
          break;
        case K.drag: {
          const speed2 = round(round(round(vx * vx) + round(vy * vy)) + round(vz * vz));
          if (speed2 <= 0) break;
          const speed = safeLength(vx, vy, vz, speed2, round);
          const coefficient = round(at(params, r + DRAG_K1) + round(at(params, r + DRAG_K2) * speed));
          f[0] = -round(vx * coefficient);
          f[1] = -round(vy * coefficient);
          f[2] = -round(vz * coefficient);
          break;
        }
        case K.anchoredSpring:
        case K.anchoredBungee: {
          const bungee = ints[g * RECORD_INTS + RECORD_INT_AT.kind] === K.anchoredBungee;
          anchoredSpringForce(
            at(params, r + SPRING_ANCHOR),
            at(params, r + SPRING_ANCHOR + 1),
            at(params, r + SPRING_ANCHOR + 2),
            at(params, r + SPRING_REST),
            at(params, r + SPRING_STIFFNESS),
            bungee,
            px,
            py,
            pz,
            round,
            f,
          );
          break;
        }
        case K.buoyancy: {
          const share = round(round(at(params, r + BUOYANCY_TOP) - py) * at(params, r + BUOYANCY_INVERSE_BAND));
          const submerged = Math.min(Math.max(share, 0), 1);
          f[1] = round(at(params, r + BUOYANCY_FULL) * submerged);
          break;
        }
        case K.stiffSpring: {
          const a = at(params, r + STIFF_A);
          const b = at(params, r + STIFF_B);
          for (let c = 0; c < 3; c++) {
            const offset = round((c === 0 ? px : c === 1 ? py : pz) - at(params, r + STIFF_ANCHOR + c));
            const accel = round(round(offset * a) + round((c === 0 ? vx : c === 1 ? vy : vz) * b));
            f[c] = round(accel / inverseMass);
          }
          break;
        }
        case K.attractor: {
          const dx = round(at(params, r + ATTRACTOR_POSITION) - px);
          const dy = round(at(params, r + ATTRACTOR_POSITION + 1) - py);
          const dz = round(at(params, r + ATTRACTOR_POSITION + 2) - pz);
          const r2 = round(
            round(round(round(dx * dx) + round(dy * dy)) + round(dz * dz)) + at(params, r + ATTRACTOR_SOFTENING2),
          );
          const inverse = round(1 / Math.sqrt(r2));
          const scale = round(round(round(at(params, r + ATTRACTOR_STRENGTH) * inverse) * inverse) * inverse);
          f[0] = round(dx * scale);
          f[1] = round(dy * scale);
          f[2] = round(dz * scale);
          break;
        }
        case K.vortex: {
          const ax = at(params, r + VORTEX_AXIS);
          const ay = at(params, r + VORTEX_AXIS + 1);
          const az = at(params, r + VORTEX_AXIS + 2);
          const rx = round(px - at(params, r + VORTEX_POSITION));
          const ry = round(py - at(params, r + VORTEX_POSITION + 1));
          const rz = round(pz - at(params, r + VORTEX_POSITION + 2));
          const tx = round(round(ay * rz) - round(az * ry));
          const ty = round(round(az * rx) - round(ax * rz));
          const tz = round(round(ax * ry) - round(ay * rx));
          const denominator = round(
            round(round(round(tx * tx) + round(ty * ty)) + round(tz * tz)) + at(params, r + VORTEX_SOFTENING2),
          );
          const scale = round(at(params, r + VORTEX_STRENGTH) / denominator);
          f[0] = round(tx * scale);
          f[1] = round(ty * scale);
          f[2] = round(tz * scale);
          break;
        }
        case K.wind:
          for (let c = 0; c < 3; c++) f[c] = at(params, r + WIND_FORCE + c);
          break;
        case K.turbulence: {
          const frequency = at(params, r + TURBULENCE_FREQUENCY);
          const qx = round(round(px * frequency) + at(params, r + TURBULENCE_ORIGIN));
          const qy = round(round(py * frequency) + at(params, r + TURBULENCE_ORIGIN + 1));
          const qz = round(round(pz * frequency) + at(params, r + TURBULENCE_ORIGIN + 2));
          turbulenceField(qx, qy, qz, round, field);
          const strength = at(params, r + TURBULENCE_STRENGTH);
          for (let c = 0; c < 3; c++) f[c] = round((field[c] as number) * strength);
          break;
        }
      }
      for (let c = 0; c < 3; c++) {
        state[base + FORCE_ACCUM + c] = round((state[base + FORCE_ACCUM + c] as number) + (f[c] as number));
      }
    }
  }
}

/** `anchoredSpringForce` of the shader, into `out`. */
export function anchoredSpringForce(
  ax: number,
  ay: number,
  az: number,
  restLength: number,
  stiffness: number,
  bungee: boolean,
  px: number,
  py: number,
  pz: number,
  round: Rounding,
  out: number[],
): number[] {
  out[0] = out[1] = out[2] = 0;
  const dx = round(px - ax);
  const dy = round(py - ay);
  const dz = round(pz - az);
  const length2 = round(round(round(dx * dx) + round(dy * dy)) + round(dz * dz));
  if (length2 <= 0) return out;
  const length = safeLength(dx, dy, dz, length2, round);
  const stretch = round(length - restLength);
  if (bungee && stretch <= 0) return out;
  const scale = round(round(-stiffness * stretch) / length);
  out[0] = round(dx * scale);
  out[1] = round(dy * scale);
  out[2] = round(dz * scale);
  return out;
}
