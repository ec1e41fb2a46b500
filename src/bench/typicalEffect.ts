import type { ForceGenerator } from '../core/forces/generators';

/** The forces of a typical effect, as the forces issue defines its target: what a spark fountain or smoke plume registers. */
export const TYPICAL_EFFECT: readonly ForceGenerator[] = [
  { type: 'gravity', g: [0, -9.81, 0] },
  { type: 'drag', k1: 0.05, k2: 0.01 },
  { type: 'attractor', position: [0, 2, 0], strength: 20, softening: 0.5 },
  { type: 'turbulence', strength: 2, frequency: 0.8, seed: 1 },
];

/** The typical spark shower's forces: the typical effect's gravity and drag (no attractor, no turbulence). */
export const SHOWER_FORCES: readonly ForceGenerator[] = TYPICAL_EFFECT.filter(
  (generator) => generator.type === 'gravity' || generator.type === 'drag',
);
