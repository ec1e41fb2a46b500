/**
 * How far two float32 evaluations of the particle step may drift apart: the
 * GPU's WGSL and the CPU reference (src/core/integrate.ts), or float32 and
 * exact arithmetic. The bound is carried per particle and per component
 * alongside the reference run, from the reference's own magnitudes.
 *
 * Derivation (u = 2^-24, float32's unit roundoff; an ULP of y is at most 2u|y|):
 * - Both sides evaluate the same operations in the same order on the same
 *   float32 inputs, so correctly rounded + and * agree bit for bit. They may
 *   differ where a GPU compiler fuses c + a*b into one fma: the fused result
 *   skips the product's rounding (u|ab|) and each side rounds the sum once
 *   (u|c + ab| each), so one multiply-add contributes at most 3u(|c| + |ab|).
 *   Against exact arithmetic the same 3u covers the two roundings.
 * - Per-second damping uses pow(d, dt). WGSL inherits pow's accuracy from
 *   exp2(dt * log2(d)): log2 is within 2^-21 absolute on [0.5, 2] and 3 ULP
 *   elsewhere, exp2 within 3 + 2|z| ULP. With z = dt*log2(d), the factor's
 *   relative error is ln2 * (dt * E_log2 + 2u|z|) + (3 + 2|z|) * 2u, plus u for
 *   the reference's own rounding of Math.pow.
 * - A software adapter may flush subnormals to zero: 2^-125 absolute per op.
 * - Errors propagate: a velocity error dV becomes k*dV after damping (k <= 1)
 *   and moves the position by dt*dV; so the velocity bound grows linearly with
 *   the step count and the position bound quadratically.
 * - Forces (src/core/forces): when the accumulator was filled by the force
 *   passes, GPU and reference accumulators differ by up to a per-particle
 *   bound F (test/support/forceBound.ts, which propagates the carried position
 *   and velocity bounds through each generator); the acceleration then differs
 *   by inverseMass * F more, rounded once more on each side (3u).
 */
import { OFFSET, FLOATS_PER_PARTICLE, attributeOffset, type AttributeName } from '../../src/core/layout';
import type { FloatArray } from '../../src/core/particles';
import type { Variant } from '../../src/core/variants';

export const UNIT_ROUNDOFF = 2 ** -24;
const MULTIPLY_ADD = 3 * UNIT_ROUNDOFF;
const FLUSHED_SUBNORMAL = 2 ** -125;

/** Relative error of WGSL's pow(damping, dt) against the reference's fround(Math.pow). */
export function powRelativeError(damping: number, dt: number): number {
  const u = UNIT_ROUNDOFF;
  const log2d = Math.log2(damping);
  const log2Error = damping >= 0.5 && damping <= 2 ? 2 ** -21 : 3 * 2 * u * Math.abs(log2d);
  const z = Math.abs(dt * log2d);
  return Math.LN2 * (dt * log2Error + 2 * u * z) + (3 + 2 * z) * 2 * u + u;
}

const { POSITION, VELOCITY, ACCELERATION, FORCE_ACCUM: FORCE, INVERSE_MASS, DAMPING } = OFFSET;

export class StepErrorBound {
  /** Bounds on |a - b| per particle component, xyz packed. */
  readonly position: Float64Array;
  readonly velocity: Float64Array;
  steps = 0;

  constructor(
    readonly count: number,
    readonly variant: Variant,
  ) {
    this.position = new Float64Array(count * 3);
    this.velocity = new Float64Array(count * 3);
  }

