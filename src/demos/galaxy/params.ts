/** The Galaxy demo's parameters: the panel, the URL, and their defaults. */
import { clockParams, lookParams, variantParams } from '../shared/commonParams';
import { param } from '../shared/params';

/** Who pulls whom: every attractor every particle (satellites orbit the core), or each attractor its own disc only. */
export const GALAXY_COUPLINGS = ['all', 'own'] as const;

export const GALAXY_PARAMS = {
  count: param.integer(1 << 20, 1024, 1 << 22, { folder: 'Galaxy', rebuild: true }),
  attractors: param.integer(3, 1, 4, { folder: 'Galaxy', rebuild: true }),
  coupling: param.choice('all', GALAXY_COUPLINGS, { folder: 'Galaxy', rebuild: true, label: 'attractors pull' }),
  arms: param.integer(2, 1, 6, { folder: 'Galaxy', rebuild: true }),
  spin: param.number(1, 0, 1.5, { folder: 'Galaxy', step: 0.01, rebuild: true, label: 'spin (1: circular)' }),
  strength: param.number(400, 10, 2000, { folder: 'Galaxy', step: 1, label: 'strength (N m²)' }),
  softening: param.number(1.5, 0.2, 8, { folder: 'Galaxy', step: 0.05, label: 'softening (m)' }),
  seed: param.integer(3, 0, 1e6, { folder: 'Galaxy', rebuild: true }),
  ...clockParams({ stepRate: 120, maxSteps: 4 }),
  ...variantParams('semi-implicit', 'off'),
  ...lookParams({ mode: 'points', blend: 'additive', colorMode: 'speed', size: 0.03, intensity: 0.55 }),
  grid: param.boolean(false, { folder: 'Look' }),
};
