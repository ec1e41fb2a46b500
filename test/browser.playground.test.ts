/**
 * The playground page (demos/playground.html) in Debian's Chromium, headless,
 * WebGPU on SwiftShader, against the built site (test/support/site.ts).
 *
 * Every example loads with no WebGPU error and no uncaught error, and its
 * preview is not blank. An edit that breaks the file is marked at the JSON
 * path parseScene names, with parseScene's message word for word, while the
 * preview keeps stepping the last valid text. The share link restores the
 * exact text. A downloaded file equals the editor's text, opens again through
 * the file picker, and runs under `simulate`. Pictures go to test-out/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/simulate';
import { EXAMPLES } from '../src/demos/playground/examples';
import type { PlaygroundCheck } from '../src/demos/playground/playground';
import type { Checked } from '../src/demos/playground/validate';
import { parseScene } from '../src/scene/scene';
import { capture as captureIo, useTempDir } from './support/cli';
import { OUT, expectNotBlank, measure, savePng, thumbnail, useSite, withPage } from './support/site';

/** A slower clock and few steps a frame: SwiftShader draws a frame in tens of milliseconds. */
const QUERY = '?stepRate=30&maxSteps=4';

const site = useSite();
const dir = useTempDir('sparkworks-playground-');

interface PageState {
  state: string;
  message: string | null;
  errors: string[];
  steps: number;
  frames: number;
  check: PlaygroundCheck | null;
  text: string;
  name: string;
  last: Checked | null;
  status: string;
}

function pageState(page: Page): Promise<PageState> {
  return page.evaluate(() => {
    const h = window.__sparkworks!;
    const p = window.__playground!;
    const last = p.editor.last;
    return JSON.parse(
      JSON.stringify({
        state: h.state,
        message: h.message,
        errors: h.errors,
        steps: h.steps,
        frames: h.frames,
        check: h.check,
        text: p.editor.text,
        name: p.editor.name,
        last: last && (last.ok ? { ok: true } : last),
        status: p.status(),
      }),
    ) as PageState;
  });
}

/** Waits until the preview draws the editor's text and has taken `steps` steps (or the page stops with a message). */
async function waitForPreview(page: Page, steps: number, timeout = 90_000): Promise<PageState> {
  const waiting = page.waitForFunction(
    (steps) => {
      const h = window.__sparkworks;
      const p = window.__playground;
      if (!h || !p) return false;
      if (h.state !== 'starting' && h.state !== 'running') return true;
      const check = h.check as { shown: string | null } | null;
      return h.state === 'running' && check?.shown === p.editor.text && h.steps >= steps;
    },
    steps,
    { timeout, polling: 100 },
  );
  // On a timeout, say how far the page got.
  await waiting.catch(async (error: Error) => {
    const { text: _text, check, ...state } = await pageState(page);
    throw new Error(`${error.message}: ${JSON.stringify({ ...state, shown: check?.shown?.slice(0, 80) })}`);
  });
  const now = await pageState(page);
  expect(now.errors, 'errors').toEqual([]);
  expect(now.state, now.message ?? '').toBe('running');
  return now;
}

/** The panel's toggles of what is drawn besides particles. */
const GIZMOS = ['colliders', 'links', 'emitter shapes', 'axes'];

/** Sets a checkbox of the panel by its label, as a user would. */
async function setChecked(page: Page, label: string, checked: boolean): Promise<void> {
  const name = new RegExp(`^${label}$`);
  const controller = page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: name }) }).first();
  await controller.locator('input[type=checkbox]').setChecked(checked);
}

/** Waits for `frames` more frames. */
async function waitForFrames(page: Page, frames: number): Promise<void> {
  const start = await page.evaluate(() => window.__sparkworks!.frames);
  await page.waitForFunction((target) => window.__sparkworks!.frames >= target, start + frames, { timeout: 30_000 });
}

const canvasPicture = (page: Page) => page.evaluate(() => window.__sparkworks!.capture());

