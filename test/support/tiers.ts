/**
 * The test tiers (docs/testing.md#tiers), each a Vitest project of
 * vite.config.ts: a test file's tier is what it needs, read from what it
 * imports, directly or through any module it reaches (test/support/*, src/*):
 *
 * - `browser`: reaches playwright-core (drives headless Chromium);
 * - `process`: otherwise reaches node:child_process (runs npm, node, vite-node);
 * - `gpu`: otherwise reaches the `webgpu` package (Dawn: acquires a device);
 * - `unit`: none of them (no device, no browser, no subprocess).
 *
 * No list to keep: a new file lands in the tier its imports say. Nothing is
 * mocked: a `unit` file could not acquire a device if it tried, as nothing it
 * loads imports Dawn. test/tiers.test.ts checks the classification.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export type Tier = 'unit' | 'gpu' | 'process' | 'browser';
export const TIERS: readonly Tier[] = ['unit', 'gpu', 'process', 'browser'];

/** The packages whose import puts a file in a tier, strongest first. */
const NEEDS: readonly [Tier, RegExp][] = [
  ['browser', /^playwright(-core)?$/],
  ['process', /^(node:)?child_process$/],
  ['gpu', /^webgpu$/],
];

/**
 * Every module specifier a source text loads: its static imports and
 * re-exports (statements start a line in this repository's formatting, so
 * text in comments and strings is not taken for one; `import type` loads
 * nothing), dynamic imports and vi.mock factories' targets.
 */
function specifiersOf(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s*['"]([^'"]+)['"]/gm,
    /^import\s*['"]([^'"]+)['"]/gm,
    /(?<!typeof\s+)\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bvi\.(?:mock|doMock)\(\s*['"]([^'"]+)['"]/g,
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]!);
  return found;
}

/** The source file a relative or aliased specifier names, or null (a package, an asset). */
function resolveModule(from: string, specifier: string, aliases: Record<string, string>): string | null {
  const aliased = aliases[specifier];
  const base = aliased ?? (specifier.startsWith('.') ? resolve(dirname(from), specifier.split('?')[0]!) : null);
  if (base === null) return null;
  const candidates = [base, `${base}.ts`, base.replace(/\.js$/, '.ts'), join(base, 'index.ts')];
  return candidates.find((path) => /\.[cm]?[jt]s$/.test(path) && existsSync(path) && statSync(path).isFile()) ?? null;
}

/**
 * Classifies test files by what they reach. `aliases` maps bare specifiers
 * that name sources (the package's own entry points) to their files.
 */
export class TierClassifier {
  /** Per source file: the packages it imports and the sources it imports. */
  private readonly imports = new Map<string, { packages: string[]; sources: string[] }>();

  constructor(private readonly aliases: Record<string, string> = {}) {}

  private importsOf(module: string): { packages: string[]; sources: string[] } {
    let found = this.imports.get(module);
    if (!found) {
      found = { packages: [], sources: [] };
      for (const specifier of specifiersOf(readFileSync(module, 'utf8'))) {
        const resolved = resolveModule(module, specifier, this.aliases);
        if (resolved) found.sources.push(resolved);
        else if (!specifier.startsWith('.')) found.packages.push(specifier);
      }
      this.imports.set(module, found);
    }
    return found;
  }

  /** Every package `file` reaches through the sources it imports. */
  reachedPackages(file: string): Set<string> {
    const seen = new Set<string>([resolve(file)]);
    const reached = new Set<string>();
    const queue = [...seen];
    for (let module = queue.pop(); module !== undefined; module = queue.pop()) {
      const { packages, sources } = this.importsOf(module);
      for (const name of packages) reached.add(name);
      for (const source of sources) {
        if (!seen.has(source)) {
          seen.add(source);
          queue.push(source);
        }
      }
    }
    return reached;
  }

  tierOf(file: string): Tier {
    const reached = [...this.reachedPackages(file)];
    for (const [tier, pattern] of NEEDS) if (reached.some((name) => pattern.test(name))) return tier;
    return 'unit';
  }

  /** The test files under `dir` (`*.test.ts`, relative to `root`), by tier. */
  classify(root: string, dir = 'test'): Record<Tier, string[]> {
    const tiers: Record<Tier, string[]> = { unit: [], gpu: [], process: [], browser: [] };
    const walk = (folder: string) => {
      for (const name of readdirSync(folder).sort()) {
        const path = join(folder, name);
        if (statSync(path).isDirectory()) {
          if (name !== 'node_modules' && name !== '__snapshots__') walk(path);
        } else if (name.endsWith('.test.ts')) {
          tiers[this.tierOf(path)].push(relative(root, path));
        }
      }
    };
    walk(join(root, dir));
    return tiers;
  }
}

/**
 * The options of a case whose size is what it proves (2^20 particles, 2^24
 * slots, a limit's worth of state): tagged `large` (vite.config.ts), which
 * `npm test` runs and `npm run test:gpu` leaves out. Such a case has 600 s.
 */
export const LARGE: { tags: string[] } = { tags: ['large'] };
