/**
 * The gallery in a real browser: Debian's Chromium, headless, WebGPU on
 * SwiftShader, driven by playwright-core (no browser is ever downloaded)
 * against the built site (Vite's build API into a temporary folder, served by
 * Vite's preview server on 127.0.0.1).
 *
 * Every demo loads, draws frames with no WebGPU error and no uncaught error,
 * and its canvas is not blank; paused, a change in its panel changes the
 * picture and the URL. The Integrators page's GPU trajectories agree with the
 * CPU reference within the carried float32 bound. A browser without WebGPU
 * gets the message; a lost device gets a message and a button that restarts.
 * The bench page runs every case of the Node benchmark's harness.
 * Pictures of every demo go to test-out/ (git-ignored).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { floatIndex } from '../src/core/layout';
import { parseScene, sceneToParticles } from '../src/scene/scene';
import { DEMO_BROWSER_TESTS } from '../src/demos/browserTests';
import type { DemoBrowserTest } from '../src/demos/shared/browserTest';
import type { SparkworksHooks } from '../src/demos/shared/hooks';
import type { IntegratorsCheck } from '../src/demos/integrators/integrators';
import { StepErrorBound } from './support/errorBound';
import {
  OUT,
  expectNotBlank,
  measure,
  savePng,
  setController,
  thumbnail,
  useSite,
  withPage as withSitePage,
} from './support/site';

const site = useSite();

/**
 * Runs `body` on a fresh page in a fresh context, closed afterwards even when
 * the test fails: a page left drawing would slow every later test down.
 */
function withPage(
  options: Parameters<Browser['newContext']>[0],
  body: (page: Page, problems: string[], context: BrowserContext) => Promise<void>,
): Promise<void> {
  return withSitePage(site.browser, options, body);
}

type HookState = Omit<SparkworksHooks, 'loseDevice' | 'capture'>;

async function hooks(page: Page): Promise<HookState> {
  return page.evaluate(() => {
    const { loseDevice: _lose, capture: _capture, ...rest } = window.__sparkworks!;
    return JSON.parse(JSON.stringify(rest)) as HookState;
  });
}

/** Waits for `frames` more frames (and `steps` steps in all), or for the page to stop with a message. */
async function waitForFrames(page: Page, frames: number, steps = 0, timeout = 60_000): Promise<HookState> {
  const start = await page.evaluate(() => window.__sparkworks?.frames ?? 0);
  await page.waitForFunction(
    ([target, steps]) => {
      const h = window.__sparkworks;
      if (!h) return false;
      if (h.state !== 'starting' && h.state !== 'running') return true;
      return h.state === 'running' && h.frames >= target && h.steps >= steps;
    },
    [start + frames, steps] as const,
    { timeout, polling: 100 },
  );
  const state = await hooks(page);
  expect(state.errors, `${state.demo}: errors`).toEqual([]);
  expect(state.state, `${state.demo}: ${state.message ?? ''}`).toBe('running');
  return state;
}

/** The canvas alone, read in the page right after a frame was submitted. */
async function capture(page: Page): Promise<string> {
  return page.evaluate(() => window.__sparkworks!.capture());
}

async function controllerValue(page: Page, label: string): Promise<string> {
  const name = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const controller = page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: name }) }).first();
  const select = controller.locator('select');
  if ((await select.count()) > 0) return select.inputValue();
  return controller.locator('input').first().inputValue();
}

/** The carried bound over every step of the page's run, per particle and component (positions). */
function integratorsBounds(check: IntegratorsCheck, variant: IntegratorsCheck['variants'][number]) {
  const scene = readFileSync(`public/scenes/${check.scene}.json`, 'utf8');
  const particles = sceneToParticles(parseScene(scene, `${check.scene}.json`));
  const v = { integrator: variant.integrator, damping: variant.damping };
  const reference = new CpuParticleSystem({ capacity: particles.length, ...v });
  reference.writeParticles(0, particles);
  const bound = new StepErrorBound(particles.length, v);
  const dt = Math.fround(check.dt);
  const positions: Float32Array[] = [];
  const bounds: Float64Array[] = [];
  const record = () => {
    positions.push(
      Float32Array.from(
        { length: particles.length * 3 },
        (_, j) => reference.state[floatIndex(Math.floor(j / 3), 'position', j % 3)]!,
      ),
    );
    bounds.push(Float64Array.from(bound.position));
  };
  record();
  for (let s = 0; s < check.steps; s++) {
    bound.advance(reference.state, dt);
    reference.step(check.dt);
    record();
  }
  return { count: particles.length, positions, bounds };
}

