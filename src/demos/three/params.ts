/** The three.js demo's parameters: the panel, the URL, and their defaults. */
import { BLEND_MODES, COLOR_MODES, DRAW_MODES } from 'sparkworks/render';
import { clockParams, jetParams } from '../shared/commonParams';
import { param, type ParamValues } from '../shared/params';

/**
 * What an emitter makes (speed, spread, lifetime, gravity, the sparks'
 * collision radius) is fixed when the system is made, so those parameters
 * rebuild the particle system (the three.js scene stays); the flow, the drag,
 * the colliders' bounce and friction and the look apply live.
 */
export const THREE_PARAMS = {
  count: param.integer(65536, 1024, 1 << 20, { folder: 'Sparks', rebuild: true, label: 'capacity' }),
  flow: param.number(1, 0, 1, { folder: 'Sparks', step: 0.01, label: 'flow (1: fills the pool)' }),
  ...jetParams('Sparks', { speed: 7.4, maxSpeed: 20, spread: 6, lifetime: 3, seed: 11 }),
  gravity: param.number(9.81, 0, 30, { folder: 'Forces', step: 0.01, rebuild: true }),
  k1: param.number(0.3, 0, 5, { folder: 'Forces', step: 0.01, label: 'drag k1 (N s/m)' }),
  restitution: param.number(0.5, 0, 1, { folder: 'Colliders', step: 0.01 }),
  friction: param.number(0.25, 0, 2, { folder: 'Colliders', step: 0.01 }),
  depthTest: param.boolean(true, { folder: 'Look', label: "hidden by three's meshes" }),
  mode: param.choice('sparks', DRAW_MODES, { folder: 'Look' }),
  blend: param.choice('additive', BLEND_MODES, { folder: 'Look' }),
  colorMode: param.choice('life', COLOR_MODES, { folder: 'Look', label: 'colour' }),
  intensity: param.number(0.8, 0.01, 4, { folder: 'Look', step: 0.01 }),
  // The sparks' collision radius is their sprite's (so they sit on the ball and the floor): fixed in the emitters.
  size: param.number(0.03, 0.001, 0.5, { folder: 'Look', step: 0.001, rebuild: true }),
  ...clockParams({ stepRate: 120 }),
};

export type ThreeParams = ParamValues<typeof THREE_PARAMS>;