/** Replaces the first `find` in the editor by typing `replacement` over it, as a user would. */
async function typeOver(page: Page, find: string, replacement: string): Promise<void> {
  const found = await page.evaluate((find) => {
    const view = window.__playground!.editor.view;
    const from = view.state.doc.toString().indexOf(find);
    if (from < 0) return false;
    view.focus();
    view.dispatch({ selection: { anchor: from, head: from + find.length }, scrollIntoView: true });
    return true;
  }, find);
  expect(found, `"${find}" in the editor`).toBe(true);
  await page.keyboard.insertText(replacement);
}

const page = (id: string) => `${site.baseUrl}demos/playground.html${QUERY}#example=${id}`;

describe('the playground in Chromium', () => {
  for (const example of EXAMPLES) {
    it(`${example.id}: loads with no error and a preview that is not blank`, async () => {
      await withPage(site.browser, {}, async (tab, problems) => {
        await tab.goto(page(example.id));
        // Fireworks: until the first rockets have burst.
        const state = await waitForPreview(tab, example.id === 'fireworks' ? 120 : 20);
        expect(state.name).toBe(`${example.id}.json`);
        // The example as the site serves it (public/scenes, copied by the build).
        const served = await (await fetch(`${site.baseUrl}scenes/${example.id}.json`)).text();
        expect(state.text).toBe(served);
        expect(state.last?.ok, state.status).toBe(true);
        // Paused, so the pictures show one state: everything, then the particles alone (the gizmos hidden through
        // the panel, as a user would).
        await setChecked(tab, 'paused', true);
        await waitForFrames(tab, 3);
        const picture = await canvasPicture(tab);
        savePng(`playground-${example.id}.png`, picture);
        if (example.id === 'campfire') {
          // The whole page, editor and preview, for the gallery's card (public/images/playground.jpg).
          const page = `data:image/png;base64,${(await tab.screenshot()).toString('base64')}`;
          savePng('playground-page.png', page);
          savePng('playground-thumb.jpg', await thumbnail(tab, page));
        }
        for (const label of GIZMOS) await setChecked(tab, label, false);
        await waitForFrames(tab, 3);
        const particles = await canvasPicture(tab);
        savePng(`playground-${example.id}-particles.png`, particles);
        const alone = await measure(tab, particles, picture);
        const pixels = (share: number) => share * alone.width * alone.height;
        // At least one particle's smallest disc (radius minPixels = 3 px: 28 pixels) is drawn.
        expect(pixels(alone.drawn), `${example.id}: pixels of particles`).toBeGreaterThanOrEqual(28);
        expect(alone.distinct, `${example.id}: colours of particles`).toBeGreaterThan(2);
        // What the file places besides particles is drawn too: the axes at least, 3 lines of tens of pixels.
        expect(pixels(alone.changed), `${example.id}: pixels of gizmos`).toBeGreaterThanOrEqual(28);
        expect(problems).toEqual([]);
      });
    });
  }

  it('marks an edit that breaks the file at its JSON path with parseScene’s message; the preview keeps running', async () => {
    await withPage(site.browser, {}, async (tab, problems) => {
      await tab.goto(page('bridge'));
      const before = await waitForPreview(tab, 10);
      const valid = before.text;
      // The first particle's mass: 6 → -6.
      await typeOver(tab, '"mass": 6}', '"mass": -6}');
      await tab.waitForFunction(() => window.__playground!.editor.last?.ok === false, null, { timeout: 10_000 });
      const broken = await pageState(tab);
      const expected = (() => {
        try {
          parseScene(broken.text, 'bridge.json');
        } catch (error) {
          return (error as Error).message;
        }
        return 'no error';
      })();
      expect(broken.last).toMatchObject({ ok: false, path: '$.particles[0].mass', message: expected });
      const last = broken.last as Extract<Checked, { ok: false }>;
      expect(broken.text.slice(last.from, last.to)).toBe('"mass": -6');
      // The mark is drawn, and the line under the editor says it.
      await tab.locator('.cm-lintRange-error').first().waitFor({ timeout: 10_000 });
      expect(await tab.locator('.cm-lintRange-error').first().textContent()).toContain('-6');
      expect(broken.status).toContain(expected);

      // The preview still draws the valid text and steps on.
      const running = await tab.evaluate(() => window.__sparkworks!.steps);
      await tab.waitForFunction((n) => window.__sparkworks!.steps >= n + 20, running, { timeout: 60_000 });
      const after = await pageState(tab);
      expect(after.errors).toEqual([]);
      expect(after.state).toBe('running');
      expect(after.check?.shown).toBe(valid);
      const picture = await canvasPicture(tab);
      savePng('playground-broken-edit.png', picture);
      expectNotBlank(await measure(tab, picture), 'after a breaking edit');

      // A syntax error: marked where JSON.parse stops, with its message.
      await typeOver(tab, '"mass": -6}', '"mass": 6,}');
      await tab.waitForFunction(
        () => {
          const last = window.__playground!.editor.last;
          return last?.ok === false && last.message.includes('not valid JSON');
        },
        null,
        { timeout: 10_000 },
      );
      const syntax = await pageState(tab);
      const parsed = (() => {
        try {
          JSON.parse(syntax.text);
        } catch (error) {
          return error as Error;
        }
        return null;
      })();
      const at = Number(/at position (\d+)/.exec(parsed?.message ?? '')?.[1]);
      const mark = syntax.last as Extract<Checked, { ok: false }>;
      expect(mark.from).toBe(at);
      expect(syntax.text[at]).toBe('}');
      // parseScene's message, but for the engine's words inside the parentheses (Chromium adds the line and column).
      expect(() => parseScene(syntax.text, 'bridge.json')).toThrow(
        /^bridge\.json: \$: not valid JSON \(.*at position \d+/,
      );
      expect(mark.message).toMatch(new RegExp(`^bridge\\.json: \\$: not valid JSON \\(.*at position ${at}\\b`));

      // Fixed again: the fixed text is drawn.
      await typeOver(tab, '"mass": 6,}', '"mass": 7}');
      const fixed = await waitForPreview(tab, 0);
      expect(fixed.last?.ok).toBe(true);
      expect(fixed.check?.shown).toBe(fixed.text);
      expect(problems).toEqual([]);
    });
  });

  it('reports a valid file the GPU refuses under the editor; the previous preview runs on', async () => {
    await withPage(site.browser, {}, async (tab, problems) => {
      await tab.goto(page('bouncing-ball'));
      const before = await waitForPreview(tab, 5);
      // Valid for parseScene; its trails' samples (64 x 5,000,000 x 16 bytes) exceed any adapter's buffer size.
      const big = '"capacity": 5000000, "look": { "trails": { "length": 64, "width": 0.1 } }, "radius"';
      await typeOver(tab, '"radius"', big);
      await tab.waitForFunction(() => window.__playground!.status().includes('The preview could not be built'), null, {
        timeout: 60_000,
      });
      const refused = await pageState(tab);
      expect(refused.last?.ok).toBe(true);
      expect(refused.status).toMatch(/The preview could not be built: .*(buffer|size)/i);
      const steps = refused.steps;
      await tab.waitForFunction((n) => window.__sparkworks!.steps >= n + 10, steps, { timeout: 60_000 });
      const after = await pageState(tab);
      expect(after.errors).toEqual([]);
      expect(after.state).toBe('running');
      expect(after.check?.shown).toBe(before.text);
      // The GPU's refusal may be logged by the browser; nothing else is.
      expect(problems.filter((p) => !/exceeds the max buffer size|previous error/i.test(p))).toEqual([]);
    });
  });

  it('without WebGPU, says so over the preview and still checks the text', async () => {
    await withPage(site.browser, {}, async (tab, problems, context) => {
      await context.addInitScript(() => {
        delete (Navigator.prototype as { gpu?: unknown }).gpu;
      });
      await tab.goto(page('drag'));
      await tab.waitForFunction(() => window.__sparkworks?.state === 'no-webgpu', null, { timeout: 10_000 });
      await expect.poll(() => tab.locator('.sw-message').isVisible()).toBe(true);
      await typeOver(tab, '"damping": 0.5', '"damping": 1.5');
      await tab.waitForFunction(() => window.__playground!.editor.last?.ok === false, null, { timeout: 10_000 });
      const state = await pageState(tab);
      expect(state.last).toMatchObject({ ok: false, path: '$.particles[2].damping' });
      expect(state.status).toContain('$.particles[2].damping');
      expect(problems).toEqual([]);
    });
  });

  it('completes keys and enum values from the scene format’s schema', async () => {
    await withPage(site.browser, {}, async (tab, problems) => {
      await tab.goto(page('bouncing-ball'));
      await waitForPreview(tab, 0);
      const options = () => tab.locator('.cm-tooltip-autocomplete li').allTextContents();
      // A key of the top level, offered as it is typed (keys the object has already are not).
      await typeOver(tab, '"radius": 0.25,', '"radius": 0.25,\n  ');
      await tab.keyboard.type('"co');
      await tab.locator('.cm-tooltip-autocomplete').waitFor({ timeout: 10_000 });
      const keys = (await options()).join(' ');
      expect(keys).toMatch(/collisions/);
      expect(keys).not.toMatch(/colliders/);
      await tab.keyboard.press('Escape');
      // An enum's values: a collider's onHit.
      await typeOver(tab, '"co', '');
      await typeOver(tab, '"friction": 0.2}', '"friction": 0.2, "onHit": ');
      await tab.keyboard.type('"');
      await tab.locator('.cm-tooltip-autocomplete').waitFor({ timeout: 10_000 });
      expect((await options()).join(' ')).toMatch(/bounce.*die.*stick|stick.*die.*bounce/s);
      expect(problems).toEqual([]);
    });
  });

  it('restores the exact text from a share link', async () => {
    let link = '';
    let text = '';
    await withPage(site.browser, {}, async (tab, problems) => {
      await tab.goto(page('campfire'));
      await waitForPreview(tab, 5);
      // Characters a link must carry: non-ASCII, an astral symbol, a tab, a percent sign, a CRLF.
      await typeOver(tab, '"A campfire:', '"A campfire — é ✓ 🔥 100%\\t:');
      await tab.evaluate(() => {
        const view = window.__playground!.editor.view;
        view.dispatch({ changes: { from: view.state.doc.length, insert: '\r\n  ' } });
      });
      text = await tab.evaluate(() => window.__playground!.editor.text);
      await tab.getByRole('button', { name: 'Share link' }).click();
      await tab.waitForFunction(() => location.hash.startsWith('#scene='));
      link = tab.url();
      expect(problems).toEqual([]);
    });
    expect(link).toContain('#scene=');
    await withPage(site.browser, {}, async (tab, problems) => {
      await tab.goto(link);
      const state = await waitForPreview(tab, 5);
      expect(state.text).toBe(text);
      expect(state.name).toBe('campfire.json');
      expect(problems).toEqual([]);
    });
  });

  it('downloads the editor’s text, which opens again and runs under simulate', async () => {
    await withPage(site.browser, { acceptDownloads: true }, async (tab, problems) => {
      await tab.goto(page('bouncing-ball'));
      await waitForPreview(tab, 5);
      await typeOver(tab, '"radius": 0.25', '"radius": 0.3');
      await waitForPreview(tab, 0);
      const text = await tab.evaluate(() => window.__playground!.editor.text);
      const [download] = await Promise.all([
        tab.waitForEvent('download'),
        tab.getByRole('button', { name: 'Download' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('bouncing-ball.json');
      const file = join(dir.path, 'bouncing-ball.json');
      await download.saveAs(file);
      expect(readFileSync(file, 'utf8')).toBe(text);

      // Opened again through the file picker, after another example.
      await tab.locator('select.pg-examples').selectOption('drag');
      await waitForPreview(tab, 0);
      await tab.locator('input.pg-picker').setInputFiles(file);
      await tab.waitForFunction((text) => window.__playground!.editor.text === text, text);
      const reopened = await waitForPreview(tab, 0);
      expect(reopened.name).toBe('bouncing-ball.json');
      expect(problems).toEqual([]);

      const io = captureIo();
      expect(await main(['--scene', file, '--steps', '20', '--dt', '0.01'], io), io.stderr).toBe(0);
      const output = JSON.parse(io.stdout) as { particles: unknown[]; radius?: number };
      expect(output.particles).toHaveLength(2);
    });
  });
});
