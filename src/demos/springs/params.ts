/** The Springs demo's parameters: the cloth's size (its particles at rest; the springs wait for the forces issue). */
import { clockParams, lookParams } from '../shared/commonParams';
import { param } from '../shared/params';

export const SPRINGS_PARAMS = {
  columns: param.integer(48, 2, 512, { folder: 'Cloth', rebuild: true }),
  rows: param.integer(32, 2, 512, { folder: 'Cloth', rebuild: true }),
  spacing: param.number(0.25, 0.05, 1, { folder: 'Cloth', step: 0.01, rebuild: true }),
  ...clockParams({ stepRate: 120 }),
  ...lookParams({ mode: 'sprites', blend: 'alpha', colorMode: 'index', size: 0.06, intensity: 1 }),
};