/**
 * The Integrators page's GPU trajectories against the CPU reference run here,
 * every step of every variant, within the carried float32 bound; and the
 * page's own largest difference within the run's largest bound (the assertion
 * of the single-page test this gallery replaced).
 */
async function expectIntegratorsAgree(page: Page): Promise<void> {
  const check = (await hooks(page)).check as IntegratorsCheck;
  expect(check.scene).toBe('ballistic');
  expect(check.steps).toBe(240);
  expect(check.variants).toHaveLength(6);
  for (const variant of check.variants) {
    const name = `${variant.integrator}/${variant.damping}`;
    const { count, positions, bounds } = integratorsBounds(check, variant);
    expect(variant.gpu.length, name).toBe((check.steps + 1) * count * 3);
    let largestBound = 0;
    const failures: string[] = [];
    for (let s = 0; s <= check.steps; s++) {
      for (let j = 0; j < count * 3; j++) {
        const gpu = variant.gpu[s * count * 3 + j]!;
        const cpu = positions[s]![j]!;
        const allowed = bounds[s]![j]!;
        largestBound = Math.max(largestBound, allowed);
        if (!(Math.abs(gpu - cpu) <= allowed) && failures.length < 5) {
          failures.push(
            `particle ${Math.floor(j / 3)} position[${'xyz'[j % 3]}] after step ${s}: GPU ${gpu}, CPU ${cpu}, allowed ${allowed}`,
          );
        }
      }
    }
    expect(failures, name).toEqual([]);
    // The page's own figure, as the single-page test asserted it: within the largest bound of the run.
    expect(variant.worst, name).toBeLessThanOrEqual(largestBound);
  }
}

