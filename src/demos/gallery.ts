/**
 * The gallery page (index.html): a card a demo, each a plain link, made here
 * from galleryCards.json; and, before anyone clicks, whether this browser has
 * WebGPU and how to get it.
 */
import cards from './galleryCards.json';
import { missingWebGpu, noAdapter } from './shared/support';

interface Card {
  /** The page demos/<id>.html; its thumbnail is public/images/<id>.jpg. */
  id: string;
  title: string;
  /** The thumbnail's alt text. */
  alt: string;
  /** What the demo shows (trusted markup: a <code> here and there). */
  text: string;
  /** The thumbnail's loading; lazy unless said. */
  loading?: 'eager' | 'lazy';
}

/** The card of `card`: its thumbnail and text, linking to its page. */
function cardItem(card: Card): HTMLLIElement {
  const item = document.createElement('li');
  item.className = 'card';
  const link = document.createElement('a');
  link.setAttribute('href', `demos/${card.id}.html`);
  const image = document.createElement('img');
  // Lazy before the source is set, or the image would be fetched at once.
  image.loading = card.loading ?? 'lazy';
  image.alt = card.alt;
  image.setAttribute('src', `images/${card.id}.jpg`);
  const text = document.createElement('div');
  text.className = 'text';
  const title = document.createElement('h2');
  title.textContent = card.title;
  const about = document.createElement('p');
  about.innerHTML = card.text;
  text.append(title, about);
  link.append(image, text);
  item.append(link);
  return item;
}

document.querySelector<HTMLElement>('ul.cards')?.append(...(cards as Card[]).map(cardItem));

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
