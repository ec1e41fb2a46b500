/**
 * `npm run bundle:node`: the Node scripts bundled for a machine without the
 * repository. A bundled `simulate` run from a folder that holds nothing but
 * the bundle and the `webgpu` package gives the same particles, bit for bit,
 * as the same run in this process; a name that is no script is refused.
 * The GPU is real (Dawn, SwiftShader here), never mocked.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { runSimulate } from '../src/cli/simulate';
import type { SimulationOutput } from '../src/cli/simulateOutput';
import { capture, useTempDir } from './support/cli';
import { useAcquiredDevices } from './support/gpu';

vi.mock('../src/node/device', async (original) =>
  (await import('./support/acquired')).watchingAcquisitions(await original()),
);
useAcquiredDevices();

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BALLISTIC = join(ROOT, 'public/scenes/ballistic.json');
const run = promisify(execFile);
const dir = useTempDir('sparkworks-bundle-');

describe('npm run bundle:node', () => {
  it('bundles simulate into a folder where it runs with only webgpu beside it, giving the same particles', async () => {
    const out = join(dir.path, 'bundle');
    const built = await run('npm', ['run', '--silent', 'bundle:node', '--', '--out', out, 'simulate'], { cwd: ROOT });
    expect(built.stdout).toMatch(/1 scripts bundled into .*bundle \(simulate\.mjs\)/);
    // No other package: anything the bundle failed to inline fails to resolve.
    await mkdir(join(out, 'node_modules'));
    await symlink(join(ROOT, 'node_modules', 'webgpu'), join(out, 'node_modules', 'webgpu'), 'dir');
    const manifest = JSON.parse(await readFile(join(out, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const webgpu = JSON.parse(await readFile(join(ROOT, 'node_modules/webgpu/package.json'), 'utf8')) as {
      version: string;
    };
    expect(manifest.dependencies).toEqual({ webgpu: webgpu.version });
    expect((await readdir(out)).filter((file) => file.endsWith('.mjs'))).toEqual(['simulate.mjs']);

    const state = join(dir.path, 'state.json');
    const flags = ['--scene', BALLISTIC, '--steps', '50', '--dt', '0.01'];
    const child = await run(process.execPath, ['simulate.mjs', ...flags, '--out', state], { cwd: out });
    expect(child.stderr).toMatch(/simulated 6 particles x 50 steps of 0\.01 s on .* wrote /);
    const written = JSON.parse(await readFile(state, 'utf8')) as SimulationOutput;
    const inProcess = await runSimulate(flags, capture());
    expect(written.backend).toBe('gpu');
    expect(written.particles).toEqual(inProcess.output.particles);
  });

  it('refuses a name that is no script to bundle, listing those that are', async () => {
    const failed = run('npm', ['run', '--silent', 'bundle:node', '--', '--out', join(dir.path, 'none'), 'benhc'], {
      cwd: ROOT,
    });
    await expect(failed).rejects.toMatchObject({
      stderr: expect.stringMatching(/no script "benhc" to bundle; these can be: .*\bbench\b.*\bsimulate\b/),
    });
  });
});
