/** The Campfire demo's parameters: the panel, the URL, and their defaults. */
import { clockParams, variantParams } from '../shared/commonParams';
import { param } from '../shared/params';

/** The scene file (public/scenes/campfire.json) says what burns; the panel only brightens it and shows the trails. */
export const CAMPFIRE_PARAMS = {
  intensity: param.number(1, 0.05, 4, { folder: 'Look', step: 0.05, label: 'brightness' }),
  trails: param.boolean(true, { folder: 'Look', label: "sparks' trails" }),
  ...clockParams({ stepRate: 60 }),
  ...variantParams('explicit', 'per-second'),
};
