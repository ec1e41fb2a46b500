import { BRIGHTER, demoBrowserTest } from '../shared/browserTest';

/**
 * Rain in the browser test: its scene file as it is (16,384 slots), until the
 * first drops have landed and splashed; brightness changes the picture.
 */
export const rainBrowserTest = demoBrowserTest('rain', {
  query: '?stepRate=30&maxSteps=4',
  steps: 60,
  change: BRIGHTER,
  text: 'live of 16,384 slots',
});
