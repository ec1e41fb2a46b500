import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import packageJson from './package.json' with { type: 'json' };

/**
 * The package build (`npm run build:lib`): the four entry points as ES
 * modules, one output file per source module so bundlers tree-shake them,
 * with source maps. The WGSL that src/shaders/sources.ts imports with `?raw`
 * becomes plain string modules here, so the output needs no plugin anywhere.
 * Types come from tsc and api-extractor (scripts/build-lib.ts).
 */
const ENTRIES = {
  index: 'src/index.ts',
  core: 'src/core.ts',
  render: 'src/render/index.ts',
  node: 'src/node.ts',
} as const;

const dependencies = [
  ...Object.keys(packageJson.dependencies ?? {}),
  ...Object.keys(packageJson.peerDependencies ?? {}),
];
const external = (id: string): boolean =>
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  dependencies.some((name) => id === name || id.startsWith(`${name}/`));

export default defineConfig({
  // No public/ copy and no HTML: this build is the library alone.
  publicDir: false,
  build: {
    target: 'es2022',
    outDir: 'lib',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    lib: {
      entry: Object.fromEntries(
        Object.entries(ENTRIES).map(([name, file]) => [name, fileURLToPath(new URL(file, import.meta.url))]),
      ),
      formats: ['es'],
    },
    rolldownOptions: {
      external,
      output: {
        preserveModules: true,
        preserveModulesRoot: 'src',
        // The WGSL files (shaders/, outside src/) as string modules under wgsl/.
        entryFileNames: (chunk) =>
          chunk.facadeModuleId?.includes('.wgsl') ? `wgsl/${chunk.name.replace(/^shaders\//, '')}.js` : '[name].js',
      },
    },
  },
});
