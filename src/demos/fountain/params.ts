/** The Fountain demo's parameters: the panel, the URL, and their defaults. */
import { clockParams, lookParams, variantParams } from '../shared/commonParams';
import { param } from '../shared/params';

export const FOUNTAIN_PARAMS = {
  count: param.integer(65536, 1024, 1 << 20, { folder: 'Fountain', rebuild: true }),
  batches: param.integer(160, 8, 1024, { folder: 'Fountain', rebuild: true, label: 'batches in flight' }),
  jets: param.integer(7, 1, 16, { folder: 'Fountain', label: 'jets' }),
  speed: param.number(9.5, 1, 30, { folder: 'Fountain', step: 0.1 }),
  spread: param.number(4, 0, 45, { folder: 'Fountain', step: 0.5, label: 'spread (degrees)' }),
  lifetime: param.number(2.4, 0.3, 8, { folder: 'Fountain', step: 0.1, rebuild: true }),
  gravity: param.number(9.81, 0, 30, { folder: 'Fountain', step: 0.01 }),
  dampingValue: param.number(0.75, 0, 1, { folder: 'Fountain', step: 0.01, label: 'damping (kept per s)' }),
  seed: param.integer(7, 0, 1e6, { folder: 'Fountain', rebuild: true }),
  ...clockParams({ stepRate: 120 }),
  ...variantParams('explicit', 'per-second'),
  ...lookParams({ mode: 'sprites', blend: 'additive', colorMode: 'speed', size: 0.035, intensity: 0.55 }),
};
