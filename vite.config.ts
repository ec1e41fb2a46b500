/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { TierClassifier } from './test/support/tiers.js';

/** The gallery's demo pages (demos/<id>.html); each is a build input beside index.html. */
const DEMO_PAGES = [
  'fireworks',
  'fountain',
  'galaxy',
  'springs',
  'integrators',
  'three',
  'campfire',
  'rain',
  'playground',
] as const;

/**
 * What every demo page shares, injected here once: the encoding, the viewport,
 * an empty icon, and a note for browsers without JavaScript. Each
 * demos/<id>.html holds only its title, its canvas and its module.
 */
function demoPages(): Plugin {
  return {
    name: 'sparkworks-demo-pages',
    transformIndexHtml(html, context) {
      if (!/[\\/]demos[\\/][^\\/]+\.html$/.test(context.filename)) return html;
      return {
        html,
        tags: [
          { tag: 'meta', attrs: { charset: 'utf-8' }, injectTo: 'head-prepend' },
          {
            tag: 'meta',
            attrs: { name: 'viewport', content: 'width=device-width, initial-scale=1' },
            injectTo: 'head-prepend',
          },
          { tag: 'link', attrs: { rel: 'icon', href: 'data:,' }, injectTo: 'head-prepend' },
          {
            tag: 'noscript',
            children: 'This demo needs JavaScript and WebGPU. <a href="../index.html">Back to the gallery</a>.',
            injectTo: 'body',
          },
        ],
      };
    },
  };
}

/**
 * The package's public entry points, resolved to their sources: demos and
 * examples import 'sparkworks/...' exactly as an installed package's users do.
 */
const PUBLIC_ENTRIES = {
  'sparkworks/core': 'src/core.ts',
  'sparkworks/render': 'src/render/index.ts',
  'sparkworks/node': 'src/node.ts',
  sparkworks: 'src/index.ts',
} as const;

export default defineConfig({
  plugins: [demoPages()],
  resolve: {
    alias: Object.entries(PUBLIC_ENTRIES).map(([name, file]) => ({
      find: new RegExp(`^${name}$`),
      replacement: fileURLToPath(new URL(file, import.meta.url)),
    })),
  },
  // Relative asset URLs: dist/ works from any static server and any sub-path.
  base: './',
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    // three.js (the three.js page alone) is one chunk of about 850 kB; the rest is far below.
    chunkSizeWarningLimit: 1000,
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        bench: fileURLToPath(new URL('bench.html', import.meta.url)),
        // The README's quick start, as a page (test/package.test.ts builds it from the tarball too).
        minimal: fileURLToPath(new URL('examples/minimal/index.html', import.meta.url)),
        ...Object.fromEntries(
          DEMO_PAGES.map((id) => [id, fileURLToPath(new URL(`demos/${id}.html`, import.meta.url))]),
        ),
      },
    },
  },
  test: {
    environment: 'node',
    // Two files at a time, whichever tier: each acquires its own device (or Chromium), and one file alone leaves
    // a core idle much of the time (JavaScript references, shader compilation, waits on subprocesses and pages).
    // More would only share the same two cores; docs/testing.md#tiers has the timings.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Cases whose size is the point (2^20 particles, 2^24 slots, the longest runs): `npm test` runs them,
    // `npm run test:gpu` leaves them out (docs/testing.md#tiers).
    tags: [
      {
        name: 'large',
        description: 'a case whose size is what it proves; left out of npm run test:gpu',
        // Two files share the cores: the 2^24-slot case needs more than 300 s on a busy machine.
        timeout: 600_000,
      },
    ],
    // The tiers: each test file in the one project its imports say (test/support/tiers.ts).
    projects: Object.entries(
      new TierClassifier(
        Object.fromEntries(
          Object.entries(PUBLIC_ENTRIES).map(([name, file]) => [name, fileURLToPath(new URL(file, import.meta.url))]),
        ),
      ).classify(fileURLToPath(new URL('.', import.meta.url))),
    ).map(([name, files]) => ({ extends: true, test: { name, include: files } })),
  },
});
