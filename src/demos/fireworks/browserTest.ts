import { colourBy, demoBrowserTest } from '../shared/browserTest';

/** Fireworks in the browser test: 32,768 slots, 60 steps a second, until the first bursts are in the sky. */
export const fireworksBrowserTest = demoBrowserTest('fireworks', {
  query: '?count=32768&stepRate=60&maxSteps=12',
  steps: 170,
  change: colourBy('speed'),
  // The status line: the live count read back from the GPU's lifecycle counters.
  text: 'live of 32,768 slots',
});
