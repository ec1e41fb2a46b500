/**
 * `npm run render`: frames of a scene drawn by the gallery's renderer in Node,
 * read back and written as PNG. The GPU is real (acquireDevice: Dawn,
 * SwiftShader here), never mocked; the pixels are checked where the camera
 * puts the particles and where nothing is.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vec4 } from 'gl-matrix';
import { PNG } from 'pngjs';
import { describe, expect, it, vi } from 'vitest';
import { main, runRender } from '../src/cli/render';
import { BACKGROUND } from '../src/cli/renderBackdrop';
import { orbitCamera } from '../src/cli/renderCamera';
import { capture, useTempDir } from './support/cli';
import { useAcquiredDevices } from './support/gpu';

// The CLI acquires its own devices: each is checked for uncaptured GPU errors after every test.
vi.mock('../src/node/device', async (original) =>
  (await import('./support/acquired')).watchingAcquisitions(await original()),
);
useAcquiredDevices();

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = useTempDir('sparkworks-render-');

async function decode(file: string): Promise<PNG> {
  return PNG.sync.read(await readFile(file));
}
const pixel = (png: PNG, x: number, y: number) =>
  Array.from(png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 4));

/**
 * Each channel within 1 of `expected` (8-bit units). A colour written to an
 * rgba8unorm target is rounded to the nearest of 255 steps; 0.5 * 255 = 127.5
 * is a tie either way, and the background 0.02 * 255 = 5.1 rounds to 5: one
 * step covers the rounding, nothing else (the sprite's centre is opaque, so
 * the "over" blend returns the colour itself, and the disc's texels there are 255).
 */
function expectColour(actual: number[], expected: readonly number[], where: string): void {
  expected.forEach((e, c) =>
    expect(Math.abs((actual[c] as number) - e), `${where} channel ${c}: ${actual}`).toBeLessThanOrEqual(1),
  );
}
const BACKGROUND_BYTES = [...BACKGROUND.map((x) => x * 255), 255];
const ORANGE_BYTES = [255, 127.5, 63.75, 255];

describe('npm run render: a known scene, pixel by pixel', () => {
  // Two particles at rest (no forces): every frame shows them where they started.
  const SCENE = {
    particles: [{ position: [0, 0, 0] }, { position: [1.5, 0.75, 0] }],
    look: {
      mode: 'sprites',
      blend: 'alpha',
      size: 0.4,
      sprite: { shape: 'disc' },
      curves: { color: [{ at: 0, color: [1, 0.5, 0.25, 1] }] },
    },
  };
  const [WIDTH, HEIGHT] = [64, 48];
  const CAMERA = { target: [0, 0, 0], eye: [0, 0, 10], fov: 30 } as const;

  it('draws each particle at its projected centre in its colour, the background elsewhere, K frames', async () => {
    const scene = join(dir.path, 'two.json');
    await writeFile(scene, JSON.stringify(SCENE));
    const out = join(dir.path, 'two');
    const io = capture();
    const { files } = await runRender(
      [
        ...[
          '--scene',
          scene,
          '--frames',
          '3',
          '--steps',
          '2',
          '--dt',
          '0.01',
          '--out',
          out,
          '--size',
          `${WIDTH}x${HEIGHT}`,
        ],
        ...['--camera', `target=${CAMERA.target.join(',')}`, `eye=${CAMERA.eye.join(',')}`, `fov=${CAMERA.fov}`],
      ],
      io,
    );
    expect(files).toEqual([0, 1, 2].map((k) => join(out, `frame-000${k}.png`)));
    expect(io.stderr).toMatch(/^rendered 3 frame\(s\) of 64x48/);

    // Where the camera puts each particle: the same view-projection the renderer drew with.
    const camera = orbitCamera({ target: [0, 0, 0], eye: [0, 0, 10], fov: 30 }, WIDTH / HEIGHT);
    const centres = SCENE.particles.map(({ position }) => {
      const clip = vec4.transformMat4(
        vec4.create(),
        [position[0]!, position[1]!, position[2]!, 1],
        camera.viewProjection,
      );
      return [((clip[0] / clip[3] + 1) / 2) * WIDTH, ((1 - clip[1] / clip[3]) / 2) * HEIGHT];
    });
    // The origin is the image's centre; (1.5, 0.75) is 1.5 * f / 10 pixels right, f = 24 / tan(15°) = 89.6.
    expect(centres[0]).toEqual([32, 24]);
    expect(centres[1]![0]).toBeCloseTo(32 + (1.5 * 24) / Math.tan(Math.PI / 12) / 10, 3);
    // A sprite of radius 0.4 at distance 10 is 0.4 * 89.6 / 10 = 3.6 pixels: the pixels around each centre are
    // covered; 7 pixels away is background.
    const RADIUS_PX = (0.4 * 24) / Math.tan(Math.PI / 12) / 10;
    expect(RADIUS_PX).toBeCloseTo(3.58, 2);

    for (const file of files) {
      const png = await decode(file);
      expect([png.width, png.height]).toEqual([WIDTH, HEIGHT]);
      centres.forEach(([cx, cy], i) => {
        // The pixel whose centre is nearest the projected point (a pixel's centre is at +0.5).
        const [px, py] = [Math.round(cx! - 0.5), Math.round(cy! - 0.5)];
        expectColour(pixel(png, px, py), ORANGE_BYTES, `${file} particle ${i} at (${px}, ${py})`);
        expectColour(pixel(png, px + 7, py), BACKGROUND_BYTES, `${file} 7 px right of particle ${i}`);
      });
      for (const [x, y] of [
        [0, 0],
        [WIDTH - 1, 0],
        [0, HEIGHT - 1],
        [WIDTH - 1, HEIGHT - 1],
        [10, 40],
      ]) {
        expectColour(pixel(png, x!, y!), BACKGROUND_BYTES, `${file} (${x}, ${y})`);
      }
      // Written opaque: every alpha 255.
      for (let i = 3; i < png.data.length; i += 4) if (png.data[i] !== 255) expect.fail(`alpha ${png.data[i]} at ${i}`);
    }
  });

  it('draws public/scenes/bouncing-ball.json at the default size, with its ground grid below the balls', async () => {
    const out = join(dir.path, 'ball');
    const { files, width, height } = await runRender(
      ['--scene', join(ROOT, 'public/scenes/bouncing-ball.json'), '--out', out, '--no-progress'],
      capture(),
    );
    expect([files.length, width, height]).toEqual([1, 960, 540]);
    const png = await decode(files[0]!);
    expect([png.width, png.height]).toEqual([960, 540]);
    // The grid is drawn where the ground is (the lower part of the fitted view), nothing above the scene.
    const drawn = (y0: number, y1: number) => {
      let count = 0;
      for (let y = y0; y < y1; y++)
        for (let x = 0; x < 960; x++) {
          const p = pixel(png, x, y);
          if (p.some((v, c) => Math.abs(v - BACKGROUND_BYTES[c]!) > 1)) count++;
        }
      return count;
    };
    expect(drawn(0, 20)).toBe(0);
    expect(drawn(400, 540)).toBeGreaterThan(1000);
  });
});

