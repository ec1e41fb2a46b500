/**
 * Recovery from a lost device, in Debian's Chromium (headless, WebGPU on
 * SwiftShader), against the built site, as test/browser.test.ts runs it.
 *
 * Each gallery demo that keeps snapshots (src/demos/shared/recovery.ts) runs
 * until it has taken one after the clock was paused; the device is then
 * destroyed (hooks.loseDevice), and the page must continue on a new device
 * from that snapshot: same step count and time (not 0), same live count, and
 * the state read right after the restore (a fresh snapshot, nothing stepped
 * since) equal to the kept one bit for bit: the sampled positions and a digest
 * of every particle record and of the lifecycle's words. No tolerance: a
 * restore writes the snapshot's bytes back, and nothing steps while paused.
 * Unpaused, the steps go on from the snapshot's count. The Integrators page
 * (six systems) also keeps its trails: once its run ends, the trajectory it
 * compares starts at the scene's initial positions and holds, at the
 * snapshot's step, the snapshot's positions, bit for bit (a trail started
 * anew on the new device would lack the steps before it). The three.js page's device
 * is its WebGPURenderer's: a new renderer brings the new one. The Playground
 * continues the preview of the text it shows. With snapshots off, a page
 * still offers the restart. Pictures after recovery go to test-out/
 * (git-ignored).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { IntegratorsCheck } from '../src/demos/integrators/integrators';
import type { PlaygroundCheck } from '../src/demos/playground/playground';
import type { SnapshotSummary } from '../src/demos/shared/recovery';
import { parseScene, sceneToParticles } from '../src/scene/scene';
import { OUT, savePng, useSite } from './support/site';

const site = useSite();

/** Runs `body` on a fresh page, closed afterwards; page errors and console errors are collected. */
async function withPage(body: (page: Page, problems: string[]) => Promise<void>): Promise<void> {
  const context = await site.browser.newContext({ viewport: { width: 1024, height: 640 } });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    await body(page, problems);
  } finally {
    await context.close();
  }
}

interface Figures {
  state: string;
  steps: number;
  frames: number;
  message: string | null;
  errors: string[];
  snapshotErrors: string[];
  snapshotStep: number | null;
  recoveries: number;
  recoveredFrom: { stepCount: number; time: number } | null;
}

function figures(page: Page): Promise<Figures> {
  return page.evaluate(() => {
    const h = window.__sparkworks!;
    const { state, steps, frames, message, errors, snapshotErrors, snapshotStep, recoveries, recoveredFrom } = h;
    return JSON.parse(
      JSON.stringify({
        state,
        steps,
        frames,
        message,
        errors,
        snapshotErrors,
        snapshotStep,
        recoveries,
        recoveredFrom,
      }),
    ) as Figures;
  });
}

/** Waits until `done` holds in the page (or it stops with a message), then checks it runs without errors. */
async function waitUntil(page: Page, done: string, timeout = 90_000): Promise<Figures> {
  await page.waitForFunction(
    (done) => {
      const h = window.__sparkworks;
      if (!h) return false;
      if (h.state === 'lost' || h.state === 'error' || h.state === 'no-adapter') return true;
      return h.state === 'running' && (new Function('h', `return ${done}`) as (h: unknown) => boolean)(h);
    },
    done,
    { timeout, polling: 100 },
  );
  const now = await figures(page);
  expect(now.errors, 'errors').toEqual([]);
  expect(now.state, now.message ?? '').toBe('running');
  return now;
}

async function setPaused(page: Page, paused: boolean): Promise<void> {
  const controller = page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: /^paused$/ }) });
  await controller.locator('input[type=checkbox]').setChecked(paused);
}

const keptSnapshot = (page: Page) => page.evaluate(() => window.__sparkworks!.keptSnapshot());
const readState = (page: Page) => page.evaluate(() => window.__sparkworks!.readState());

interface RecoveryCase {
  id: string;
  /** Small counts for SwiftShader (a snapshot every half second is added), and the page's hash. */
  query: string;
  hash?: string;
  /** Systems in the page's snapshot (1 unless given). */
  systems?: number;
  /** Steps to run before pausing. */
  steps: number;
  emitters: boolean;
  /** Lose the device a second time, right after the first recovery (before any new snapshot). */
  twice?: boolean;
  /** The page's own checks once it runs on after the recovery. */
  after?: (page: Page, kept: SnapshotSummary) => Promise<void>;
}

