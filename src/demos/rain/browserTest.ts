import type { DemoBrowserTest } from '../shared/browserTest';

/**
 * Rain in the browser test: its scene file as it is (16,384 slots), until the
 * first drops have landed and splashed; brightness changes the picture.
 */
export const rainBrowserTest: DemoBrowserTest = {
  id: 'rain',
  query: '?stepRate=30&maxSteps=4',
  steps: 60,
  change: { label: 'brightness', key: 'intensity', value: 2 },
  text: 'live of 16,384 slots',
};
