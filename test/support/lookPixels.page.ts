/**
 * The look's pixel checks as a browser module: test/browser.look.test.ts
 * bundles this file (Vite's build API), loads it in Chromium and calls
 * `renderLookChecks`, which renders the setups of ./lookPixels.ts on the
 * page's WebGPU adapter and returns their pixels for the test to compare in
 * Node with the same expectations as the Node tests.
 */
import { renderColourCheck, renderSizeCheck, renderSortedDraw } from './lookPixels';

export interface BrowserLookPixels {
  adapter: string;
  /** Uncaptured WebGPU errors while rendering. */
  errors: string[];
  colour: number[];
  size: number[];
  sorted: { sorted: number[]; cpuOrder: number[]; unsorted: number[] };
}

export async function renderLookChecks(): Promise<BrowserLookPixels> {
  const adapter = await navigator.gpu?.requestAdapter();
  if (!adapter) throw new Error('this browser has no WebGPU adapter');
  const device = await adapter.requestDevice();
  const errors: string[] = [];
  device.addEventListener('uncapturederror', (event) => errors.push(event.error.message));
  try {
    const colour = await renderColourCheck(device);
    const size = await renderSizeCheck(device);
    const sorted = await renderSortedDraw(device);
    return {
      adapter: `${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}`.trim(),
      errors,
      colour: Array.from(colour),
      size: Array.from(size),
      sorted: {
        sorted: Array.from(sorted.sorted),
        cpuOrder: Array.from(sorted.cpuOrder),
        unsorted: Array.from(sorted.unsorted),
      },
    };
  } finally {
    device.destroy();
  }
}
