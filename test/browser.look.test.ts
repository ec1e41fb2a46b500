/**
 * The look's pixel checks in Chromium (headless, WebGPU on SwiftShader, as
 * test/browser.test.ts launches it): the setups of test/support/lookPixels.ts
 * bundled into one module (Vite's build API), rendered on the browser's
 * adapter into offscreen textures and read back there, and compared here
 * with the same expectations as the Node tests (test/look.render.test.ts,
 * test/depthSort.test.ts): particles of known ages in known colours within
 * 1/255, at known sizes within a pixel, and a sorted alpha-blended draw
 * equal to a draw in the CPU's order.
 *
 * The page and its module are served by playwright's request routing from
 * the build folder: no server. http://127.0.0.1 is a secure context, as
 * WebGPU needs.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS } from './support/chromium';
import { colourFailures, COLOUR_CHECK, SIZE_CHECK, sizeFailures, sortedDrawFailures } from './support/lookPixels';
import type { BrowserLookPixels } from './support/lookPixels.page';

const ORIGIN = 'http://127.0.0.1:4179';

/** The page: the bundled module, its checks' promise left on window for the test to await. */
const PAGE =
  '<!doctype html><title>look pixels</title><script type="module">' +
  "import { renderLookChecks } from './lookPixels.js'; window.__lookPixels = renderLookChecks();</script>";

let outDir: string;
let browser: Browser;
let result: BrowserLookPixels;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'sparkworks-look-'));
  await build({
    configFile: false,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      lib: { entry: 'test/support/lookPixels.page.ts', formats: ['es'], fileName: () => 'lookPixels.js' },
    },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/lookPixels.js') {
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(outDir, 'lookPixels.js')) });
    }
    return route.fulfill({ contentType: 'text/html', body: PAGE });
  });
  await page.goto(`${ORIGIN}/look.html`);
  await page.waitForFunction('window.__lookPixels !== undefined', null, { timeout: 60_000 });
  // A string, not a function: Vitest would rewrite a dynamic import inside a function for Node.
  result = (await page.evaluate('window.__lookPixels')) as BrowserLookPixels;
  expect(problems).toEqual([]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('the look’s pixel checks in Chromium', () => {
  it('render on the browser’s WebGPU adapter with no WebGPU error', () => {
    expect(result.adapter).not.toBe('');
    expect(result.errors).toEqual([]);
  });

  it('draw particles of known ages in the colours of their rule’s curves, within 1/255', () => {
    expect(result.colour.length).toBe(COLOUR_CHECK.size * COLOUR_CHECK.size * 4);
    expect(colourFailures(Uint8Array.from(result.colour))).toEqual([]);
  });

  it('draw sprites at the sizes of the size curve, within a pixel', () => {
    expect(result.size.length).toBe(SIZE_CHECK.size * SIZE_CHECK.size * 4);
    expect(sizeFailures(Uint8Array.from(result.size))).toEqual([]);
  });

  it('draw a sorted alpha-blended draw equal to a draw in the CPU’s order', () => {
    const { sorted, cpuOrder, unsorted } = result.sorted;
    expect(
      sortedDrawFailures({
        sorted: Uint16Array.from(sorted),
        cpuOrder: Uint16Array.from(cpuOrder),
        unsorted: Uint16Array.from(unsorted),
      }),
    ).toEqual([]);
  });
});