describe('npm run render: bad flags', () => {
  it.each([
    [['--frames', '0'], /--frames: "0" must be an integer in \[1, 100,000\]/],
    [['--frames', '1.5'], /--frames: "1.5" must be an integer/],
    [['--steps', '-1'], /--steps: "-1" must be an integer in \[0, 1,000,000\]/],
    [['--dt', '0'], /--dt: dt = 0 .*> 0/],
    [['--dt', 'fast'], /--dt: "fast" is not a number/],
    [['--size', '0x10'], /--size: "0x10" must have each side in \[1, 8192\] pixels/],
    [['--size', '640'], /--size: "640" must be WIDTHxHEIGHT/],
    [['--camera', 'fov=200'], /--camera: "fov=200" fov must be in \(0, 180\) degrees/],
    [['--camera', 'eye=1,2'], /--camera: "eye=1,2" eye must be three finite numbers/],
    [['--camera', 'zoom=2'], /--camera: "zoom=2" is not one of target=x,y,z, eye=x,y,z, fov=degrees/],
    [['--camera', 'eye=1,1,1', 'target=1,1,1'], /--camera: .*eye and target must differ/],
    [['--integrator', 'verlet'], /--integrator: .*"verlet"/],
  ])('refuses %j in one line, exit code 1', async (flags, message) => {
    const io = capture();
    const scene = join(ROOT, 'public/scenes/bouncing-ball.json');
    expect(await main(['--scene', scene, '--out', join(dir.path, 'bad'), ...flags], io)).toBe(1);
    expect(io.stderr).toMatch(message);
    expect(io.stderr).toMatch(/^render: [^\n]*\n$/);
  });

  it('refuses a missing --scene and a scene that cannot be read', async () => {
    const io = capture();
    expect(await main(['--frames', '1'], io)).toBe(1);
    expect(io.stderr).toMatch(/^render: required option '--scene <file>' not specified\n$/);
    const missing = capture();
    expect(await main(['--scene', join(dir.path, 'nope.json')], missing)).toBe(1);
    expect(missing.stderr).toMatch(/--scene: ".*nope\.json" cannot be read \(ENOENT\)/);
  });
});
