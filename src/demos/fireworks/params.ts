/** The Fireworks demo's parameters: the panel, the URL, and their defaults. */
import { clockParams, lookParams, variantParams } from '../shared/commonParams';
import { param } from '../shared/params';

export const FIREWORKS_PARAMS = {
  count: param.integer(65536, 1024, 1 << 20, { folder: 'Fireworks', rebuild: true }),
  bursts: param.integer(32, 4, 256, { folder: 'Fireworks', rebuild: true, label: 'bursts in flight' }),
  launchRate: param.number(1.8, 0.1, 20, { folder: 'Fireworks', step: 0.1, label: 'launches per second' }),
  rocketSpeed: param.number(24, 5, 60, { folder: 'Fireworks', step: 0.5, label: 'rocket speed' }),
  burstSpeed: param.number(11, 1, 40, { folder: 'Fireworks', step: 0.5, label: 'burst speed' }),
  lifetime: param.number(2.6, 0.3, 8, { folder: 'Fireworks', step: 0.1 }),
  gravity: param.number(9.81, 0, 30, { folder: 'Fireworks', step: 0.01 }),
  dampingValue: param.number(0.35, 0, 1, { folder: 'Fireworks', step: 0.01, label: 'damping (kept per s)' }),
  seed: param.integer(1, 0, 1e6, { folder: 'Fireworks', rebuild: true }),
  ...clockParams({ stepRate: 120 }),
  ...variantParams('explicit', 'per-second'),
  ...lookParams({ mode: 'sparks', blend: 'additive', colorMode: 'life', size: 0.085, intensity: 1.7 }),
  stretch: param.number(0.045, 0, 0.3, { folder: 'Look', step: 0.005, label: 'spark length (s)' }),
  ground: param.boolean(true, { folder: 'Look' }),
};
