/**
 * Every TypeScript or JavaScript block in README.md and docs/*.md, as a
 * module a user's project could hold, for test/package.test.ts to
 * type-check against the installed package. A block that is a fragment of
 * a program says so on its first line, naming what it assumes declared:
 * `// fragment: device, system`. Names it may assume are FRAGMENT_NAMES.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;

/** What a fragment may assume, as a declaration over the package's types. */
export const FRAGMENT_NAMES: Record<string, string> = {
  device: 'declare const device: GPUDevice;',
  system: "declare const system: import('sparkworks').ParticleSystem;",
  cpu: "declare const cpu: import('sparkworks/core').CpuParticleSystem;",
  canvas: 'declare const canvas: HTMLCanvasElement;',
  encoder: 'declare const encoder: GPUCommandEncoder;',
  pass: 'declare const pass: GPURenderPassEncoder;',
  format: 'declare const format: GPUTextureFormat;',
};

export interface DocSnippet {
  /** Where it is, e.g. `docs/forces.md:42` (the line of its opening fence). */
  readonly at: string;
  /** The module written for it: the fragment's declarations, the block, `export {}`. */
  readonly module: string;
  /** Lines the declarations add before the block's first line. */
  readonly offset: number;
}

const LANGUAGES = new Set(['ts', 'typescript', 'js', 'javascript']);

/** The Markdown files a user reads: README.md and every page under docs/. */
export function docFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs.sort()];
}

/** The blocks of `file` (relative to the repository), in order. */
export function snippetsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): DocSnippet[] {
  const lines = text.split('\n');
  const snippets: DocSnippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    if (end < 0) throw new Error(`${file}:${i + 1}: a code block that never closes`);
    if (LANGUAGES.has(open[1] as string)) snippets.push(snippet(`${file}:${i + 1}`, lines.slice(i + 1, end)));
    i = end;
  }
  return snippets;
}

function snippet(at: string, body: string[]): DocSnippet {
  const fragment = /^\/\/ fragment(?::\s*(.*))?$/.exec(body[0] ?? '');
  const names = fragment?.[1] ? fragment[1].split(/[,\s]+/).filter(Boolean) : [];
  const declarations = names.map((name) => {
    const declaration = FRAGMENT_NAMES[name];
    if (!declaration)
      throw new Error(`${at}: a fragment assumes '${name}', not one of ${Object.keys(FRAGMENT_NAMES).join(', ')}`);
    return declaration;
  });
  return { at, module: [...declarations, ...body, 'export {};', ''].join('\n'), offset: declarations.length };
}
