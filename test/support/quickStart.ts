/**
 * The README's quick start, as a user pastes it: the page (`index.html`) and
 * the script (`src/main.ts`, which is examples/minimal/main.ts word for word).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;

/** The block marked `<!-- quick-start: name -->` ... `<!-- /quick-start -->` in README.md. */
export function quickStartBlock(name: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const marker = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const block = new RegExp(
    `<!-- quick-start: ${marker} -->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`\\s*<!-- /quick-start -->`,
  ).exec(readme);
  if (!block) throw new Error(`README.md has no quick-start block marked '${name}'`);
  return block[1] as string;
}

/** The files of a fresh Vite app the quick start replaces, by their path in the app. */
export function quickStartFiles(): Record<string, string> {
  return { 'index.html': quickStartBlock('index.html'), 'src/main.ts': quickStartBlock('examples/minimal/main.ts') };
}
