/** The Galaxy demo's parameters: the panel, the URL, and their defaults. */
import { clockParams, lookParams, variantParams } from '../shared/commonParams';
import { param } from '../shared/params';

export const GALAXY_PARAMS = {
  count: param.integer(1 << 20, 1024, 1 << 22, { folder: 'Galaxy', rebuild: true }),
  attractors: param.integer(3, 1, 4, { folder: 'Galaxy', rebuild: true }),
  arms: param.integer(2, 1, 6, { folder: 'Galaxy', rebuild: true }),
  spin: param.number(1, 0.1, 4, { folder: 'Galaxy', step: 0.05, rebuild: true, label: 'orbit speed' }),
  reaim: param.number(1, 0, 10, { folder: 'Galaxy', step: 0.05, label: 're-aim period (s, 0: never)' }),
  seed: param.integer(3, 0, 1e6, { folder: 'Galaxy', rebuild: true }),
  ...clockParams({ stepRate: 60, maxSteps: 4 }),
  ...variantParams('semi-implicit', 'off'),
  ...lookParams({ mode: 'points', blend: 'additive', colorMode: 'speed', size: 0.03, intensity: 0.55 }),
  grid: param.boolean(false, { folder: 'Look' }),
};