describe('the gallery in Chromium (WebGPU on SwiftShader)', () => {
  it('links every demo from index.html and says WebGPU is available', async () => {
    await withPage({}, async (page, problems) => {
      await page.goto(site.baseUrl);
      const hrefs = await page.$$eval('.cards a', (links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(DEMO_BROWSER_TESTS.map((demo) => `demos/${demo.id}.html`));
      for (const href of hrefs) {
        const response = await page.request.get(new URL(href!, site.baseUrl).href);
        expect(response.status(), href!).toBe(200);
      }
      await expect.poll(() => page.textContent('#webgpu-status')).toContain('WebGPU is available');
      // Every thumbnail loaded.
      const broken = await page.$$eval(
        '.cards img',
        (images) =>
          images.filter((img) => !(img as HTMLImageElement).complete || (img as HTMLImageElement).naturalWidth === 0)
            .length,
      );
      expect(broken).toBe(0);
      await page.screenshot({ path: join(OUT, 'gallery.png') });
      expect(problems).toEqual([]);
    });
  });

  it("the gallery's other links reach their pages (the API reference only where it is built), and each links back", async () => {
    await withPage({}, async (page, problems) => {
      await page.goto(site.baseUrl);
      // This site is built without TypeDoc's reference: its link is gone once the page has looked.
      await expect.poll(() => page.locator('#api-reference').count()).toBe(0);
      const hrefs = await page.$$eval('footer a', (links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(['bench.html', 'examples/minimal/index.html']);
      const gallery = new URL('index.html', site.baseUrl).href;
      for (const href of hrefs) {
        await page.goto(new URL(href!, site.baseUrl).href);
        const back = await page.$$eval('a', (links) => links.map((a) => (a as HTMLAnchorElement).href));
        expect(back, href!).toContain(gallery);
      }
      expect(problems).toEqual([]);
    });
  });

  for (const demo of DEMO_BROWSER_TESTS) {
    const also =
      demo.id === 'integrators' ? '; its GPU trajectories agree with the CPU reference within the float32 bound' : '';
    it(`${demo.id}: draws frames with no error, not blank, and a panel change changes the picture${also}`, async () => {
      await checkDemo(demo);
    });
  }

  async function checkDemo(demo: DemoBrowserTest): Promise<void> {
    await withPage({}, async (page, problems) => {
      await page.goto(`${site.baseUrl}demos/${demo.id}.html${demo.query}`);
      await waitForFrames(page, 3, demo.steps, 90_000);
      if (demo.text) await expect.poll(() => page.textContent('body')).toContain(demo.text);
      if (demo.id === 'integrators') {
        await page.waitForFunction(
          () => ((window.__sparkworks?.check as IntegratorsCheck | null)?.runs ?? 0) >= 1,
          null,
          {
            timeout: 60_000,
            polling: 100,
          },
        );
        await expectIntegratorsAgree(page);
      }
      await page.screenshot({ path: join(OUT, `${demo.id}.png`) });

      // Paused, the picture holds still; a change in the panel changes it (and the URL).
      await setController(page, 'paused', true);
      await waitForFrames(page, 3);
      const before = await capture(page);
      await waitForFrames(page, 2);
      const still = await capture(page);
      const stats = await measure(page, before, still);
      expectNotBlank(stats, demo.id);
      expect(stats.changed, `${demo.id}: paused frames differ`).toBeLessThan(0.002);
      // Single step: exactly one step while paused.
      const steps = (await hooks(page)).steps;
      await page.locator('.lil-controller button', { hasText: 'single step' }).click();
      await waitForFrames(page, 2);
      expect((await hooks(page)).steps, `${demo.id}: single step`).toBe(steps + 1);
      const [width, height] = await page.evaluate(() => {
        const canvas = document.querySelector('canvas')!;
        return [canvas.width, canvas.height];
      });
      expect([stats.width, stats.height]).toEqual([width, height]);

      const original = await controllerValue(page, demo.change.label);
      await setController(page, demo.change.label, demo.change.value);
      await waitForFrames(page, 4);
      const after = await capture(page);
      const difference = await measure(page, before, after);
      expect(difference.changed, `${demo.id}: share of pixels changed by "${demo.change.label}"`).toBeGreaterThan(
        0.002,
      );
      expectNotBlank(difference, `${demo.id} after the change`);
      expect(new URL(page.url()).searchParams.get(demo.change.key)).toBe(String(demo.change.value));

      // A clean picture of the canvas alone (the change undone, panel and header out of the way), for the gallery.
      await setController(page, demo.change.label, original);
      await page.click('.lil-gui.lil-root > .lil-title');
      await page.addStyleTag({ content: '.sw-hud, .sw-overlay { display: none !important; }' });
      await waitForFrames(page, 3);
      const clean = await capture(page);
      savePng(`${demo.id}-canvas.png`, clean);
      savePng(`${demo.id}-thumb.jpg`, await thumbnail(page, clean));
      expect(problems).toEqual([]);
    });
  }

  it('a browser without WebGPU gets the message, on the gallery and on every demo', async () => {
    await withPage({}, async (page, problems, context) => {
      await context.addInitScript(() => {
        delete (Navigator.prototype as { gpu?: unknown }).gpu;
      });
      await page.goto(site.baseUrl);
      await expect.poll(() => page.textContent('#webgpu-status')).toContain('WebGPU is not available in this browser');
      for (const demo of DEMO_BROWSER_TESTS) {
        await page.goto(`${site.baseUrl}demos/${demo.id}.html`);
        await page.waitForFunction(() => window.__sparkworks?.state === 'no-webgpu', null, { timeout: 10_000 });
        const message = page.locator('.sw-message');
        await expect.poll(() => message.isVisible()).toBe(true);
        expect(await message.textContent()).toContain('chrome://flags/#enable-unsafe-webgpu');
      }
      await page.screenshot({ path: join(OUT, 'no-webgpu.png') });
      expect(problems).toEqual([]);
    });
  });

  it('a lost device shows a message and a button that restarts the demo', async () => {
    await withPage({}, async (page, problems) => {
      // Snapshots off: with one kept, the page continues from it instead (test/browser.recovery.test.ts).
      await page.goto(`${site.baseUrl}demos/fireworks.html?count=8192&snapshotEvery=0`);
      await waitForFrames(page, 3);
      await page.evaluate(() => window.__sparkworks!.loseDevice());
      await page.waitForFunction(() => window.__sparkworks?.state === 'lost', null, { timeout: 10_000 });
      const button = page.getByRole('button', { name: 'Restart the demo' });
      await expect.poll(() => button.isVisible()).toBe(true);
      expect(await page.textContent('.sw-message')).toContain('The GPU device was lost');
      await page.screenshot({ path: join(OUT, 'device-lost.png') });
      await button.click();
      await waitForFrames(page, 5);
      expect(await page.locator('.sw-message').isVisible()).toBe(false);
      expectNotBlank(await measure(page, await capture(page)), 'after the restart');
      expect(problems).toEqual([]);
    });
  });

  it('draws at the device pixel ratio, follows a resize, restores its parameters from the URL, and rebuilds', async () => {
    await withPage({ viewport: { width: 800, height: 500 }, deviceScaleFactor: 2 }, async (page, problems) => {
      await page.goto(`${site.baseUrl}demos/galaxy.html?count=16384&colorMode=index&arms=3`);
      await waitForFrames(page, 3);
      const size = () =>
        page.evaluate(() => {
          const canvas = document.querySelector('canvas')!;
          return [canvas.width, canvas.height, canvas.clientWidth, canvas.clientHeight];
        });
      expect(await size()).toEqual([1600, 1000, 800, 500]);
      expect(await controllerValue(page, 'colour')).toBe('index');
      expect(await controllerValue(page, 'arms')).toBe('3');
      await page.setViewportSize({ width: 640, height: 420 });
      await expect.poll(size, { timeout: 10_000 }).toEqual([1280, 840, 640, 420]);
      await waitForFrames(page, 3);
      const picture = await capture(page);
      const stats = await measure(page, picture);
      expect([stats.width, stats.height]).toEqual([1280, 840]);
      expectNotBlank(stats, 'galaxy after a resize');
      // A parameter that needs a new system rebuilds the demo in place.
      await setController(page, 'count', 8192);
      await page.waitForFunction(() => window.__sparkworks?.particles === 8192, null, { timeout: 20_000 });
      await waitForFrames(page, 3);
      expect(new URL(page.url()).searchParams.get('count')).toBe('8192');
      expect(problems).toEqual([]);
    });
  });

  it('the bench page runs the same harness as `npm run bench`: every case, the targets, the plot', async () => {
    await withPage({}, async (page, problems) => {
      // One size and one repeat: what is checked is that the browser runs every case, not the figures.
      await page.goto(`${site.baseUrl}bench.html?run&sizes=12&repeats=1`);
      await page.waitForFunction(() => document.body.dataset.benchDone === 'true', null, { timeout: 240_000 });
      const firstColumn = await page.$$eval('#table tbody tr', (rows) =>
        rows.map((row) => row.querySelector('td')?.textContent ?? ''),
      );
      for (const name of [
        'copy',
        'buffer-copy',
        'step/explicit/per-second',
        'step/semi-implicit/off',
        'step-soa/explicit/per-second',
        'forces-typical',
        'step-with-typical-forces',
        'collisions-plane',
        'emitters-10pct-live',
        'emitters-100pct-live',
        'emitters-fountain-100pct-live',
        'cpu-reference',
      ]) {
        expect(firstColumn, name).toContain(name);
      }
      const summary = (await page.textContent('#summary')) ?? '';
      expect(summary).toMatch(/target typical forces/);
      expect(summary).toMatch(/target GPU step >= 2x the CPU reference/);
      // The emitter targets from the alternating rounds, as in Node.
      expect(summary).toMatch(
        /target emitters: a frame at 100% live <= 2\.5x the plain step, at 2\^20: NOT MEASURED — at 2\^12, median of \d+ alternating rounds/,
      );
      expect(summary).toMatch(/emitters-fountain-100pct-live vs the pool without its forces and plane @ 2\^12/);
      expect(await page.$('#plot svg')).not.toBeNull();
      expect(await page.$$eval('#downloads a', (links) => links.map((a) => a.getAttribute('download')))).toEqual([
        'bench.json',
        'bench.svg',
      ]);
      await page.screenshot({ path: join(OUT, 'bench.png'), fullPage: false });
      expect(problems).toEqual([]);
    });
  }, 300_000);
});
