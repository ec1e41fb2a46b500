/**
 * The built site in Chromium, for browser tests: the site built with Vite's
 * build API into a temporary folder, served by Vite's preview server on
 * 127.0.0.1, Debian's Chromium launched headless on SwiftShader
 * (chromium.ts), pages that collect their errors, the measures of a
 * canvas picture that tell a blank one, the pictures saved to test-out/, and
 * lil-gui's controllers set as a user sets them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, expect } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium';

/** Where the browser tests' pictures go (git-ignored). */
export const OUT = 'test-out';

export interface Site {
  baseUrl: string;
  browser: Browser;
  close(): Promise<void>;
}

/** Builds the site, serves it and launches Chromium; `close()` undoes all three. */
export async function openSite(): Promise<Site> {
  const outDir = mkdtempSync(join(tmpdir(), 'sparkworks-site-'));
  let server: PreviewServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()));
    rmSync(outDir, { recursive: true, force: true });
  };
  try {
    await build({ logLevel: 'error', build: { outDir, emptyOutDir: true } });
    server = await preview({
      logLevel: 'error',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, strictPort: false },
    });
    const address = server.httpServer.address();
    if (!address || typeof address === 'string') throw new Error('the preview server has no port');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    return { baseUrl: `http://127.0.0.1:${address.port}/`, browser, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The site for a test file: opened (and OUT made) before its tests, closed
 * after them; its URL and browser are read once it is open.
 */
export function useSite(): Pick<Site, 'baseUrl' | 'browser'> {
  let site: Site | undefined;
  beforeAll(async () => {
    // playwright gives every launch a fresh temporary profile (--user-data-dir).
    site = await openSite();
    mkdirSync(OUT, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await site?.close();
  });
  const open = (): Site => {
    if (!site) throw new Error('the site is not open yet (useSite opens it before the tests)');
    return site;
  };
  return {
    get baseUrl() {
      return open().baseUrl;
    },
    get browser() {
      return open().browser;
    },
  };
}

/** Page errors, console errors, and console warnings from WebGPU, as they come. */
export function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error') problems.push(`console error: ${text}`);
    else if (message.type() === 'warning' && /webgpu|validation|gpu(device|buffer|texture)|wgsl/i.test(text)) {
      problems.push(`console warning: ${text}`);
    }
  });
  return problems;
}

/** Runs `body` on a fresh page in a fresh context, closed afterwards even when the test fails. */
export async function withPage(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0],
  body: (page: Page, problems: string[], context: BrowserContext) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 640 }, ...options });
  try {
    const page = await context.newPage();
    await body(page, watch(page), context);
  } finally {
    await context.close();
  }
}

export interface PictureStats {
  width: number;
  height: number;
  /** Colours seen, quantised to 4 bits a channel. */
  distinct: number;
  /** Share of pixels that differ from the most common colour by more than 24 in a channel. */
  drawn: number;
  /** Standard deviation of luminance, 0..255. */
  spread: number;
  /** Share of pixels that differ by more than 24 in a channel from the second picture (0 without one). */
  changed: number;
}

/** Decodes PNG data URLs with the browser's own decoder and measures them (or their difference). */
export async function measure(page: Page, a: string, b?: string): Promise<PictureStats> {
  return page.evaluate(
    async ([a, b]) => {
      const pixels = async (url: string) => {
        const bitmap = await createImageBitmap(await (await fetch(url)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d', { willReadFrequently: true })!;
        context.drawImage(bitmap, 0, 0);
        return {
          width: bitmap.width,
          height: bitmap.height,
          data: context.getImageData(0, 0, bitmap.width, bitmap.height).data,
        };
      };
      const { data, width, height } = await pixels(a);
      const counts = new Map<number, number>();
      let sum = 0;
      let sumSquares = 0;
      const n = width * height;
      for (let i = 0; i < data.length; i += 4) {
        const key = ((data[i]! >> 4) << 8) | ((data[i + 1]! >> 4) << 4) | (data[i + 2]! >> 4);
        counts.set(key, (counts.get(key) ?? 0) + 1);
        const luminance = 0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!;
        sum += luminance;
        sumSquares += luminance * luminance;
      }
      let mode = 0;
      let modeCount = -1;
      for (const [key, count] of counts) if (count > modeCount) [mode, modeCount] = [key, count];
      const modeRgb = [((mode >> 8) & 15) * 16 + 8, ((mode >> 4) & 15) * 16 + 8, (mode & 15) * 16 + 8];
      let drawn = 0;
      for (let i = 0; i < data.length; i += 4) {
        const off = Math.max(
          Math.abs(data[i]! - modeRgb[0]!),
          Math.abs(data[i + 1]! - modeRgb[1]!),
          Math.abs(data[i + 2]! - modeRgb[2]!),
        );
        if (off > 24) drawn++;
      }
      const mean = sum / n;
      let changed = 0;
      if (b) {
        const other = (await pixels(b)).data;
        for (let i = 0; i < data.length; i += 4) {
          const off = Math.max(
            Math.abs(data[i]! - other[i]!),
            Math.abs(data[i + 1]! - other[i + 1]!),
            Math.abs(data[i + 2]! - other[i + 2]!),
          );
          if (off > 24) changed++;
        }
      }
      return {
        width,
        height,
        distinct: counts.size,
        drawn: drawn / n,
        spread: Math.sqrt(Math.max(0, sumSquares / n - mean * mean)),
        changed: changed / n,
      };
    },
    [a, b] as const,
  );
}

/** Fails on a black or uniform picture (or one with next to nothing drawn). */
export function expectNotBlank(stats: PictureStats, what: string): void {
  expect(stats.distinct, `${what}: distinct colours`).toBeGreaterThan(12);
  expect(stats.drawn, `${what}: share of pixels drawn`).toBeGreaterThan(0.003);
  expect(stats.spread, `${what}: luminance spread`).toBeGreaterThan(1.5);
}

/** Writes a PNG (or JPEG) data URL to OUT/name. */
export function savePng(name: string, dataUrl: string): void {
  writeFileSync(join(OUT, name), Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
}

/** A 640-pixel-wide JPEG of a PNG data URL, encoded by the browser (the gallery's thumbnails). */
export async function thumbnail(page: Page, dataUrl: string): Promise<string> {
  return page.evaluate(async (url) => {
    const bitmap = await createImageBitmap(await (await fetch(url)).blob());
    const width = 640;
    const height = Math.round((bitmap.height * width) / bitmap.width);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d')!;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, width, height);
    return canvas.toDataURL('image/jpeg', 0.86);
  }, dataUrl);
}

/** Sets a lil-gui controller by its label, through the page like a user. */
export async function setController(page: Page, label: string, value: string | number | boolean): Promise<void> {
  const name = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const controller = page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: name }) }).first();
  if (typeof value === 'boolean') {
    await controller.locator('input[type=checkbox]').setChecked(value);
  } else if ((await controller.locator('select').count()) > 0) {
    await controller.locator('select').selectOption(String(value));
  } else {
    const input = controller.locator('input').first();
    await input.fill(String(value));
    await input.press('Enter');
    await input.blur();
  }
}
