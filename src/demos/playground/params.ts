/** The playground's parameters: the panel, the URL's query, and their defaults (the scene itself is in the hash). */
import { clockParams, variantParams } from '../shared/commonParams';
import { param } from '../shared/params';

export const PLAYGROUND_PARAMS = {
  colliders: param.boolean(true, { folder: 'Show', label: 'colliders' }),
  links: param.boolean(true, { folder: 'Show', label: 'links' }),
  emitters: param.boolean(true, { folder: 'Show', label: 'emitter shapes' }),
  trails: param.boolean(true, { folder: 'Show', label: 'trails' }),
  axes: param.boolean(true, { folder: 'Show', label: 'axes' }),
  intensity: param.number(1, 0.05, 4, { folder: 'Show', step: 0.05, label: 'brightness' }),
  ...clockParams({ stepRate: 60 }),
  ...variantParams('explicit', 'per-second'),
};
