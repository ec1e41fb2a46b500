/**
 * The CLI's snapshots: `--snapshot-out` then `--resume` equals one run
 * straight through (every gallery scene, both backends); simulate's JSON
 * output reads back as a scene listing the same state; bad combinations of
 * the flags are refused in one line naming the flag.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, runSimulate } from '../src/cli/simulate';
import type { SimulationOutput } from '../src/cli/simulateOutput';
import { capture, useTempDir } from './support/cli';

const dir = useTempDir('sparkworks-snapshots-');
const SCENES = ['ballistic', 'drag', 'forces', 'bouncing-ball', 'bridge', 'cradle', 'emitters', 'fireworks'];
const DT = '0.01';

/** The gallery's scene file; the emitters' 100,000-slot pool cut to 8,192 (its live count stays under 3,000) for SwiftShader. */
async function sceneFile(name: string): Promise<string> {
  const path = `public/scenes/${name}.json`;
  if (name !== 'emitters') return path;
  const cut = join(dir.path, 'emitters-8192.json');
  await writeFile(cut, JSON.stringify({ ...JSON.parse(await readFile(path, 'utf8')), capacity: 8192 }));
  return cut;
}

async function run(args: string[]): Promise<SimulationOutput> {
  return (await runSimulate(args, capture())).output;
}

describe.each([
  ['CPU reference', ['--cpu']],
  ['GPU', []],
])('%s', (_name, backend) => {
  it.each(SCENES)(
    '%s: 40 steps straight equal 20, --snapshot-out, --resume, 20 (every listed number identical)',
    async (name) => {
      const scene = await sceneFile(name);
      const snap = join(dir.path, `${name}-${backend.length}.snap`);
      const straight = await run(['--scene', scene, '--steps', '40', '--dt', DT, ...backend]);
      const first = await run(['--scene', scene, '--steps', '20', '--dt', DT, '--snapshot-out', snap, ...backend]);
      expect(first.stepCount).toBe(20);
      const resumed = await run(['--resume', snap, '--steps', '20', '--dt', DT, ...backend]);
      expect(resumed.stepCount).toBe(40);
      expect(resumed.time).toBe(straight.time);
      expect(resumed.resumedFrom).toBe(snap);
      expect(resumed.stats).toEqual(straight.stats);
      // A resumed run lists every slot (its snapshot does not say how many the scene listed): the scene's come first.
      expect(resumed.particles.slice(0, straight.particles.length)).toEqual(straight.particles);
    },
    120_000,
  );
});

describe("simulate's output read back as a scene", () => {
  it.each(SCENES)('%s: the output, run for 0 steps, lists the same particles', async (name) => {
    const out = join(dir.path, `${name}.out.json`);
    const again = join(dir.path, `${name}.again.json`);
    const first = await run([
      '--scene',
      `public/scenes/${name}.json`,
      '--steps',
      '30',
      '--dt',
      DT,
      '--cpu',
      '--out',
      out,
    ]);
    const second = await run(['--scene', out, '--steps', '0', '--dt', DT, '--cpu', '--out', again]);
    // With emitters the output lists live particles with their slot, age and lifetime, which a scene does not read:
    // read back they are the scene's own (permanent) particles, with the same state.
    const strip = ({ slot: _s, age: _a, lifetime: _l, ...state }: SimulationOutput['particles'][number]) => state;
    expect(second.particles.map(strip)).toEqual(first.particles.map(strip));
    expect(JSON.parse(await readFile(again, 'utf8')).particles.map(strip)).toEqual(first.particles.map(strip));
  });

  it('mass and inverseMass together are accepted only as simulate writes them (mass = 1 / inverseMass)', async () => {
    const file = join(dir.path, 'both.json');
    await writeFile(file, JSON.stringify({ particles: [{ position: [0, 0, 0], mass: 3, inverseMass: 0.5 }] }));
    const io = capture();
    expect(await main(['--scene', file, '--steps', '1', '--dt', DT, '--cpu'], io)).toBe(1);
    expect(io.stderr).toMatch(/\$\.particles\[0\]\.mass: give mass or inverseMass, not both \(or both as simulate/);
    await writeFile(file, JSON.stringify({ particles: [{ position: [0, 0, 0], mass: 2, inverseMass: 0.5 }] }));
    expect((await run(['--scene', file, '--steps', '0', '--dt', DT, '--cpu'])).particles[0]?.inverseMass).toBe(0.5);
  });
});

describe('bad snapshot flags', () => {
  const refused = async (args: string[], message: RegExp) => {
    const io = capture();
    expect(await main(['--steps', '1', '--dt', DT, '--cpu', ...args], io)).toBe(1);
    expect(io.stderr).toMatch(message);
    expect(io.stderr.trim().split('\n')).toHaveLength(1);
  };

  it('refuses --scene with --resume, neither, a non-snapshot, a changed variant, and outputs over inputs', async () => {
    const snap = join(dir.path, 'flags.snap');
    await run(['--scene', 'public/scenes/drag.json', '--steps', '2', '--dt', DT, '--cpu', '--snapshot-out', snap]);
    await refused(['--scene', 'public/scenes/drag.json', '--resume', snap], /--scene and --resume: give one, not both/);
    await refused([], /required option '--scene <file>' not specified \(or --resume <file>\)/);
    await refused(['--resume', 'public/scenes/drag.json'], /--resume: not a Sparkworks snapshot: it starts/);
    await refused(
      ['--resume', snap, '--integrator', 'semi-implicit'],
      /differs from the snapshot's explicit\/per-second/,
    );
    await refused(['--resume', snap, '--snapshot-out', snap], /--snapshot-out: .* is the snapshot file itself/);
    await refused(
      ['--scene', 'public/scenes/drag.json', '--out', snap, '--snapshot-out', snap],
      /--snapshot-out: .* is the --out file itself/,
    );
    const truncated = join(dir.path, 'truncated.snap');
    await writeFile(truncated, (await readFile(snap)).subarray(0, 100));
    await refused(['--resume', truncated], /--resume: snapshot is truncated: 100 bytes where its header says/);
  });
});
