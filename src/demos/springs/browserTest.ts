import { demoBrowserTest } from '../shared/browserTest';

/** Springs in the browser test: the cloth after 1.5 s of falling into its springs and blowing in the wind. */
export const springsBrowserTest = demoBrowserTest('springs', {
  query: '?maxSteps=16',
  steps: 360,
  change: { label: 'size', key: 'size', value: 0.16 },
  text: 'pair springs',
});
