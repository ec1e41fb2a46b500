import type { DemoBrowserTest } from '../shared/browserTest';

/** Fireworks in the browser test: 32,768 particles, 60 steps a second, until the first bursts are in the sky. */
export const fireworksBrowserTest: DemoBrowserTest = {
  id: 'fireworks',
  query: '?count=32768&stepRate=60&maxSteps=12',
  steps: 170,
  change: { label: 'colour', key: 'colorMode', value: 'speed' },
  text: 'Stand-in until the emitters issue lands',
};
