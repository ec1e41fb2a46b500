/** What the CLI tests share: the command's output captured, and a temporary folder for scene files. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { SimulateIo } from '../../src/cli/simulate';

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
