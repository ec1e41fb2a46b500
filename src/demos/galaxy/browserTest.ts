import type { DemoBrowserTest } from '../shared/browserTest';

/** Galaxy in the browser test: 65,536 particles instead of a million (a few frames a second on SwiftShader). */
export const galaxyBrowserTest: DemoBrowserTest = {
  id: 'galaxy',
  query: '?count=65536',
  steps: 40,
  change: { label: 'colour', key: 'colorMode', value: 'index' },
  text: 'Stand-in until the forces issue lands',
};
