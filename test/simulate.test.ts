/**
 * The headless `simulate` command: GPU against the CPU reference on the
 * example scene, scene validation, flag validation, and the npm script itself.
 * The GPU is real (acquireDevice: Dawn, SwiftShader here), never mocked.
 */
import { execFile } from 'node:child_process';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { SparkworksInputError } from '../src/core/errors';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { ALL_VARIANTS, variantName } from '../src/core/variants';
import { StepErrorBound } from './support/errorBound';
import { parseScene, sceneToParticles } from '../src/scene/scene';
import { ROOT, capture, scenePath, simulateOnBoth, useTempDir } from './support/cli';
import { INTERRUPTED_EXIT_CODE, main, runSimulate } from '../src/cli/simulate';
import { MAX_STEPS } from '../src/cli/simulateOptions';
import type { SimulationOutput } from '../src/cli/simulateOutput';
import { useAcquiredDevices } from './support/gpu';

// The CLI acquires its own devices: each is checked for uncaptured GPU errors after every test.
vi.mock('../src/node/device', async (original) =>
  (await import('./support/acquired')).watchingAcquisitions(await original()),
);
useAcquiredDevices();

const BALLISTIC = scenePath('ballistic.json');
const DRAG = scenePath('drag.json');

const dir = useTempDir('sparkworks-simulate-');

// ---------------------------------------------------------------------------
// GPU against the CPU reference

describe('simulate: GPU against the CPU reference on public/scenes/ballistic.json', () => {
  // 2 s of flight at 100 Hz, Cyclone's ballistic demo. Few enough steps that
  // the bound stays far below the difference between the variants themselves
  // (swapping explicit and semi-implicit moves the cannon shot by ~0.4).
  const steps = 200;
  const dt = 0.01;

  it.each(ALL_VARIANTS.map((variant) => [variantName(variant), variant] as const))(
    '%s: positions and velocities agree within the float32 bound, the rest exactly',
    async (_, variant) => {
      const { gpu, cpu } = await simulateOnBoth([
        ...['--scene', BALLISTIC, '--steps', String(steps), '--dt', String(dt)],
        ...['--integrator', variant.integrator, '--damping', variant.damping],
      ]);
      expect(gpu.backend).toBe('gpu');
      expect(cpu.backend).toBe('cpu');
      expect(cpu.adapter).toEqual({ description: 'CPU reference (float32)' });
      expect(gpu.variant).toEqual(variant);

      const scene = sceneToParticles(parseScene(await readFile(BALLISTIC, 'utf8'), BALLISTIC));
      expect(gpu.particles).toHaveLength(scene.length);
      expect(cpu.particles).toHaveLength(scene.length);
      // The float32 bound between the GPU and the reference, carried along a
      // reference run of the same scene (derivation in test/support/errorBound.ts).
      const reference = new CpuParticleSystem({ capacity: scene.length, ...variant });
      reference.writeParticles(0, scene);
      const bound = new StepErrorBound(scene.length, variant);
      for (let s = 0; s < steps; s++) {
        bound.advance(reference.state, Math.fround(dt));
        reference.step(dt);
      }
      scene.forEach((_, i) => {
        const g = gpu.particles[i]!;
        const c = cpu.particles[i]!;
        // The step never writes these: bit for bit.
        expect({ ...g, position: 0, velocity: 0 }).toEqual({ ...c, position: 0, velocity: 0 });
        for (let axis = 0; axis < 3; axis++) {
          const where = `particle ${i} axis ${axis}`;
          expect(Math.abs(g.velocity[axis]! - c.velocity[axis]!), `${where} velocity`).toBeLessThanOrEqual(
            bound.velocity[i * 3 + axis]!,
          );
          expect(Math.abs(g.position[axis]! - c.position[axis]!), `${where} position`).toBeLessThanOrEqual(
            bound.position[i * 3 + axis]!,
          );
        }
      });
      // The anchor (inverseMass 0) is never integrated: still where it was, no mass.
      for (const out of [gpu, cpu]) {
        expect(out.particles[4]).toEqual({
          position: [0, 5, -10],
          velocity: [3, 0, 0],
          acceleration: [0, Math.fround(-9.81), 0],
          inverseMass: 0,
          damping: 1,
        });
      }
    },
  );

  it('batches steps past 1000 without losing or adding one (exact on the GPU)', async () => {
    // With damping off and no acceleration, x += 10 * dt; dt = 2^-10 makes
    // every product and partial sum exact in float32, with or without fma.
    const dt = 2 ** -10;
    const flags = ['--scene', DRAG, '--steps', '1001', '--dt', String(dt), '--damping', 'off'];
    const { output } = await runSimulate(flags, capture());
    for (const particle of output.particles) expect(particle.position[0]).toBe(10 * 1001 * dt);
  });
});

