import type { DemoBrowserTest } from '../shared/browserTest';

/**
 * Campfire in the browser test: its scene file as it is (4,096 slots), until the
 * smoke has risen; the status line shows the live count; brightness changes the picture.
 */
export const campfireBrowserTest: DemoBrowserTest = {
  id: 'campfire',
  query: '?stepRate=30&maxSteps=4',
  steps: 90,
  change: { label: 'brightness', key: 'intensity', value: 2 },
  text: 'live of 4,096 slots',
};
