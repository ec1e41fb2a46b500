/**
 * sparkworks/node's choice of adapter: which Vulkan drivers it looks for on
 * Linux (pure, no device), and a first acquisition in a fresh process that
 * prints nothing of Dawn's on the way (a real device: hardware, else SwiftShader).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { mayHaveHardwareDriver } from '../src/node/device';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VARIABLES = ['VK_ICD_FILENAMES', 'VK_DRIVER_FILES', 'XDG_CONFIG_DIRS', 'XDG_DATA_DIRS', 'XDG_DATA_HOME'];

describe.runIf(process.platform === 'linux')('sparkworks/node on Linux: whether to ask for a hardware driver', () => {
  const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  /** The loader's search path pointed at an empty folder (and /etc, which the loader always reads, left as it is). */
  async function emptySearchPath(): Promise<string> {
    const folder = await mkdtemp(join(tmpdir(), 'sparkworks-icd-'));
    for (const name of VARIABLES) delete process.env[name];
    process.env.XDG_CONFIG_DIRS = folder;
    process.env.XDG_DATA_DIRS = folder;
    process.env.XDG_DATA_HOME = folder;
    return folder;
  }

  it('asks when a folder of the search path holds a driver manifest', async () => {
    const folder = await emptySearchPath();
    try {
      await mkdir(join(folder, 'vulkan/icd.d'), { recursive: true });
      await writeFile(join(folder, 'vulkan/icd.d/gpu_icd.json'), '{}');
      expect(mayHaveHardwareDriver()).toBe(true);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('asks when the user names the drivers', async () => {
    const folder = await emptySearchPath();
    try {
      process.env.VK_ICD_FILENAMES = '/somewhere/icd.json';
      expect(mayHaveHardwareDriver()).toBe(true);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('sparkworks/node: a first acquisition in a fresh process', () => {
  it('finds an adapter and prints nothing on stderr (no driver-failure lines from Dawn)', async () => {
    const env = { ...process.env };
    delete env.VK_ICD_FILENAMES;
    const { stdout, stderr } = await promisify(execFile)(
      join(ROOT, 'node_modules/.bin/vite-node'),
      ['test/support/acquireOnce.ts'],
      { cwd: ROOT, env },
    );
    const found = JSON.parse(stdout.trim()) as { software: boolean; source: string };
    expect(found.source).toMatch(/^webgpu \(Dawn\)/);
    expect(stderr).toBe('');
  });
});
