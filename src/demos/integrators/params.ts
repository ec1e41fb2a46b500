/** The Integrators demo's parameters: the scene and run, the clock, and the plot's look. */
import { clockParams } from '../shared/commonParams';
import { param } from '../shared/params';

export const SCENES = ['ballistic', 'drag'] as const;

export const INTEGRATORS_PARAMS = {
  scene: param.choice('ballistic', SCENES, { folder: 'Run', rebuild: true }),
  steps: param.integer(240, 10, 2000, { folder: 'Run', rebuild: true }),
  hold: param.number(1.5, 0, 10, { folder: 'Run', step: 0.1, label: 'hold at the end (s)' }),
  ...clockParams({ stepRate: 60, maxSteps: 16 }),
  // The step rate is the run's dt, which the CPU reference uses too: a change reruns both.
  stepRate: param.integer(60, 10, 1000, { folder: 'Simulation', rebuild: true, label: 'steps per second' }),
  dotEvery: param.integer(4, 1, 64, { folder: 'Look', label: 'GPU dot every n steps' }),
  dotSize: param.number(2.6, 0.5, 8, { folder: 'Look', step: 0.1, label: 'GPU dot radius (px)' }),
  lineWidth: param.number(1.2, 0.5, 6, { folder: 'Look', step: 0.1, label: 'CPU line width (px)' }),
  lineAlpha: param.number(0.9, 0.1, 1, { folder: 'Look', step: 0.05, label: 'CPU line opacity' }),
};