// ---------------------------------------------------------------------------
// Scene validation

describe('simulate: scene validation', () => {
  const particle = '{"position": [0, 1, 2]}';
  // A bare array is a scene's particles; anything else is the whole scene.
  const refused = (text: string) => () =>
    parseScene(text.startsWith('[') ? `{"particles": ${text}}` : text, 'scene.json');

  // Each case: what is wrong, the particles (or the whole text), the message.
  it.each([
    ['non-JSON', '{"particles": [', /^scene\.json: \$: not valid JSON/],
    ['a missing position', '[{"velocity": [1, 2, 3]}]', /\$\.particles\[0\]\.position: is required.*; got nothing$/],
    ['a position of length 2', `[${particle}, {"position": [1, 2]}]`, /\$\.particles\[1\]\.position: .*; got \[1,2\]$/],
    [
      'mass -1',
      '[{"position": [0, 0, 0], "mass": -1}]',
      /\$\.particles\[0\]\.mass: mass must be finite and > 0.*; got -1$/,
    ],
    [
      'damping 1.5',
      `[${particle}, ${particle}, {"position": [0, 0, 0], "damping": 1.5}]`,
      /\$\.particles\[2\]\.damping: damping must be in \[0, 1\].*; got 1\.5$/,
    ],
    [
      'NaN as a string',
      '[{"position": [0, 0, 0], "mass": "NaN"}]',
      /\$\.particles\[0\]\.mass: must be a finite number; got "NaN"$/,
    ],
    [
      // Together only as simulate writes them, mass = 1 / inverseMass (test/simulate.snapshots.test.ts): 3 is not 1 / 0.5.
      'mass and inverseMass that disagree',
      '[{"position": [0, 0, 0], "mass": 3, "inverseMass": 0.5}]',
      /\$\.particles\[0\]\.mass: give mass or inverseMass, not both \(or both as simulate writes them, with mass = 1 \/ inverseMass\); got 3$/,
    ],
    [
      'an unknown particle key',
      '[{"position": [0, 0, 0], "colour": "red"}]',
      /\$\.particles\[0\]\.colour: unknown particle field.*; got "red"$/,
    ],
    ['no particles', '[]', /\$\.particles: a scene needs at least one particle/],
    ['a non-object', '"particles"', /\$: a scene must be a JSON object/],
  ])('refuses %s, naming the JSON path and the value', (_, text, message) => {
    expect(refused(text)).toThrow(SparkworksInputError);
    expect(refused(text)).toThrow(message);
  });

  it('allows unknown top-level keys and fills in the defaults', () => {
    const scene = parseScene('{"forces": [], "capacity": 10, "particles": [{"position": [1, 2, 3]}]}', 'scene.json');
    expect(sceneToParticles(scene)).toEqual([{ position: [1, 2, 3] }]);
  });

  it('reports a bad scene file from the command as one line on stderr, exit code 1', async () => {
    const file = join(dir.path, 'bad.json');
    await writeFile(file, '{"particles": [{"position": [0, 0, 0]}, {"position": [0, 0, 0], "damping": -0.5}]}\n');
    const io = capture();
    expect(await main(['--scene', file, '--steps', '1', '--dt', '0.1', '--cpu'], io)).toBe(1);
    expect(io.stderr).toMatch(/^simulate: .*bad\.json: \$\.particles\[1\]\.damping: .*; got -0\.5\n$/);
    expect(io.stdout).toBe('');
  });
});

// ---------------------------------------------------------------------------
// Flag validation (fails before any scene is read or device acquired)

describe('simulate: flag validation', () => {
  const base = ['--scene', BALLISTIC, '--steps', '10', '--dt', '0.01'];
  it.each([
    ['--dt 0', [...base, '--dt', '0'], /--dt: dt = 0 is invalid: .*finite and > 0/],
    ['--dt -1', [...base, '--dt', '-1'], /--dt: dt = -1 is invalid/],
    ['--dt abc', [...base, '--dt', 'abc'], /--dt: "abc" is not a number/],
    ['--steps 1.5', [...base, '--steps', '1.5'], /--steps: steps = 1\.5 is invalid: must be an integer >= 0/],
    [
      '--integrator foo',
      [...base, '--integrator', 'foo'],
      /--integrator: integrator = "foo" is invalid: must be one of explicit, semi/,
    ],
    [
      '--damping bar',
      [...base, '--damping', 'bar'],
      /--damping: damping = "bar" is invalid: must be one of per-second, per-step/,
    ],
    // A misspelt flag is named as unknown, with the flag it was probably meant to be.
    ['--step 10', ['--scene', BALLISTIC, '--step', '10'], /unknown option '--step'\s+\(Did you mean --steps\?\)/],
    // Issue 17 item 9: a run too long to ever end is refused, naming the limit.
    ['--steps 1e12', [...base, '--steps', '1e12'], /--steps: 1e12 is more than 1,000,000,000, the most one run takes/],
  ])('refuses %s naming the value: one line on stderr, exit code 1', async (_, argv, message) => {
    await expect(runSimulate(argv, capture())).rejects.toThrow(message);
    const io = capture();
    expect(await main(argv, io)).toBe(1);
    expect(io.stderr).toMatch(/^simulate: [^\n]+\n$/);
    expect(io.stderr).toMatch(message);
  });
});

