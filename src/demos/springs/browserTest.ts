import type { DemoBrowserTest } from '../shared/browserTest';

/** Springs in the browser test: the cloth at rest, and the page must say what it waits for. */
export const springsBrowserTest: DemoBrowserTest = {
  id: 'springs',
  query: '',
  steps: 2,
  change: { label: 'size', key: 'size', value: 0.16 },
  text: 'Waiting for the forces issue',
};