/**
 * The Integrators page's run, once it ended after the recovery: each
 * variant's trajectory (its trail, read back for the comparison) starts at
 * the scene's initial positions and holds the snapshot's positions at the
 * snapshot's step. Exact: the trail copies the records' bits, the snapshot
 * keeps them, and the initial positions are float32 values of the file.
 */
async function integratorsTrailsContinue(page: Page, kept: SnapshotSummary): Promise<void> {
  await page.waitForFunction(() => ((window.__sparkworks?.check as IntegratorsCheck | null)?.runs ?? 0) >= 1, null, {
    timeout: 120_000,
    polling: 100,
  });
  const check = (await page.evaluate(() => window.__sparkworks!.check)) as IntegratorsCheck;
  expect(check.runs).toBe(1);
  const text = readFileSync(`public/scenes/${check.scene}.json`, 'utf8');
  const initial = sceneToParticles(parseScene(text, `${check.scene}.json`)).map((p) =>
    [0, 1, 2].map((c) => Math.fround(p.position[c]!)),
  );
  const count = initial.length;
  const step = kept.clock.stepCount;
  expect(step).toBeLessThan(check.steps);
  expect(check.variants).toHaveLength(kept.systems.length);
  check.variants.forEach((variant, k) => {
    const name = `${variant.integrator}/${variant.damping}`;
    const at = (s: number, i: number) => variant.gpu.slice((s * count + i) * 3, (s * count + i) * 3 + 3);
    expect(variant.gpu.length, name).toBe((check.steps + 1) * count * 3);
    // Every particle is in the summary's sample (fewer slots than it samples).
    const sample = kept.systems[k]!.sample;
    expect(sample.map((s) => s.slot)).toEqual(initial.map((_, i) => i));
    for (let i = 0; i < count; i++) {
      expect(at(0, i), `${name}: particle ${i} at step 0`).toEqual(initial[i]);
      expect(at(step, i), `${name}: particle ${i} at the snapshot's step ${step}`).toEqual(sample[i]!.position);
    }
    expect(Number.isFinite(variant.worst), name).toBe(true);
  });
}

/** The Playground continued the preview of the editor's text (and shows that text). */
async function playgroundShowsItsText(page: Page): Promise<void> {
  const { shown, text } = await page.evaluate(() => ({
    shown: (window.__sparkworks!.check as PlaygroundCheck).shown,
    text: window.__playground!.editor.text,
  }));
  expect(shown).toBe(text);
}

const CASES: RecoveryCase[] = [
  { id: 'fountain', query: '?count=16384&stepRate=60&maxSteps=12', steps: 120, emitters: true, twice: true },
  { id: 'fireworks', query: '?count=16384&maxSteps=12', steps: 120, emitters: true },
  { id: 'galaxy', query: '?count=16384&maxSteps=16', steps: 60, emitters: false },
  { id: 'springs', query: '?maxSteps=16', steps: 60, emitters: false },
  // The scene-file pages (src/demos/shared/sceneLook.ts): their system is the scene's, restored as it was.
  { id: 'campfire', query: '?maxSteps=12', steps: 60, emitters: true },
  { id: 'rain', query: '?maxSteps=12', steps: 60, emitters: true },
  // Six systems; a run long enough that they step with the clock until the snapshot, held 10 s once it ends.
  {
    id: 'integrators',
    query: '?steps=240&hold=10&maxSteps=16',
    steps: 60,
    emitters: false,
    systems: 6,
    after: integratorsTrailsContinue,
  },
  // Its device is three.js's: the page makes a new WebGPURenderer.
  { id: 'three', query: '?count=16384&stepRate=60&maxSteps=8', steps: 120, emitters: true, twice: true },
  {
    id: 'playground',
    query: '?maxSteps=12',
    hash: '#example=campfire',
    steps: 60,
    emitters: true,
    after: playgroundShowsItsText,
  },
];

