/**
 * `npm run bundle:node [-- --out dist-node] [name ...]`
 *
 * Bundles the Node scripts (the benchmarks, the profiles, the comparisons and
 * `simulate`; or the `name`s given, e.g. `bench profile-contacts`) into one
 * ES module each, with the WGSL and every dependency inlined except `webgpu`,
 * whose native `dawn.node` cannot be bundled. What they need to run on a
 * machine with a GPU but without this repository or its dev dependencies
 * (a lab's GPU box, a lent machine with no network): Node 20 or later and the
 * `webgpu` package beside them (`npm install` in the output folder, whose
 * package.json names the version this repository uses, or a copy of
 * `node_modules/webgpu`). Then `node bench.mjs --quick`, the same flags as
 * `npm run bench`. Vite's own build (SSR mode) does the bundling, so `?raw`
 * imports work as in the dev server.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { build } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The scripts worth running on another machine: those that drive the GPU. */
const BUNDLED = /^(bench|bench-.*|profile-.*|compare-.*|simulate)\.ts$/;

const program = new Command('bundle-node')
  .description('bundle the Node scripts for a machine without the repository')
  .option('--out <dir>', 'output folder', 'dist-node')
  .argument('[names...]', 'scripts to bundle (default: every benchmark, profile, comparison and simulate)')
  .parse(process.argv.filter((arg) => arg !== '--'));

const options = program.opts<{ out: string }>();
const available = (await readdir(join(root, 'scripts'))).filter((file) => BUNDLED.test(file)).sort();
const asked: string[] = program.args.length > 0 ? program.args : available.map((file) => basename(file, '.ts'));
for (const name of asked) {
  if (!available.includes(`${name}.ts`)) {
    program.error(
      `no script ${JSON.stringify(name)} to bundle; these can be: ${available.map((f) => basename(f, '.ts')).join(', ')}`,
    );
  }
}
const outDir = resolve(root, options.out);
const input = Object.fromEntries(asked.map((name) => [name, join(root, 'scripts', `${name}.ts`)]));

await build({
  configFile: false,
  root,
  // The demos' files are the site's, not a script's.
  publicDir: false,
  logLevel: 'warn',
  ssr: { noExternal: true, external: ['webgpu'], target: 'node' },
  build: {
    ssr: true,
    outDir,
    emptyOutDir: true,
    minify: false,
    target: 'node20',
    rollupOptions: {
      input,
      output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
    },
  },
});

// `npm install` there fetches the one dependency left out, at the version this repository tests with.
const installed = JSON.parse(await readFile(join(root, 'node_modules', 'webgpu', 'package.json'), 'utf8')) as {
  version: string;
};
const manifest = {
  name: 'sparkworks-node-scripts',
  private: true,
  type: 'module',
  dependencies: { webgpu: installed.version },
};
await writeFile(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`${asked.length} scripts bundled into ${outDir} (${asked.map((name) => `${name}.mjs`).join(', ')})`);
console.log(
  `run them there with Node 20+ after \`npm install\` (webgpu ${installed.version}), e.g. \`node bench.mjs --quick\``,
);
