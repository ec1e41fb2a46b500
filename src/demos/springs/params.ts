/** The Springs demo's parameters: the cloth's grid, its springs, the air and the wind, and whether the springs are drawn. */
import { clockParams, lookParams, variantParams } from '../shared/commonParams';
import { param } from '../shared/params';

export const SPRINGS_PARAMS = {
  columns: param.integer(32, 2, 256, { folder: 'Cloth', rebuild: true }),
  rows: param.integer(24, 2, 256, { folder: 'Cloth', rebuild: true }),
  spacing: param.number(0.25, 0.05, 1, { folder: 'Cloth', step: 0.01, rebuild: true }),
  stiffness: param.number(5000, 10, 10000, { folder: 'Cloth', step: 10, label: 'stiffness (N/m)' }),
  shear: param.boolean(true, { folder: 'Cloth', rebuild: true, label: 'shear springs' }),
  dampingValue: param.number(0.5, 0, 1, { folder: 'Air', step: 0.01, label: 'damping (kept per s)' }),
  drag: param.number(0.02, 0, 1, { folder: 'Air', step: 0.001, label: 'drag k2 (N s²/m²)' }),
  gravity: param.number(9.81, 0, 30, { folder: 'Air', step: 0.01 }),
  wind: param.number(4, 0, 30, { folder: 'Air', step: 0.1, label: 'wind (N)' }),
  turbulence: param.number(0.8, 0, 4, { folder: 'Air', step: 0.01, label: 'turbulence (share of wind)' }),
  ...clockParams({ stepRate: 240 }),
  ...variantParams('semi-implicit', 'per-second'),
  ...lookParams({ mode: 'sprites', blend: 'alpha', colorMode: 'index', size: 0.08, intensity: 1 }),
  drawSprings: param.boolean(true, { folder: 'Look', label: 'draw springs' }),
};