describe('recovery from a lost device in Chromium (WebGPU on SwiftShader)', () => {
  for (const demo of CASES) {
    it(`${demo.id}: continues on a new device from the kept snapshot, not from the start`, async () => {
      await withPage(async (page, problems) => {
        await page.goto(`${site.baseUrl}demos/${demo.id}.html${demo.query}&snapshotEvery=0.5${demo.hash ?? ''}`);
        await waitUntil(page, `h.steps >= ${demo.steps} && h.snapshotStep !== null`);
        // Paused, then a snapshot of the paused state: what the restored state must equal.
        await setPaused(page, true);
        const paused = await waitUntil(page, 'h.snapshotStep === h.steps');
        const kept = (await keptSnapshot(page)) as SnapshotSummary;
        expect(kept.clock.stepCount).toBe(paused.steps);
        expect(kept.clock.stepCount).toBeGreaterThanOrEqual(demo.steps);
        expect(kept.systems).toHaveLength(demo.systems ?? 1);
        for (const system of kept.systems) {
          // The system counts the steps the clock took, from the same start.
          expect(system.stepCount).toBe(kept.clock.stepCount);
          expect(system.time).toBeGreaterThan(0);
          if (demo.emitters) expect(system.live).toBeGreaterThan(0);
          else expect(system.live).toBeNull();
          expect(system.sample.length).toBe(Math.min(16, system.capacity));
        }

        await page.evaluate(() => window.__sparkworks!.loseDevice());
        const after = await waitUntil(page, 'h.recoveries === 1');
        expect(after.recoveredFrom).toEqual({ stepCount: kept.clock.stepCount, time: kept.clock.time });
        expect(after.steps, 'the clock continues the snapshot').toBe(kept.clock.stepCount);
        expect(await page.locator('.sw-message').isVisible()).toBe(false);
        expect(await page.textContent('.sw-notice')).toContain(
          `continued on a new device from the snapshot at t = ${kept.clock.time.toFixed(1)} s (step ${kept.clock.stepCount})`,
        );
        mkdirSync(OUT, { recursive: true });
        await page.screenshot({ path: join(OUT, `${demo.id}-recovered.png`) });
        // Nothing stepped since the restore: the state is the snapshot's, every bit.
        expect(await readState(page)).toEqual(kept);

        if (demo.twice) {
          // Lost again before a new snapshot: the same one serves.
          await page.evaluate(() => window.__sparkworks!.loseDevice());
          await waitUntil(page, 'h.recoveries === 2');
          expect(await readState(page)).toEqual(kept);
        }

        // Unpaused, it steps on from the snapshot's count.
        await setPaused(page, false);
        const resumed = await waitUntil(page, `h.steps >= ${kept.clock.stepCount + 10}`);
        // The canvas alone, read right after a frame (a page screenshot waits too long for a busy page).
        const picture = await page.evaluate(() => window.__sparkworks!.capture());
        savePng(`${demo.id}-recovered-running.png`, picture);
        const state = (await readState(page)) as SnapshotSummary;
        state.systems.forEach((now, k) => {
          expect(now.stepCount).toBeGreaterThanOrEqual(resumed.steps);
          expect(now.time).toBeGreaterThan(kept.systems[k]!.time);
        });
        await demo.after?.(page, kept);
        const final = await figures(page);
        expect(final.errors).toEqual([]);
        expect(final.snapshotErrors).toEqual([]);
        expect(problems).toEqual([]);
      });
      // Two page loads' worth of pipelines on SwiftShader (three with `twice`), on a machine other tests share.
    }, 360_000);
  }

  it('with snapshots off, a page (the shared app, the three.js page) still offers the restart', async () => {
    for (const url of [
      'demos/springs.html?maxSteps=16&snapshotEvery=0',
      'demos/three.html?count=16384&stepRate=60&maxSteps=8&snapshotEvery=0',
    ]) {
      await withPage(async (page, problems) => {
        await page.goto(`${site.baseUrl}${url}`);
        await waitUntil(page, 'h.steps >= 20');
        expect((await figures(page)).snapshotStep).toBeNull();
        await page.evaluate(() => window.__sparkworks!.loseDevice());
        await page.waitForFunction(() => window.__sparkworks?.state === 'lost', null, { timeout: 10_000 });
        const button = page.getByRole('button', { name: 'Restart the demo' });
        await expect.poll(() => button.isVisible()).toBe(true);
        expect((await figures(page)).recoveries).toBe(0);
        expect(problems).toEqual([]);
      });
    }
  }, 240_000);
});
