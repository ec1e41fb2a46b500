import { colourBy, demoBrowserTest } from '../shared/browserTest';

/**
 * Fountain in the browser test: 32,768 slots, 60 steps a second, until the first droplets have landed and
 * bounced on the ground; the status line must show the live count read back from the lifecycle's counters.
 */
export const fountainBrowserTest = demoBrowserTest('fountain', {
  query: '?count=32768&stepRate=60&maxSteps=12',
  steps: 180,
  change: colourBy('speed'),
  text: 'droplets live of 32,768 slots',
});
