import type { DemoBrowserTest } from '../shared/browserTest';

/** Fountain in the browser test: 32,768 particles until the first jets have landed and bounced on the ground. */
export const fountainBrowserTest: DemoBrowserTest = {
  id: 'fountain',
  query: '?count=32768&stepRate=60&maxSteps=12',
  steps: 180,
  change: { label: 'colour', key: 'colorMode', value: 'index' },
  text: 'restitution',
};
