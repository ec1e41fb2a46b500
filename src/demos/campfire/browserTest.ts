import { BRIGHTER, demoBrowserTest } from '../shared/browserTest';

/**
 * Campfire in the browser test: its scene file as it is (4,096 slots), until the
 * smoke has risen; the status line shows the live count; brightness changes the picture.
 */
export const campfireBrowserTest = demoBrowserTest('campfire', {
  query: '?stepRate=30&maxSteps=4',
  steps: 90,
  change: BRIGHTER,
  text: 'live of 4,096 slots',
});
