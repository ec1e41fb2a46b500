import { validator, type Validator } from './validation';

const check: Validator = validator();

/**
 * `explicit`: Cyclone and Lander, position advances with the old velocity.
 * `semi-implicit`: Bourg's `UpdateBodyEuler`, velocity first, then position
 * from the new velocity (symplectic Euler).
 */
export const INTEGRATION_ORDERS = ['explicit', 'semi-implicit'] as const;
/** Which velocity moves the position: the old (`explicit`) or the new (`semi-implicit`); see INTEGRATION_ORDERS. */
export type IntegrationOrder = (typeof INTEGRATION_ORDERS)[number];

/**
 * `per-second`: `v *= pow(damping, dt)` (Millington eq. 3.6; damping is the
 * share of velocity kept each second, so the share kept over a span does not
 * depend on how the span is split). `per-step`: `v *= damping` (eq. 3.5;
 * cheaper, frame-rate dependent). `off`: no damping, for thousands of sparks
 * where pow is too slow. Both apply the factor as Cyclone's code does, after
 * the step's acceleration is added: `v = (v + a dt) k` (Particle::integrate,
 * seed 000), not the book's printed `v d + a t` and `v d^t + a t` (seed 003),
 * which leave `a dt` undamped; test/cycloneClaims.test.ts checks it.
 */
export const DAMPING_MODES = ['per-second', 'per-step', 'off'] as const;
/** How damping is applied each step; see DAMPING_MODES. */
export type DampingMode = (typeof DAMPING_MODES)[number];

/** A step variant: fixed per system, compiled into the step's WGSL as override constants. */
export interface Variant {
  /** Position from the old velocity (`explicit`) or the new one (`semi-implicit`). */
  readonly integrator: IntegrationOrder;
  /** `per-second`, `per-step` or `off`. */
  readonly damping: DampingMode;
}

/** Cyclone's variant: explicit Euler, damping per second. */
export const DEFAULT_VARIANT: Variant = { integrator: 'explicit', damping: 'per-second' };

/** Every integrator x damping combination, for tests and benchmarks. */
export const ALL_VARIANTS: readonly Variant[] = INTEGRATION_ORDERS.flatMap((integrator) =>
  DAMPING_MODES.map((damping) => ({ integrator, damping })),
);

/** The variant as `integrator/damping`, e.g. `explicit/per-second`, for logs and reports. */
export function variantName(variant: Variant): string {
  return `${variant.integrator}/${variant.damping}`;
}

/** Checks user-supplied names (typed or raw strings from a CLI or file) and fills defaults. */
export function resolveVariant(
  partial: { integrator?: string | undefined; damping?: string | undefined } = {},
): Variant {
  const integrator = (partial.integrator ?? DEFAULT_VARIANT.integrator) as IntegrationOrder;
  const damping = (partial.damping ?? DEFAULT_VARIANT.damping) as DampingMode;
  if (!INTEGRATION_ORDERS.includes(integrator)) {
    check.refuse('integrator', integrator, `must be one of ${INTEGRATION_ORDERS.join(', ')}`);
  }
  if (!DAMPING_MODES.includes(damping)) {
    check.refuse('damping', damping, `must be one of ${DAMPING_MODES.join(', ')}`);
  }
  return { integrator, damping };
}
