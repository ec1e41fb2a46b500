/**
 * The test tiers (test/support/tiers.ts, docs/testing.md#tiers): every test
 * file is in the one tier its imports say, which is what its text uses, and
 * the scripts run the tiers the docs name.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TIERS, TierClassifier, type Tier } from './support/tiers';

const ROOT = new URL('..', import.meta.url).pathname;
const classifier = new TierClassifier({
  sparkworks: join(ROOT, 'src/index.ts'),
  'sparkworks/core': join(ROOT, 'src/core.ts'),
  'sparkworks/render': join(ROOT, 'src/render/index.ts'),
  'sparkworks/node': join(ROOT, 'src/node.ts'),
});
const tiers = classifier.classify(ROOT);
const tierOf = (file: string): Tier | undefined => TIERS.find((tier) => tiers[tier].includes(file));

describe('the test files by tier', () => {
  it('puts every test file in exactly one tier, and no tier is empty', () => {
    const all = TIERS.flatMap((tier) => tiers[tier]);
    expect(new Set(all).size).toBe(all.length);
    for (const tier of TIERS) expect(tiers[tier].length, tier).toBeGreaterThan(0);
    expect(all).toContain('test/tiers.test.ts');
  });

  it('finds what a file needs through the modules it reaches', () => {
    // test/support/gpu.ts -> src/node/device.ts -> webgpu.
    expect(tierOf('test/integrate.test.ts')).toBe('gpu');
    // test/support/site.ts -> playwright-core.
    expect(tierOf('test/browser.test.ts')).toBe('browser');
    // npm pack and Chromium: the stronger need wins.
    expect(tierOf('test/package.test.ts')).toBe('browser');
    expect(tierOf('test/simulate.test.ts')).toBe('process');
    expect(tierOf('test/tiers.test.ts')).toBe('unit');
  });

  it('agrees with what each file calls: a device outside unit, Chromium in browser, subprocesses in process or browser', () => {
    for (const tier of TIERS) {
      for (const file of tiers[tier]) {
        const text = readFileSync(join(ROOT, file), 'utf8');
        if (/\b(useDevice|useAcquiredDevices|acquireDevice)\(/.test(text)) expect(tier, file).not.toBe('unit');
        if (/\b(openSite|chromium\.launch)\(/.test(text)) expect(tier, file).toBe('browser');
        if (/\b(execFile|spawn|fork|execSync|spawnSync)\)?\(/.test(text))
          expect(['process', 'browser'], file).toContain(tier);
      }
    }
  });
});

describe('the classifier', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sparkworks-tiers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  };

  it('follows static, re-exported, dynamic and mocked imports, and index files', () => {
    write({
      'a/static.test.ts': "import { x } from '../lib/x';\n",
      'a/reexport.test.ts': "export { y } from '../lib';\n",
      'a/dynamic.test.ts': "const m = await import('../lib/spawns');\n",
      'a/mocked.test.ts': "vi.mock('../lib/x', async () => ({}));\n",
      'a/multiline.test.ts': "import {\n  a,\n  b,\n} from 'playwright-core';\n",
      'lib/x.ts': "import { create } from 'webgpu';\n",
      'lib/index.ts': "export * from './spawns';\n",
      'lib/spawns.ts': "import { execFile } from 'node:child_process';\n",
    });
    const found = new TierClassifier().classify(dir, 'a');
    expect(found).toEqual({
      unit: [],
      gpu: ['a/mocked.test.ts', 'a/static.test.ts'],
      process: ['a/dynamic.test.ts', 'a/reexport.test.ts'],
      browser: ['a/multiline.test.ts'],
    });
  });

  it('takes no import from comments, strings or `import type`', () => {
    write({
      'b/quiet.test.ts':
        "// import { create } from 'webgpu';\n" +
        'const hint = "in Node, import { acquireDevice } from \'sparkworks/node\'";\n' +
        "import type { Browser } from 'playwright-core';\n" +
        "type T = typeof import('node:child_process');\n",
    });
    expect(new TierClassifier().classify(dir, 'b').unit).toEqual(['b/quiet.test.ts']);
  });
});

describe('the scripts', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;

  it('npm test runs every tier, large cases too; npm run test:<tier> runs one', () => {
    expect(scripts['test']).toBe('vitest run');
    for (const tier of TIERS)
      expect(scripts[`test:${tier}`], tier).toMatch(new RegExp(`^vitest run --project ${tier}\\b`));
    // The GPU tier's quick run leaves out the cases tagged large (test/support/tiers.ts: LARGE).
    expect(scripts['test:gpu']).toBe('vitest run --project gpu --tags-filter=!large');
  });
});
