/**
 * The CPU reference of shaders/step/integrate.wgsl: Cyclone's Particle::integrate
 * over the packed layout, line for line in the shader's order, so the two can
 * be read side by side. With `round = Math.fround` every operation rounds to
 * float32 as the GPU does; with the identity it runs in float64 to measure the
 * float32 error itself.
 */
import { OFFSET, FLOATS_PER_PARTICLE } from './layout';
import type { FloatArray } from './particles';
import type { Variant } from './variants';
import type { HealthRecord } from './nonFinite';
import { DEAD_RADIUS } from './collisions/colliders';

export type Rounding = (x: number) => number;

const { POSITION, INVERSE_MASS, VELOCITY, DAMPING, ACCELERATION, FORCE_ACCUM, RADIUS } = OFFSET;

/** Whether particle `base`'s position and velocity are all finite (shaders/shared/health.wgsl's isFiniteState). */
export function isFiniteState(state: FloatArray, base: number): boolean {
  for (let c = 0; c < 3; c++) {
    if (!Number.isFinite(state[base + POSITION + c]) || !Number.isFinite(state[base + VELOCITY + c])) return false;
  }
  return true;
}

/**
 * Particle `index` (record at `base`) went from finite to non-finite: counted,
 * and with policy `park` made immovable and collision-free (inverse mass 0,
 * radius DEAD_RADIUS, velocity 0), as shaders/shared/health.wgsl's parkIfNonFinite does.
 */
export function noteNonFinite(state: FloatArray, base: number, index: number, health: HealthRecord): void {
  health.note(index);
  if (!health.park) return;
  state[base + INVERSE_MASS] = 0;
  state[base + RADIUS] = DEAD_RADIUS;
  for (let c = 0; c < 3; c++) state[base + VELOCITY + c] = 0;
}

/**
 * The share of velocity kept this step. Damping 0 and 1 are exact (pow(0, dt)
 * and pow(1, dt) are 0 and 1 mathematically; the shader selects them rather
 * than trusting a GPU pow built on exp2(dt * log2(d)) to hit them exactly).
 */
export function dampingFactor(variant: Variant, damping: number, dt: number, round: Rounding): number {
  switch (variant.damping) {
    case 'per-second':
      return damping === 0 || damping === 1 ? damping : round(Math.pow(damping, dt));
    case 'per-step':
      return damping;
    case 'off':
      return 1;
  }
}

/**
 * One step of `dt` for particles [0, count) of `state`, in place. With
 * `health`, a particle whose state the step takes from finite to non-finite
 * is counted and handled by its policy.
 */
export function integrate(
  state: FloatArray,
  count: number,
  dt: number,
  variant: Variant,
  round: Rounding,
  health: HealthRecord | null = null,
): void {
  const semiImplicit = variant.integrator === 'semi-implicit';
  for (let i = 0; i < count; i++) {
    const base = i * FLOATS_PER_PARTICLE;
    // We don't integrate things with infinite mass.
    const inverseMass = state[base + INVERSE_MASS] as number;
    if (inverseMass <= 0) continue;

    const keep = dampingFactor(variant, state[base + DAMPING] as number, dt, round);
    const wasFinite = health !== null && isFiniteState(state, base);
    for (let c = 0; c < 3; c++) {
      const p = base + POSITION + c;
      const v = base + VELOCITY + c;
      const oldVelocity = state[v] as number;
      // Work out the acceleration from the force: a + f * (1/m).
      const resultingAcc = round(
        (state[base + ACCELERATION + c] as number) + round((state[base + FORCE_ACCUM + c] as number) * inverseMass),
      );
      // Update linear velocity from the acceleration, then impose drag: v = (v + a dt) k, as
      // Cyclone's code does (not the book's printed eq. 3.5/3.6, v k + a dt; see variants.ts).
      let velocity = round(oldVelocity + round(resultingAcc * dt));
      if (variant.damping !== 'off') velocity = round(velocity * keep);
      // Explicit (Cyclone, Lander): position moves with the old velocity.
      // Semi-implicit (Bourg): with the new one.
      const moveWith = semiImplicit ? velocity : oldVelocity;
      state[p] = round((state[p] as number) + round(moveWith * dt));
      state[v] = velocity;
      // Clear the forces.
      state[base + FORCE_ACCUM + c] = 0;
    }
    if (wasFinite && !isFiniteState(state, base)) noteNonFinite(state, base, i, health);
  }
}
