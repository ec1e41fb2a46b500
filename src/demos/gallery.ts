/**
 * The gallery page (index.html): the demos are plain links; this script only
 * says, before anyone clicks, whether this browser has WebGPU and how to get it.
 */
import { missingWebGpu, noAdapter } from './shared/support';

async function describeSupport(box: HTMLElement): Promise<void> {
  const missing = missingWebGpu();
  let problem = missing;
  if (!problem) {
    try {
      const adapter = await navigator.gpu.requestAdapter();
      if (!adapter) problem = noAdapter('requestAdapter() returned null');
      else {
        const info = adapter.info;
        const name = info.description || [info.vendor, info.architecture].filter(Boolean).join(' ') || 'an adapter';
        box.textContent = `WebGPU is available here (${name}).`;
        box.hidden = false;
        return;
      }
    } catch (error) {
      problem = noAdapter((error as Error).message);
    }
  }
  box.className = 'missing';
  box.replaceChildren();
  const title = document.createElement('p');
  const strong = document.createElement('strong');
  strong.textContent = problem.title;
  title.append(strong);
  box.append(title);
  for (const line of problem.lines) {
    const p = document.createElement('p');
    p.textContent = line;
    box.append(p);
  }
  box.hidden = false;
}

const box = document.querySelector<HTMLElement>('#webgpu-status');
if (box) void describeSupport(box);

/**
 * The API reference is built with the site (`npm run build:site`), not served
 * by `npm start`, where the dev server answers a missing page with the
 * gallery: its link shows only where TypeDoc's page is there.
 */
async function keepApiLinkIfBuilt(entry: HTMLElement): Promise<void> {
  try {
    const page = await fetch('api/index.html');
    if (page.ok && /typedoc|tsd-/i.test(await page.text())) return;
  } catch {
    // No reference to link to.
  }
  entry.remove();
}

const apiReference = document.querySelector<HTMLElement>('#api-reference');
if (apiReference) void keepApiLinkIfBuilt(apiReference);
