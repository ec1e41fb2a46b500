/** The Rain demo's parameters: the panel, the URL, and their defaults. */
import { clockParams, variantParams } from '../shared/commonParams';
import { param } from '../shared/params';

/** The scene file (public/scenes/rain.json) says how it rains; the panel brightens it. */
export const RAIN_PARAMS = {
  intensity: param.number(1, 0.05, 4, { folder: 'Look', step: 0.05, label: 'brightness' }),
  ...clockParams({ stepRate: 60 }),
  ...variantParams('explicit', 'per-second'),
};
