import { BRIGHTER, demoBrowserTest } from '../shared/browserTest';

/**
 * The playground in the gallery's browser test: the campfire example (its
 * preview full of particles), brightness changes the picture. Its own test,
 * test/browser.playground.test.ts, loads every example and checks the editor.
 */
export const playgroundBrowserTest = demoBrowserTest('playground', {
  query: '?stepRate=30&maxSteps=4#example=campfire',
  steps: 60,
  change: BRIGHTER,
  text: 'campfire.json is a valid scene',
});
