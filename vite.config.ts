/// <reference types="vitest/config" />
import { defineConfig } from 'vite';

export default defineConfig({
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  build: { target: 'es2022', outDir: 'dist' },
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
