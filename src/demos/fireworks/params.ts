/** The Fireworks demo's parameters: the panel, the URL, and their defaults. */
import { clockParams, lookParams, variantParams } from '../shared/commonParams';
import { param } from '../shared/params';

/** What the launchers fire: a mix of Cyclone's nine types, or one type alone (Cyclone's key press 1 to 9). */
export const LAUNCH_TYPES = ['mix', '1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;
export type LaunchType = (typeof LAUNCH_TYPES)[number];

export const FIREWORKS_PARAMS = {
  count: param.integer(65536, 1024, 1 << 20, { folder: 'Fireworks', rebuild: true, label: 'capacity' }),
  launchRate: param.number(2, 0, 20, { folder: 'Fireworks', step: 0.1, label: 'launches per second' }),
  launch: param.choice<LaunchType>('mix', LAUNCH_TYPES, { folder: 'Fireworks', label: 'firework type' }),
  payload: param.integer(12, 1, 25, { folder: 'Fireworks', rebuild: true, label: 'payload × (1: Cyclone)' }),
  gravity: param.number(9.81, 0, 30, { folder: 'Fireworks', step: 0.01, rebuild: true }),
  seed: param.integer(1, 0, 1e6, { folder: 'Fireworks', rebuild: true }),
  ...clockParams({ stepRate: 120 }),
  ...variantParams('explicit', 'per-second'),
  ...lookParams({ mode: 'sparks', blend: 'additive', colorMode: 'life', size: 0.09, intensity: 2 }),
  stretch: param.number(0.06, 0, 0.3, { folder: 'Look', step: 0.005, label: 'spark length (s)' }),
  ground: param.boolean(true, { folder: 'Look' }),
};