describe('simulate: defaults', () => {
  it('steps one second at 60 steps a second when --steps and --dt are left out', async () => {
    const { output } = await runSimulate(['--scene', BALLISTIC, '--cpu'], capture());
    expect(output).toMatchObject({ steps: 60, dt: 1 / 60 });
    const given = (
      await runSimulate(['--scene', BALLISTIC, '--cpu', '--steps', '60', '--dt', String(1 / 60)], capture())
    ).output;
    expect(output.particles).toEqual(given.particles);
  });
});

// ---------------------------------------------------------------------------
// The npm script, as a user runs it

describe('simulate: npm run simulate', () => {
  it('writes --out and prints the summary', async () => {
    const out = join(dir.path, 'state.json');
    const flags = ['--scene', BALLISTIC, '--steps', '100', '--dt', '0.01', '--out', out];
    const child = await promisify(execFile)('npm', ['run', '--silent', 'simulate', '--', ...flags], { cwd: ROOT });
    expect(child.stderr).toMatch(
      /simulated 6 particles x 100 steps of 0\.01 s on .* \(explicit\/per-second\) in \d+ ms; centroid \[.*\]; wrote /,
    );
    const written = JSON.parse(await readFile(out, 'utf8')) as SimulationOutput;
    const variant = { integrator: 'explicit', damping: 'per-second' };
    expect(written).toMatchObject({ backend: 'gpu', steps: 100, dt: 0.01, variant });
    // The same run in this process gives the same state, bit for bit.
    const inProcess = await runSimulate(flags.slice(0, -2), capture());
    expect(written.particles).toEqual(inProcess.output.particles);
  });
});

