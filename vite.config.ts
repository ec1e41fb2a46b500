/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The gallery's demo pages (demos/<id>.html); each is a build input beside index.html. */
const DEMO_PAGES = ['fireworks', 'fountain', 'galaxy', 'springs', 'integrators'] as const;

export default defineConfig({
  // Relative asset URLs: dist/ works from any static server and any sub-path.
  base: './',
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        bench: fileURLToPath(new URL('bench.html', import.meta.url)),
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
