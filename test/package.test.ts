/**
 * The package as its users get it: `npm pack` (which runs `build:lib`, with
 * the API report check on), installed from the tarball into temporary folders
 * with nothing else of this repository, only the npm registry:
 * (a) a plain Node ESM script (test/consumers/node/main.mjs; no Vite, no
 *     TypeScript loader) imports `sparkworks`, `sparkworks/node` and
 *     `sparkworks/core`, steps 10,000 particles 100 times on the adapter and
 *     on the CPU reference; checked here against the carried float32 bound;
 * (b) a fresh Vite + TypeScript app holding exactly the README's quick
 *     start (its index.html and src/main.ts, test/support/quickStart.ts)
 *     imports `sparkworks` and `sparkworks/render`, builds with no plugin,
 *     and draws particles in headless Chromium;
 * (c) `tsc --noEmit` in strict mode, library checks on, passes for both.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { FLOATS_PER_PARTICLE } from '../src/core/layout';
import { DEFAULT_VARIANT } from '../src/core/variants';
import { CHROMIUM, CHROMIUM_FLAGS } from './support/chromium';
import { StepErrorBound, compareWithBound } from './support/errorBound';
import { docFiles, snippetsOf } from './support/docSnippets';
import { quickStartFiles } from './support/quickStart';

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
/** The versions this repository uses, so npm finds them in its cache. */
const version = (name: string): string =>
  packageJson.devDependencies[name] ?? packageJson.peerDependencies[name] ?? 'latest';

let work: string;
let tarball: string;
let tarballBytes: number;

async function npm(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout } = await run('npm', args, {
    cwd,
    env: { ...process.env, ...env },
    maxBuffer: 64 << 20,
  });
  return stdout;
}