  /**
   * Carries the bound across one step of `dt`, given the reference state before
   * it (forces already accumulated) and, if forces were, the bound on the
   * accumulators' difference, xyz per particle.
   */
  advance(before: FloatArray, dt: number, forceError: Float64Array | null = null): void {
    const u = UNIT_ROUNDOFF;
    const semiImplicit = this.variant.integrator === 'semi-implicit';
    for (let i = 0; i < this.count; i++) {
      const base = i * FLOATS_PER_PARTICLE;
      const inverseMass = before[base + INVERSE_MASS] as number;
      if (inverseMass <= 0) continue; // skipped: both sides leave it untouched
      const damping = before[base + DAMPING] as number;
      let keep = 1;
      let keepError = 0;
      if (this.variant.damping === 'per-step') keep = damping;
      if (this.variant.damping === 'per-second') {
        keep = Math.pow(damping, dt);
        keepError = damping === 0 || damping === 1 ? 0 : keep * powRelativeError(damping, dt);
      }
      for (let c = 0; c < 3; c++) {
        const j = i * 3 + c;
        const x = before[base + POSITION + c] as number;
        const v = before[base + VELOCITY + c] as number;
        const fw = (before[base + FORCE + c] as number) * inverseMass;
        const a = before[base + ACCELERATION + c] as number;
        const acc = a + fw;
        const forced = forceError ? inverseMass * (forceError[j] as number) * (1 + MULTIPLY_ADD) : 0;
        const accError = forced + MULTIPLY_ADD * (Math.abs(a) + Math.abs(fw)) + FLUSHED_SUBNORMAL;
        const undamped = v + acc * dt;
        const undampedError =
          (this.velocity[j] as number) +
          dt * accError +
          MULTIPLY_ADD * (Math.abs(v) + Math.abs(acc * dt)) +
          FLUSHED_SUBNORMAL;
        let velocity = undamped;
        let velocityError = undampedError;
        if (this.variant.damping !== 'off') {
          velocity = undamped * keep;
          velocityError =
            keep * undampedError + Math.abs(undamped) * keepError + 2 * u * Math.abs(velocity) + FLUSHED_SUBNORMAL;
        }
        const move = semiImplicit ? velocity : v;
        const moveError = semiImplicit ? velocityError : (this.velocity[j] as number);
        this.position[j] =
          (this.position[j] as number) +
          dt * moveError +
          MULTIPLY_ADD * (Math.abs(x) + Math.abs(move * dt)) +
          FLUSHED_SUBNORMAL;
        this.velocity[j] = velocityError;
      }
    }
    this.steps++;
  }
}

interface Mismatch {
  index: number;
  field: AttributeName;
  component: number;
  got: number;
  expected: number;
  allowed: number;
}

/**
 * Compares packed GPU state with the reference: position and velocity within
 * the carried bound, every other attribute bit for bit (the step never
 * computes them, it copies or clears them). Returns a message naming the first
 * mismatches (particle, field, component, step), or null.
 */
export function compareWithBound(
  gpu: Float32Array,
  reference: Float32Array,
  bound: StepErrorBound,
  context: string,
): string | null {
  const mismatches: Mismatch[] = [];
  const exactFields: AttributeName[] = ['acceleration', 'forceAccum', 'inverseMass', 'damping'];
  const gpuBits = new Uint32Array(gpu.buffer, gpu.byteOffset, gpu.length);
  const referenceBits = new Uint32Array(reference.buffer, reference.byteOffset, reference.length);
  let total = 0;
  for (let i = 0; i < bound.count; i++) {
    const base = i * FLOATS_PER_PARTICLE;
    for (const [field, errors] of [
      ['position', bound.position],
      ['velocity', bound.velocity],
    ] as const) {
      for (let c = 0; c < 3; c++) {
        const at = base + attributeOffset(field) + c;
        const got = gpu[at] as number;
        const expected = reference[at] as number;
        const allowed = errors[i * 3 + c] as number;
        if (!(Math.abs(got - expected) <= allowed)) {
          total++;
          if (mismatches.length < 5) mismatches.push({ index: i, field, component: c, got, expected, allowed });
        }
      }
    }
    for (const field of exactFields) {
      const size = field === 'acceleration' || field === 'forceAccum' ? 3 : 1;
      for (let c = 0; c < size; c++) {
        const at = base + attributeOffset(field) + c;
        // +0 and -0 are the same cleared accumulator.
        const same = gpuBits[at] === referenceBits[at] || (gpu[at] === 0 && reference[at] === 0);
        if (!same) {
          total++;
          if (mismatches.length < 5) {
            mismatches.push({
              index: i,
              field,
              component: c,
              got: gpu[at] as number,
              expected: reference[at] as number,
              allowed: 0,
            });
          }
        }
      }
    }
  }
  if (total === 0) return null;
  const lines = mismatches.map(
    (m) =>
      `particle ${m.index} ${m.field}[${'xyz'[m.component]}] after step ${bound.steps}: ` +
      `GPU ${m.got}, reference ${m.expected}, |diff| ${Math.abs(m.got - m.expected)} > allowed ${m.allowed}`,
  );
  return `${context}: ${total} mismatches, first:\n  ${lines.join('\n  ')}`;
}
