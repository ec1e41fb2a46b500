/**
 * The package's entry points, from their sources: every public error class
 * is exported; `sparkworks/core` reaches nothing of the GPU, the renderer or
 * the DOM; the README's quick start is the tested example, word for word.
 * (The exported names and signatures are held by etc/*.api.md, checked when
 * test/package.test.ts builds the package.)
 */
import { quickStartBlock } from './support/quickStart';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as root from '../src/index';
import * as core from '../src/core';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative module specifiers a source file imports or re-exports (values and types). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/g)].map((match) => match[1]!);
}

/** Every source file `entry` reaches through its imports, and every package it names. */
function reach(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      // WGSL read as text (src/shaders/sources.ts): a file, not a module.
      if (specifier.endsWith('?raw')) continue;
      const base = resolve(dirname(file), specifier);
      const candidates = [`${base}.ts`, join(base, 'index.ts'), base];
      const found = candidates.find((path) => {
        try {
          return statSync(path).isFile();
        } catch {
          return false;
        }
      });
      if (!found) throw new Error(`${relative(ROOT, file)}: cannot resolve '${specifier}'`);
      visit(found);
    }
  };
  visit(join(ROOT, entry));
  return { files, packages };
}

describe('public entry points', () => {
  it('export every public error class from sparkworks, and the input errors from sparkworks/core', () => {
    const library = ['core', 'gpu', 'render', 'scene', 'node'].flatMap((folder) =>
      sourceFiles(join(ROOT, 'src', folder)),
    );
    const errorClasses = library.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/export class (\w+Error) extends/g)].map((match) => match[1]!),
    );
    expect(errorClasses.length).toBeGreaterThanOrEqual(7);
    const exported = root as Record<string, unknown>;
    for (const name of errorClasses) {
      expect(typeof exported[name], `${name} from 'sparkworks'`).toBe('function');
      expect((exported[name] as { prototype: unknown }).prototype).toBeInstanceOf(Error);
    }
    const inputErrors = [
      'SparkworksInputError',
      'ForceInputError',
      'CollisionInputError',
      'EmitterInputError',
      'SnapshotError',
      'LookInputError',
    ];
    for (const name of inputErrors) {
      expect(typeof (core as Record<string, unknown>)[name], `${name} from 'sparkworks/core'`).toBe('function');
    }
  });

  it('sparkworks/core reaches no GPU pass, renderer, shader or DOM code, and no package but gl-matrix, zod and crc-32', () => {
    const { files, packages } = reach('src/core.ts');
    const outside = [...files]
      .map((file) => relative(ROOT, file))
      .filter((file) => !file.startsWith('src/core/') && !file.startsWith('src/scene/') && file !== 'src/core.ts');
    expect(outside).toEqual([]);
    expect([...packages].sort()).toEqual(['crc-32', 'gl-matrix', 'zod']);
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(/\b(?:GPU\w+|navigator|document|window)\b/.test(text), relative(ROOT, file)).toBe(false);
    }
  });

  it('sparkworks (the root) does not reach the Node device code or Dawn', () => {
    const { files, packages } = reach('src/index.ts');
    expect([...files].some((file) => file.includes('/src/node/'))).toBe(false);
    expect(packages.has('webgpu')).toBe(false);
  });

  it('name the same four entries wherever they are listed (package.json, tsconfig, TypeDoc, the library build)', () => {
    const json = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, any>;
    // package.json's subpaths and tsconfig's paths (which the Vite alias mirrors) name the same sources.
    const exported = Object.keys(json('package.json')['exports']).filter((key) => key !== './package.json');
    const paths = json('tsconfig.json')['compilerOptions']['paths'] as Record<string, [string]>;
    expect(exported.map((key) => key.replace(/^\./, 'sparkworks')).sort()).toEqual(Object.keys(paths).sort());
    const sources = Object.values(paths)
      .map(([file]) => file.replace(/^\.\//, ''))
      .sort();
    expect([...(json('typedoc.json')['entryPoints'] as string[])].sort()).toEqual(sources);
    const libraryBuild = readFileSync(join(ROOT, 'vite.lib.config.ts'), 'utf8');
    for (const file of sources) expect(libraryBuild, file).toContain(`'${file}'`);
    const viteConfig = readFileSync(join(ROOT, 'vite.config.ts'), 'utf8');
    for (const [name, [file]] of Object.entries(paths)) {
      expect(viteConfig, name).toMatch(new RegExp(`'?${name}'?: '${file.replace(/^\.\//, '')}'`));
    }
  });

  it("the README's quick start is examples/minimal/main.ts, word for word", () => {
    expect(quickStartBlock('examples/minimal/main.ts')).toBe(
      readFileSync(join(ROOT, 'examples/minimal/main.ts'), 'utf8'),
    );
  });
});
