/**
 * The same library in a real browser: Debian's Chromium, headless, WebGPU on
 * SwiftShader, driven by playwright-core against the Vite dev server on
 * 127.0.0.1. The page runs the GPU and the CPU reference and reports their
 * largest difference; no browser is ever downloaded.
 */
import { readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScene, sceneToParticles } from '../src/scene/scene';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { StepErrorBound } from './support/errorBound';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The largest position bound over every particle and step of the page's default run. */
function pageRunBound(): number {
  const particles = sceneToParticles(
    parseScene(readFileSync('public/scenes/ballistic.json', 'utf8'), 'ballistic.json'),
  );
  const variant = { integrator: 'explicit', damping: 'per-second' } as const;
  const reference = new CpuParticleSystem({ capacity: particles.length, ...variant });
  reference.writeParticles(0, particles);
  const bound = new StepErrorBound(particles.length, variant);
  let largest = 0;
  for (let s = 0; s < 240; s++) {
    bound.advance(reference.state, Math.fround(1 / 60));
    reference.step(1 / 60);
    largest = Math.max(largest, ...bound.position);
  }
  return largest;
}

let server: ViteDevServer;
let browser: Browser;
let url: string;

beforeAll(async () => {
  server = await createServer({ server: { host: '127.0.0.1', port: 0 }, logLevel: 'error' });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('the Vite server has no port');
  url = `http://127.0.0.1:${address.port}/`;
  // playwright gives every launch a fresh temporary profile (--user-data-dir).
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('browser page', () => {
  it('runs the scene on WebGPU and the CPU reference, and they agree', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(url);
    await page.waitForFunction(
      () => {
        const status = document.querySelector('#status');
        return status?.className === 'error' || status?.textContent?.includes('largest');
      },
      null,
      { timeout: 90_000 },
    );
    const status = (await page.textContent('#status')) ?? '';
    expect(await page.getAttribute('#status', 'class')).not.toBe('error');
    expect(errors).toEqual([]);
    // The page's defaults: ballistic.json, explicit/per-second, 240 steps of 1/60 s.
    // The largest difference must be within the float32 bound carried over the
    // same run (test/support/errorBound.ts derives it).
    const worst = Number(/difference ([0-9.e+-]+)/.exec(status)?.[1]);
    expect(worst).toBeLessThanOrEqual(pageRunBound());
    // The canvas was drawn on: not one uniform colour.
    const distinct = await page.evaluate(() => {
      const canvas = document.querySelector('canvas')!;
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < pixels.length; i += 4 * 97)
        seen.add((pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!);
      return seen.size;
    });
    expect(distinct).toBeGreaterThan(3);
    await page.close();
  });
});
