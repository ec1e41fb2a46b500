/** The Fountain demo's parameters: the panel, the URL, and their defaults. */
import { clockParams, jetParams, lookParams, variantParams } from '../shared/commonParams';
import { param } from '../shared/params';

/**
 * What a jet's emitter is built from (its shape, velocity, acceleration,
 * lifetime, collision radius) is fixed when the system is made, so those
 * parameters rebuild the demo; the flow (the emitters' rates), the drag and
 * the ground apply live.
 */
export const FOUNTAIN_PARAMS = {
  count: param.integer(65536, 1024, 1 << 20, { folder: 'Fountain', rebuild: true, label: 'capacity' }),
  flow: param.number(1, 0, 1, { folder: 'Fountain', step: 0.01, label: 'flow (1: fills the pool)' }),
  jets: param.integer(7, 1, 16, { folder: 'Fountain', rebuild: true, label: 'jets' }),
  ...jetParams('Fountain', { speed: 9.5, maxSpeed: 30, spread: 4, lifetime: 3.2, seed: 7 }),
  gravity: param.number(9.81, 0, 30, { folder: 'Forces', step: 0.01, rebuild: true }),
  k1: param.number(0.25, 0, 5, { folder: 'Forces', step: 0.01, label: 'drag k1 (N s/m)' }),
  k2: param.number(0.01, 0, 1, { folder: 'Forces', step: 0.001, label: 'drag k2 (N s²/m²)' }),
  restitution: param.number(0.45, 0, 1, { folder: 'Ground', step: 0.01 }),
  friction: param.number(0.3, 0, 2, { folder: 'Ground', step: 0.01 }),
  ...clockParams({ stepRate: 120 }),
  ...variantParams('explicit', 'per-second'),
  ...lookParams({ mode: 'sprites', blend: 'additive', colorMode: 'life', size: 0.035, intensity: 0.55 }),
  // The droplet's collision radius is its sprite's (so it sits on the ground), fixed in the emitters: a rebuild.
  size: param.number(0.035, 0.001, 1, { folder: 'Look', step: 0.001, rebuild: true }),
};
