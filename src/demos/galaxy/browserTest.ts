import { colourBy, demoBrowserTest } from '../shared/browserTest';

/**
 * Galaxy in the browser test: 65,536 particles instead of a million (a few
 * frames a second on SwiftShader), after 2 s of orbits (a quarter turn of the
 * main disc's middle, many turns of its core).
 */
export const galaxyBrowserTest = demoBrowserTest('galaxy', {
  query: '?count=65536&maxSteps=16',
  steps: 240,
  change: colourBy('index'),
  text: 'Orbits under real attraction',
});
