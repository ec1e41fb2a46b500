/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

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
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Each test file acquires its own device; the software adapter is slow
    // and files compete for two cores, so they run one at a time.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