describe('simulate: files (issue 17, item 1)', () => {
  const run = async (args: string[]) => {
    const io = capture();
    const code = await main(['--steps', '2', '--dt', '0.01', '--cpu', ...args], io);
    return { code, stderr: io.stderr, stdout: io.stdout };
  };

  it.each([
    ['a missing directory', () => join(dir.path, 'missing', 'out.json'), /is in a directory that does not exist/],
    ['a directory', () => dir.path, /is a directory: name a file in it/],
    ['an empty path', () => '', /is empty/],
  ])('refuses --out in %s before simulating: one line, exit code 1', async (_what, out, message) => {
    const { code, stderr, stdout } = await run(['--scene', BALLISTIC, '--out', out()]);
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/simulated/);
    expect(stdout).toBe('');
  });

  it('refuses --out naming the scene, which stays as it was', async () => {
    const scene = join(dir.path, 'self.json');
    const text = await readFile(BALLISTIC, 'utf8');
    await writeFile(scene, text);
    const { code, stderr } = await run(['--scene', scene, '--out', scene]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/is the scene file itself/);
    expect(await readFile(scene, 'utf8')).toBe(text);
  });

  it('refuses a scene that is not a regular file: a directory, a FIFO (which would block forever)', async () => {
    const fifo = join(dir.path, 'scene.fifo');
    await promisify(execFile)('mkfifo', [fifo]);
    for (const scene of [dir.path, fifo]) {
      const { code, stderr } = await run(['--scene', scene]);
      expect(code).toBe(1);
      expect(stderr).toMatch(/--scene: ".*" is not a regular file/);
    }
  });

  it('writes --out whole, replacing the previous file, leaving no temporary file', async () => {
    const out = join(dir.path, 'state.json');
    await writeFile(out, 'previous');
    const { code } = await run(['--scene', BALLISTIC, '--out', out]);
    expect(code).toBe(0);
    expect(JSON.parse(await readFile(out, 'utf8')).steps).toBe(2);
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(dir.path)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('simulate: a capacity the limits allow but the memory may not (issue 17, item 6)', () => {
  it('ends in one line and exit code 1 when the device cannot back 2^24 slots, never a stack trace', async () => {
    const scene = join(dir.path, 'huge.json');
    await writeFile(
      scene,
      JSON.stringify({ capacity: 2 ** 24, particles: [{ position: [0, 0, 0] }], emitters: [{ rate: 1 }] }),
    );
    const io = capture();
    const code = await main(['--scene', scene, '--steps', '1', '--dt', '0.01'], io);
    // A device with a GiB to spare runs it (exit 0); SwiftShader here cannot, and that must be one line.
    if (code === 0) {
      expect(io.stderr).toMatch(/^simulated /);
    } else {
      expect(code).toBe(1);
      expect(io.stderr).toMatch(/^simulate: creating the particle system \(capacity 16777216, .*GPUOutOfMemoryError/);
      expect(io.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

// ---------------------------------------------------------------------------
// Long runs (issue 17, item 9 and deliverable 6)

/** A stream that keeps what the progress bar writes (not a terminal: it gets a line now and then). */
function progressSink(): Writable & { text: string } {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      sink.text += String(chunk);
      done();
    },
  }) as Writable & { text: string };
  sink.text = '';
  return sink;
}

describe('simulate: long runs', () => {
  it(`takes --steps up to ${MAX_STEPS}, and refuses one more`, async () => {
    const flags = ['--scene', BALLISTIC, '--dt', '0.01', '--cpu'];
    await expect(runSimulate([...flags, '--steps', String(MAX_STEPS + 1)], capture())).rejects.toThrow(
      /--steps: 1000000001 is more than 1,000,000,000/,
    );
    // The maximum itself passes validation: stopped at once, it writes the state it reached (none taken).
    const stop = new AbortController();
    stop.abort();
    const { output } = await runSimulate([...flags, '--steps', String(MAX_STEPS)], capture(), stop.signal);
    expect(output).toMatchObject({ steps: 0, interrupted: true, requestedSteps: MAX_STEPS });
  });

  it('shows progress on stderr after a second, stops when told, and writes exactly the state of the steps taken', async () => {
    const out = join(dir.path, 'stopped.json');
    const flags = ['--scene', BALLISTIC, '--steps', '100000000', '--dt', '0.001', '--cpu', '--out', out];
    const sink = progressSink();
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 2500);
    const { output, summary } = await runSimulate(flags, { ...capture(), progress: sink }, stop.signal);
    clearTimeout(timer);
    expect(output.interrupted).toBe(true);
    expect(output.requestedSteps).toBe(100_000_000);
    expect(output.steps).toBeGreaterThan(0);
    expect(output.steps).toBeLessThan(100_000_000);
    expect(summary).toMatch(new RegExp(`x ${output.steps} of 100000000 steps \\(interrupted\\)`));
    expect(sink.text).toMatch(/simulate \[.*\] \d+% \| \d+\/100000000 steps/);
    const written = JSON.parse(await readFile(out, 'utf8')) as SimulationOutput;
    expect(written.steps).toBe(output.steps);
    // The same number of steps asked for outright lands on the same bits (the CPU reference is deterministic).
    const again = await runSimulate(
      ['--scene', BALLISTIC, '--steps', String(output.steps), '--dt', '0.001', '--cpu'],
      capture(),
    );
    expect(again.output.interrupted).toBeUndefined();
    expect(written.particles).toEqual(again.output.particles);
  });

  it('--no-progress keeps stderr to the summary', async () => {
    const sink = progressSink();
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 1500);
    const flags = ['--scene', BALLISTIC, '--steps', '100000000', '--dt', '0.001', '--cpu', '--no-progress'];
    await runSimulate(flags, { ...capture(), progress: sink }, stop.signal);
    clearTimeout(timer);
    expect(sink.text).toBe('');
  });

  it('Ctrl-C (SIGINT) on the command writes the state reached and exits with code 130', async () => {
    const out = join(dir.path, 'interrupted.json');
    const flags = ['--scene', BALLISTIC, '--steps', '100000000', '--dt', '0.001', '--cpu', '--out', out];
    // vite-node itself, not npm: a terminal's Ctrl-C reaches the whole process group, a kill only its target.
    const child = spawn(join(ROOT, 'node_modules/.bin/vite-node'), ['scripts/simulate.ts', '--', ...flags], {
      cwd: ROOT,
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Interrupted once it is stepping: its progress bar has appeared.
    await vi.waitFor(() => expect(stderr).toMatch(/simulate \[/), { timeout: 60_000, interval: 100 });
    child.kill('SIGINT');
    expect(await exited).toBe(INTERRUPTED_EXIT_CODE);
    expect(stderr).toMatch(/simulate: interrupted; writing the state reached/);
    expect(stderr).toMatch(/of 100000000 steps \(interrupted\)/);
    const written = JSON.parse(await readFile(out, 'utf8')) as SimulationOutput;
    expect(written).toMatchObject({ interrupted: true, requestedSteps: 100_000_000 });
    expect(written.steps).toBeGreaterThan(0);
  });
});
