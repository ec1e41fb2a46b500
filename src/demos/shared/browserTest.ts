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
