/**
 * What the CLI tests share: the repository's example scenes, the command's
 * output captured, a run on both backends, and a temporary folder for scene files.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { runSimulate, type SimulateIo } from '../../src/cli/simulate';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The example scene `name` (e.g. 'ballistic.json') in public/scenes. */
export const scenePath = (name: string): string => join(ROOT, 'public/scenes', name);

/** Collects what the command writes instead of printing it. */
export function capture(): SimulateIo & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (text: string) => void (io.stdout += text),
    err: (text: string) => void (io.stderr += text),
  };
  return io;
}

/** A folder made before the file's tests and removed after them; `path` inside a test. */
export function useTempDir(prefix: string): { readonly path: string } {
  const dir = { path: '' };
  beforeAll(async () => {
    dir.path = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (dir.path) await rm(dir.path, { recursive: true, force: true });
  });
  return dir;
}

/** `simulate` with `flags` on the GPU, then with `--cpu` after them: both outputs. */
export async function simulateOnBoth(flags: readonly string[]) {
  const gpu = (await runSimulate([...flags], capture())).output;
  const cpu = (await runSimulate([...flags, '--cpu'], capture())).output;
  return { gpu, cpu };
}
