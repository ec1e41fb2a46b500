import { colourBy, demoBrowserTest } from '../shared/browserTest';

/**
 * The three.js page in the browser test: 16,384 slots, 60 steps a second,
 * until the first sparks have landed on the ball and the floor; the status
 * line must show the live count read back from the lifecycle's counters.
 */
export const threeBrowserTest = demoBrowserTest('three', {
  query: '?count=16384&stepRate=60&maxSteps=8',
  steps: 120,
  change: colourBy('index'),
  text: 'sparks live of 16,384 slots',
});