/** A folder holding `files` and a package.json whose dependencies are the tarball and `extra`. */
async function consumer(name: string, extra: string[], files: Record<string, string>): Promise<string> {
  const folder = join(work, name);
  cpSync(join(ROOT, 'test/consumers', name), folder, { recursive: true });
  for (const [to, from] of Object.entries(files)) cpSync(from, join(folder, to));
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module' }),
  );
  await npm(folder, [
    'install',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    '--loglevel=error',
    tarball,
    ...extra.map((dependency) => `${dependency}@${version(dependency)}`),
  ]);
  return folder;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'sparkworks-package-'));
  // The API report is checked, not rewritten (scripts/api-report.ts), unless
  // SPARKWORKS_API_REPORT=local asks to accept a change while working on it.
  const mode = process.env.SPARKWORKS_API_REPORT === 'local' ? '--local' : '--check';
  await npm(ROOT, ['run', 'build:lib', '--loglevel=error', '--', mode]);
  const packed = JSON.parse(
    await npm(ROOT, ['pack', '--json', '--ignore-scripts', '--pack-destination', work, '--loglevel=error']),
  ) as { filename: string; size: number }[];
  tarball = join(work, packed[0]!.filename);
  tarballBytes = packed[0]!.size;
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the library build, its types and the docs, and no sources or tests', async () => {
    const listing = (await run('tar', ['-tzf', tarball])).stdout.split('\n').filter(Boolean);
    for (const entry of ['index', 'core', 'render', 'node']) {
      expect(listing).toContain(`package/lib/${entry}.js`);
      expect(listing).toContain(`package/lib/${entry}.d.ts`);
    }
    expect(listing.filter((path) => /\.(ts|wgsl)$/.test(path) && !path.endsWith('.d.ts'))).toEqual([]);
    expect(listing.filter((path) => path.startsWith('package/test/'))).toEqual([]);
    // Nothing only this repository's developers use: run logs, scripts, CI, API reports.
    expect(listing.filter((path) => /^package\/(docs\/runs|scripts|\.ci|etc|examples|demos)\//.test(path))).toEqual([]);
    console.log(
      `tarball ${tarball.split('/').pop()}: ${(tarballBytes / 1024).toFixed(1)} KiB, ${listing.length} files`,
    );
    // The budget: the library and its maps, the docs and the pictures they show; twice what it is would mean
    // something large came in unnoticed.
    expect(tarballBytes).toBeLessThan(2.5 * 2 ** 20);
  });

  it('every relative link and picture in its Markdown resolves to a file it ships', async () => {
    const listing = new Set((await run('tar', ['-tzf', tarball])).stdout.split('\n').filter(Boolean));
    const broken: string[] = [];
    for (const page of [...listing].filter((path) => path.endsWith('.md'))) {
      const text = readFileSync(join(ROOT, page.replace(/^package\//, '')), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const path = posix.normalize(posix.join(posix.dirname(page), target!.split('#')[0]!));
        const isFolder = [...listing].some((entry) => entry.startsWith(`${path.replace(/\/$/, '')}/`));
        if (!listing.has(path) && !isFolder) broken.push(`${page.replace(/^package\//, '')}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('consumer (a): plain Node ESM', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await consumer('node', ['webgpu', 'typescript', '@types/node'], {});
  }, 300_000);

  it('steps 10,000 particles 100 times on the adapter, within the carried bound of the CPU reference', async () => {
    const out = join(folder, 'result.json');
    const { stdout } = await run('node', ['main.mjs', out], { cwd: folder, maxBuffer: 16 << 20 });
    console.log(stdout.trim());
    const result = JSON.parse(readFileSync(out, 'utf8')) as Record<'initial' | 'gpu' | 'cpu', string> & {
      count: number;
      steps: number;
      dt: number;
      floatsPerParticle: number;
    };
    const floats = (base64: string): Float32Array => {
      const bytes = Buffer.from(base64, 'base64');
      return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    };
    expect(result.floatsPerParticle).toBe(FLOATS_PER_PARTICLE);
    expect(result.count).toBe(10_000);
    expect(result.steps).toBe(100);
    // The bound is carried step by step along this repository's own reference
    // run from the same initial state (test/support/errorBound.ts derives it).
    const reference = new CpuParticleSystem({ capacity: result.count });
    reference.state.set(floats(result.initial));
    const bound = new StepErrorBound(result.count, DEFAULT_VARIANT);
    for (let step = 0; step < result.steps; step++) {
      bound.advance(reference.state, Math.fround(result.dt));
      reference.step(result.dt);
    }
    const expected = await reference.readPacked();
    // The package's CPU reference is this one, built: bit for bit the same.
    expect(Buffer.from(floats(result.cpu).buffer).equals(Buffer.from(expected.buffer))).toBe(true);
    expect(compareWithBound(floats(result.gpu), expected, bound, 'consumer (a)')).toBeNull();
  });

  it('type-checks in strict mode under NodeNext resolution (c)', async () => {
    expect(await typeCheck(folder)).toBe('');
  });
});

describe("consumer (b): a fresh Vite + TypeScript app with the README's quick start", () => {
  let folder: string;

  beforeAll(async () => {
    // three.js for docs/three.md's example.
    folder = await consumer('vite', ['vite', 'typescript', '@types/node', 'three', '@types/three'], {});
    for (const [path, text] of Object.entries(quickStartFiles())) {
      mkdirSync(join(folder, dirname(path)), { recursive: true });
      writeFileSync(join(folder, path), text);
    }
  }, 300_000);

  it('type-checks in strict mode, library checks on (c)', async () => {
    expect(await typeCheck(folder)).toBe('');
  });

  it('every ts/js block of README.md and docs/ type-checks against the installed package', async () => {
    const snippets = docFiles().flatMap((file) => snippetsOf(file));
    mkdirSync(join(folder, 'snippets'));
    snippets.forEach((snippet, k) => writeFileSync(join(folder, 'snippets', `block${k}.ts`), snippet.module));
    writeFileSync(
      join(folder, 'tsconfig.snippets.json'),
      JSON.stringify({ extends: './tsconfig.json', compilerOptions: { types: ['node'] }, include: ['snippets'] }),
    );
    // Each diagnostic named by the block's place in the docs, not its scratch file.
    const diagnostics = (await typeCheck(folder, 'tsconfig.snippets.json')).replace(
      /snippets\/block(\d+)\.ts\((\d+),(\d+)\)/g,
      (_, k: string, line: string, column: string) => {
        const snippet = snippets[Number(k)]!;
        const [file, fence] = snippet.at.split(':');
        return `${file}:${Number(fence) + Number(line) - snippet.offset}:${column}`;
      },
    );
    expect(diagnostics).toBe('');
    expect(snippets.length).toBeGreaterThan(10);
  });

  it('builds with no plugin and draws particles in headless Chromium, with no error', async () => {
    await run('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: folder });
    const server = await serve(join(folder, 'dist'));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    try {
      const page = await browser.newPage({ viewport: { width: 640, height: 400 } });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      page.on('console', (message) => {
        if (
          message.type() === 'error' ||
          (message.type() === 'warning' && /webgpu|wgsl|validation/i.test(message.text()))
        ) {
          problems.push(`console ${message.type()}: ${message.text()}`);
        }
      });
      const address = server.address();
      if (!address || typeof address === 'string') throw new Error('the server has no port');
      await page.goto(`http://127.0.0.1:${address.port}/index.html`);
      // The fountain rises into view within a second or so of the first frame; the first frame waits on the
      // pipelines, which a busy software adapter compiles slowly: look until the particles show, or 60 s.
      const lit = (png: Buffer) =>
        page.evaluate(async (base64) => {
          const blob = await (await fetch(`data:image/png;base64,${base64}`)).blob();
          const bitmap = await createImageBitmap(blob);
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
          const context = canvas.getContext('2d')!;
          context.drawImage(bitmap, 0, 0);
          const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
          // The clear colour is (5, 5, 10): a particle is anything clearly brighter.
          let count = 0;
          for (let i = 0; i < data.length; i += 4) if (data[i]! + data[i + 1]! + data[i + 2]! > 90) count++;
          return count / (bitmap.width * bitmap.height);
        }, png.toString('base64'));
      let picture = await page.locator('canvas').screenshot();
      let drawn = await lit(picture);
      for (const started = Date.now(); drawn <= 0.001 && Date.now() - started < 60_000;) {
        await page.waitForTimeout(1000);
        picture = await page.locator('canvas').screenshot();
        drawn = await lit(picture);
      }
      mkdirSync(join(ROOT, 'test-out'), { recursive: true });
      writeFileSync(join(ROOT, 'test-out', 'consumer-vite.png'), picture);
      expect(problems).toEqual([]);
      // Thousands of sprites of a few pixels each: far more than 0.1% of the canvas.
      expect(drawn).toBeGreaterThan(0.001);
    } finally {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 240_000);
});

/** `tsc -p project` in `folder`: its diagnostics, empty when it passes. */
async function typeCheck(folder: string, project = 'tsconfig.json'): Promise<string> {
  try {
    await run('npx', ['tsc', '-p', project], { cwd: folder });
    return '';
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    return `${stdout ?? ''}${stderr ?? ''}`.trim() || message;
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
};

/** A static server for the consumer's dist/ on 127.0.0.1 (an unused port). */
async function serve(folder: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    try {
      const body = readFileSync(join(folder, path === '/' ? 'index.html' : path));
      response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
