/**
 * What the browser test (test/browser.test.ts) does with a demo, declared in
 * the demo's folder beside the demo: the URL for a quick run on a software
 * adapter, how far to let it run before the picture is taken, and one panel
 * change that must change the picture while the simulation is paused.
 */
export interface DemoBrowserTest {
  id: string;
  /** Query string: small counts and a faster clock for SwiftShader. */
  query: string;
  /** Simulation steps to wait for before the picture is taken. */
  steps: number;
  /** A panel change: the controller's label, its parameter's key (for the URL) and the new value. */
  change: { label: string; key: string; value: string | number | boolean };
  /** Text the page must show (e.g. what waits for another issue). */
  text?: string;
}

/** The browser test of the page demos/<id>.html. */
export function demoBrowserTest(id: string, test: Omit<DemoBrowserTest, 'id'>): DemoBrowserTest {
  return { id, ...test };
}

/** The change the pages drawn from a scene file's look are tested with: the brightness doubled. */
export const BRIGHTER: DemoBrowserTest['change'] = { label: 'brightness', key: 'intensity', value: 2 };

/** The change the pages with a colour choice are tested with: colour by `mode`. */
export function colourBy(mode: string): DemoBrowserTest['change'] {
  return { label: 'colour', key: 'colorMode', value: mode };
}
