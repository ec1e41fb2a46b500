/** The Fountain demo's parameters: the panel, the URL, and their defaults. */
import { clockParams, lookParams, variantParams } from '../shared/commonParams';
import { param } from '../shared/params';

export const FOUNTAIN_PARAMS = {
  count: param.integer(65536, 1024, 1 << 20, { folder: 'Fountain', rebuild: true }),
  batches: param.integer(160, 8, 1024, { folder: 'Fountain', rebuild: true, label: 'batches in flight' }),
  jets: param.integer(7, 1, 16, { folder: 'Fountain', label: 'jets' }),
  speed: param.number(9.5, 1, 30, { folder: 'Fountain', step: 0.1 }),
  spread: param.number(4, 0, 45, { folder: 'Fountain', step: 0.5, label: 'spread (degrees)' }),
  lifetime: param.number(3.2, 0.3, 8, { folder: 'Fountain', step: 0.1, rebuild: true }),
  seed: param.integer(7, 0, 1e6, { folder: 'Fountain', rebuild: true }),
  gravity: param.number(9.81, 0, 30, { folder: 'Forces', step: 0.01 }),
  k1: param.number(0.25, 0, 5, { folder: 'Forces', step: 0.01, label: 'drag k1 (N s/m)' }),
  k2: param.number(0.01, 0, 1, { folder: 'Forces', step: 0.001, label: 'drag k2 (N s²/m²)' }),
  restitution: param.number(0.45, 0, 1, { folder: 'Ground', step: 0.01 }),
  friction: param.number(0.3, 0, 2, { folder: 'Ground', step: 0.01 }),
  ...clockParams({ stepRate: 120 }),
  ...variantParams('explicit', 'per-second'),
  ...lookParams({ mode: 'sprites', blend: 'additive', colorMode: 'speed', size: 0.035, intensity: 0.55 }),
};
