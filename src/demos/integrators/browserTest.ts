import type { DemoBrowserTest } from '../shared/browserTest';

/**
 * Integrators in the browser test: four times faster, holding the finished
 * run on screen; the test also checks the page's GPU trajectories against the
 * CPU reference within the carried float32 bound.
 */
export const integratorsBrowserTest: DemoBrowserTest = {
  id: 'integrators',
  query: '?timeScale=4&hold=10',
  steps: 240,
  change: { label: 'CPU line width (px)', key: 'lineWidth', value: 5 },
};
