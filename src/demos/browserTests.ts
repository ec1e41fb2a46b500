/** Every demo's browser test, in gallery order (test/browser.test.ts runs them). */
import type { DemoBrowserTest } from './shared/browserTest';
import { fireworksBrowserTest } from './fireworks/browserTest';
import { fountainBrowserTest } from './fountain/browserTest';
import { galaxyBrowserTest } from './galaxy/browserTest';
import { springsBrowserTest } from './springs/browserTest';
import { integratorsBrowserTest } from './integrators/browserTest';
import { threeBrowserTest } from './three/browserTest';
import { campfireBrowserTest } from './campfire/browserTest';
import { rainBrowserTest } from './rain/browserTest';
import { playgroundBrowserTest } from './playground/browserTest';

export const DEMO_BROWSER_TESTS: readonly DemoBrowserTest[] = [
  fireworksBrowserTest,
  fountainBrowserTest,
  galaxyBrowserTest,
  springsBrowserTest,
  integratorsBrowserTest,
  threeBrowserTest,
  campfireBrowserTest,
  rainBrowserTest,
  playgroundBrowserTest,
];
