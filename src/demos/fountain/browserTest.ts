import type { DemoBrowserTest } from '../shared/browserTest';

/** Fountain in the browser test: 32,768 particles until the jets have reached the ground. */
export const fountainBrowserTest: DemoBrowserTest = {
  id: 'fountain',
  query: '?count=32768&stepRate=60&maxSteps=12',
  steps: 150,
  change: { label: 'colour', key: 'colorMode', value: 'index' },
  text: 'not yet collided with',
};
