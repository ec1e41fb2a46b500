/**
 * `npm run render -- --scene scene.json [--steps N] [--dt S] [--frames K]
 *   [--out DIR] [--size WxH] [--camera "target=x,y,z eye=x,y,z fov=deg"]
 *   [--integrator ...] [--damping ...] [--no-progress]`
 *
 * Draws K frames of a scene in Node with the gallery's renderer (src/render:
 * each layer of the scene's look through ParticlePass, sorted layers through
 * DepthSort, trails through TrailPass, links and springs through LinkPass,
 * the first plane collider as the gallery's ground grid) into an offscreen
 * rgba8unorm texture, reads each frame back and writes it as
 * DIR/frame-0000.png, ... Frame k shows the state after (k + 1) x N steps.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { SingleBar } from 'cli-progress';
import { Command } from 'commander';
import { PNG } from 'pngjs';
import { checkStepCount, checkTimeStep } from '../core/particles';
import { DAMPING_MODES, DEFAULT_VARIANT, INTEGRATION_ORDERS, resolveVariant, type Variant } from '../core/variants';
import { withErrorScopes } from '../gpu/device/errors';
import { acquireDevice } from '../node/device';
import { OrbitCamera } from '../render/camera';
import { groundGrid, planeCentre } from '../render/ground';
import { GridPass, type GridSpec } from '../render/gridPass';
import { DEFAULT_LINK_STYLE, LinkPass, sceneLinkEnds } from '../render/linkPass';
import { LookDraws } from '../render/lookDraws';
import type { Rgb } from '../render/particleLook';
import { ParticlePass } from '../render/particlePass';
import type { SceneLook } from '../scene/look';
import { parseScene, sceneCapacity, sceneToForces, sceneToLook, type Scene } from '../scene/scene';
import { createSceneSystem } from '../scene/sceneSystem';
import { checkFlag, failureExitCode, numberFlag, processIo, refuseFlag, type CliIo } from './flags';

/** The most frames one run draws, and the largest side of a frame (a common maxTextureDimension2D). */
export const MAX_FRAMES = 100_000;
export const MAX_SIDE = 8192;
/** The most steps between two frames. */
export const MAX_STEPS_BETWEEN_FRAMES = 1_000_000;
/** Defaults: one frame a 60th of a second, one step a frame, 960 x 540. */
export const DEFAULTS = { steps: 1, dt: 1 / 60, frames: 1, size: '960x540', out: 'render-out' } as const;
/** The background the frames are cleared to (the rain page's), and its ground grid's colours. */
export const BACKGROUND: Rgb = [0.02, 0.025, 0.04];
const GRID_COLORS = { lineColor: [0.16, 0.19, 0.26], planeColor: [0.05, 0.06, 0.08] } as const;
const FORMAT = 'rgba8unorm';
const DEPTH_FORMAT = 'depth24plus';

/** Where the camera is: what it looks at, from where, with which vertical field of view (degrees). */
export interface RenderCamera {
  target: [number, number, number];
  eye: [number, number, number];
  fov: number;
}

export interface RenderOptions {
  scene: string;
  steps: number;
  dt: number;
  frames: number;
  out: string;
  width: number;
  height: number;
  /** Parts not given are fitted to the scene (see fitCamera). */
  camera: Partial<RenderCamera>;
  variant: Variant;
  progress: boolean;
}

export interface RenderResult {
  /** The PNG files written, in frame order. */
  files: string[];
  width: number;
  height: number;
  camera: RenderCamera;
  summary: string;
}

/** Where the command writes; the tests pass their own to keep quiet. */
export type RenderIo = CliIo;

function integerFlag(flag: string, text: string, min: number, max: number): number {
  const value = numberFlag(flag, text);
  if (!Number.isInteger(value) || value < min || value > max) {
    refuseFlag(flag, text, `must be an integer in [${min}, ${max.toLocaleString('en-US')}]`);
  }
  return value;
}

/** `--size 960x540`: two integers in [1, MAX_SIDE]. */
export function parseSize(text: string): { width: number; height: number } {
  const match = /^(\d+)x(\d+)$/.exec(text.trim());
  if (!match) refuseFlag('--size', text, 'must be WIDTHxHEIGHT, e.g. 960x540');
  const [width, height] = [Number(match[1]), Number(match[2])];
  for (const side of [width, height]) {
    if (side < 1 || side > MAX_SIDE) refuseFlag('--size', text, `must have each side in [1, ${MAX_SIDE}] pixels`);
  }
  return { width, height };
}

/** `--camera target=0,1,0 eye=0,3,10 fov=45`: any of the three, space- or comma-separated settings. */
export function parseCamera(settings: readonly string[]): Partial<RenderCamera> {
  const camera: Partial<RenderCamera> = {};
  for (const setting of settings.flatMap((s) => s.trim().split(/\s+/)).filter((s) => s !== '')) {
    const [key, value = ''] = setting.split('=', 2);
    if (key === 'target' || key === 'eye') {
      const xyz = value.split(',').map((x) => (x.trim() === '' ? Number.NaN : Number(x)));
      if (xyz.length !== 3 || !xyz.every(Number.isFinite)) {
        refuseFlag('--camera', setting, `${key} must be three finite numbers x,y,z`);
      }
      camera[key] = xyz as [number, number, number];
    } else if (key === 'fov') {
      const fov = value.trim() === '' ? Number.NaN : Number(value);
      if (!(fov > 0 && fov < 180)) refuseFlag('--camera', setting, 'fov must be in (0, 180) degrees');
      camera.fov = fov;
    } else {
      refuseFlag('--camera', setting, 'is not one of target=x,y,z, eye=x,y,z, fov=degrees');
    }
  }
  if (camera.eye && camera.target && camera.eye.every((x, c) => x === camera.target![c])) {
    refuseFlag('--camera', settings.join(' '), 'eye and target must differ');
  }
  return camera;
}

interface Flags {
  scene?: string;
  steps: string;
  dt: string;
  frames: string;
  out: string;
  size: string;
  camera?: string[];
  integrator: string;
  damping: string;
  progress: boolean;
}

export function parseRenderOptions(argv: string[], io: RenderIo): RenderOptions {
  const program = new Command('render')
    .description('Draw frames of a scene with the gallery renderer and write them as PNG files.')
    .requiredOption('--scene <file>', 'scene JSON file')
    .option(
      '--steps <n>',
      `steps between frames, an integer in [0, ${MAX_STEPS_BETWEEN_FRAMES}]`,
      String(DEFAULTS.steps),
    )
    .option('--dt <seconds>', 'time step, finite and > 0', String(DEFAULTS.dt))
    .option('--frames <k>', `frames to draw, an integer in [1, ${MAX_FRAMES}]`, String(DEFAULTS.frames))
    .option('--out <dir>', 'directory for frame-0000.png, ... (made if missing)', DEFAULTS.out)
    .option('--size <WxH>', `frame size in pixels, each side in [1, ${MAX_SIDE}]`, DEFAULTS.size)
    .option('--camera <settings...>', 'target=x,y,z eye=x,y,z fov=degrees (each optional; default: fitted)')
    .option('--integrator <order>', INTEGRATION_ORDERS.join(' | '), DEFAULT_VARIANT.integrator)
    .option('--damping <mode>', DAMPING_MODES.join(' | '), DEFAULT_VARIANT.damping)
    .option('--no-progress', 'no progress bar on stderr')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: () => {} });
  program.parse(argv, { from: 'user' });
  const flags = program.opts<Flags>();
  const steps = integerFlag('--steps', flags.steps, 0, MAX_STEPS_BETWEEN_FRAMES);
  const dt = numberFlag('--dt', flags.dt);
  checkFlag('--dt', () => checkTimeStep(dt));
  checkFlag('--steps', () => checkStepCount(steps));
  const frames = integerFlag('--frames', flags.frames, 1, MAX_FRAMES);
  const { integrator } = checkFlag('--integrator', () => resolveVariant({ integrator: flags.integrator }));
  const { damping } = checkFlag('--damping', () => resolveVariant({ damping: flags.damping }));
  return {
    scene: flags.scene as string,
    steps,
    dt,
    frames,
    out: flags.out,
    ...parseSize(flags.size),
    camera: parseCamera(flags.camera ?? []),
    variant: { integrator, damping },
    progress: flags.progress,
  };
}

/**
 * The camera for the parts not given: the target at the centre of the
 * scene's particles, emitter centres and ground plane's point nearest the
 * origin (the origin without any), the eye on
 * the gallery's default orbit (yaw 0, pitch 0.3 rad) far enough that a
 * sphere around them of radius >= 3 fills the view's height, fov 45 degrees.
 */
export function fitCamera(scene: Scene, given: Partial<RenderCamera>): RenderCamera {
  const points: number[][] = scene.particles.map((p) => p.position);
  const ground = sceneGrid(scene, 1);
  if (ground) points.push([...ground.centre]);
  for (const emitter of scene.emitters ?? []) {
    const center = (emitter as { shape?: { center?: number[] } } | null)?.shape?.center;
    points.push(Array.isArray(center) ? center : [0, 0, 0]);
  }
  if (points.length === 0) points.push([0, 0, 0]);
  const low = [0, 1, 2].map((c) => Math.min(...points.map((p) => p[c] as number)));
  const high = [0, 1, 2].map((c) => Math.max(...points.map((p) => p[c] as number)));
  const centre = low.map((x, c) => (x + (high[c] as number)) / 2) as [number, number, number];
  const radius = Math.max(3, Math.hypot(...high.map((x, c) => x - (low[c] as number))) / 2);
  const fov = given.fov ?? 45;
  const target = given.target ?? centre;
  const distance = (1.1 * radius) / Math.sin((fov * Math.PI) / 360);
  const pitch = 0.3;
  const eye =
    given.eye ??
    ([target[0], target[1] + distance * Math.sin(pitch), target[2] + distance * Math.cos(pitch)] as [
      number,
      number,
      number,
    ]);
  return { target, eye, fov };
}

/** An OrbitCamera looking from `eye` at `target` (its distance, yaw and pitch from the two points). */
export function orbitCamera({ target, eye, fov }: RenderCamera, aspect: number): OrbitCamera {
  const [dx, dy, dz] = eye.map((x, c) => x - (target[c] as number)) as [number, number, number];
  const distance = Math.hypot(dx, dy, dz);
  const camera = new OrbitCamera();
  camera.minDistance = 0;
  camera.maxDistance = Infinity;
  camera.far = Math.max(camera.far, distance * 4);
  camera.fovY = (fov * Math.PI) / 180;
  camera.set({ target, distance, yaw: Math.atan2(dx, dz), pitch: Math.asin(dy / distance) });
  camera.update(aspect);
  return camera;
}

/** The scene's first plane collider as the gallery's ground grid, or null. */
function sceneGrid(scene: Scene, halfSize: number): GridSpec | null {
  const centre = planeCentre(scene.colliders);
  return centre && groundGrid({ halfSize, ...GRID_COLORS, background: BACKGROUND, centre });
}

/**
 * The look with its `image` sprites drawn soft: the image comes from the page
 * drawing the scene (the campfire page generates its flame atlas); none here.
 */
function withoutImageSprites(look: SceneLook, io: RenderIo): SceneLook {
  const layers = look.layers.map((layer, k) => {
    const sprite = layer.look.sprite;
    if (sprite?.shape !== 'image') return layer;
    io.err(`render: layer ${k}: a sprite of shape image needs the page's image; drawn as soft sprites\n`);
    return { ...layer, look: { ...layer.look, sprite: { ...sprite, shape: 'soft' as const, flipbook: undefined } } };
  });
  return { ...look, layers };
}

/** rgba rows read back with copyTextureToBuffer's 256-byte row padding dropped, alpha set opaque. */
export function unpadRows(padded: Uint8Array, width: number, height: number, paddedRowBytes: number): Uint8Array {
  const rowBytes = width * 4;
  const pixels = new Uint8Array(rowBytes * height);
  for (let row = 0; row < height; row++) {
    pixels.set(padded.subarray(row * paddedRowBytes, row * paddedRowBytes + rowBytes), row * rowBytes);
  }
  // The frame is cleared opaque; blending may leave alpha below 1, which a PNG viewer would show through.
  for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
  return pixels;
}

/** Draws the frames of `options.scene` and writes them; returns the files and a one-line summary. */
export async function renderScene(options: RenderOptions, io: RenderIo): Promise<RenderResult> {
  const started = performance.now();
  const text = await readFile(options.scene, 'utf8').catch((error: NodeJS.ErrnoException) =>
    refuseFlag('--scene', options.scene, `cannot be read (${error.code ?? error.message})`),
  );
  const scene = parseScene(text, options.scene);
  const camera = fitCamera(scene, options.camera);
  const { width, height } = options;
  const view = orbitCamera(camera, width / height);
  const drawView = view.drawView(width, height);
  const outDir = resolve(options.out);
  await mkdir(outDir, { recursive: true });

  const { device, adapterInfo } = await acquireDevice();
  const owned: { destroy(): void }[] = [];
  const own = <T extends { destroy(): void }>(x: T): T => (owned.push(x), x);
  let bar: SingleBar | null = null;
  try {
    const capacity = sceneCapacity(scene);
    const system = own(await createSceneSystem(device, scene, options.variant));
    const live = system.lifecycle?.buffers;
    const buffer = system.particleStore;
    const particlePass = own(new ParticlePass(device, FORMAT, DEPTH_FORMAT));
    const draws = own(
      new LookDraws(
        { device, passes: { particles: particlePass }, target: { format: FORMAT, depthFormat: DEPTH_FORMAT } },
        'render',
        withoutImageSprites(sceneToLook(scene), io),
        buffer,
        { count: capacity, live },
      ),
    );
    const links = sceneLinkEnds(scene.links, sceneToForces(scene).links);
    const linkPass = links.length > 0 ? own(new LinkPass(device, FORMAT, DEPTH_FORMAT)) : null;
    const linkBinding = linkPass ? own(linkPass.bind('render.links', buffer, links)) : null;
    const grid = sceneGrid(scene, Math.max(8, Math.hypot(...camera.eye.map((x, c) => x - camera.target[c]!))));
    const gridPass = grid ? own(new GridPass(device, FORMAT, DEPTH_FORMAT)) : null;
    const gridBinding = gridPass ? own(gridPass.bind('render.grid')) : null;

    const color = own(
      device.createTexture({
        label: 'render.color',
        size: [width, height],
        format: FORMAT,
        usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
      }),
    );
    const depth = own(
      device.createTexture({
        label: 'render.depth',
        size: [width, height],
        format: DEPTH_FORMAT,
        usage: GPUTextureUsage.RENDER_ATTACHMENT,
      }),
    );
    const paddedRowBytes = Math.ceil((width * 4) / 256) * 256;
    const read = own(
      device.createBuffer({
        label: 'render.read',
        size: paddedRowBytes * height,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      }),
    );

    if (options.progress && io.progress && options.frames > 1) {
      bar = new SingleBar({
        stream: io.progress,
        format: 'render [{bar}] {percentage}% | {value}/{total} frames | {eta_formatted} left',
        barsize: 30,
        hideCursor: true,
        noTTYOutput: true,
        notTTYSchedule: 10_000,
      });
      bar.start(options.frames, 0);
    }
    const files: string[] = [];
    for (let frame = 0; frame < options.frames; frame++) {
      const time = (frame + 1) * options.steps * options.dt;
      const drawTime = { extrapolate: 0, time };
      await withErrorScopes(device, `render frame ${frame}`, () => {
        const encoder = device.createCommandEncoder({ label: `render.frame${frame}` });
        if (options.steps > 0) system.encodeSteps(encoder, options.dt, options.steps);
        draws.encode(encoder, drawView, drawTime);
        const pass = encoder.beginRenderPass({
          colorAttachments: [
            { view: color.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [...BACKGROUND, 1] },
          ],
          depthStencilAttachment: {
            view: depth.createView(),
            depthLoadOp: 'clear',
            depthStoreOp: 'store',
            depthClearValue: 1,
          },
        });
        if (grid && gridPass && gridBinding) gridPass.draw(pass, gridBinding, grid, drawView);
        if (linkPass && linkBinding) linkPass.draw(pass, linkBinding, DEFAULT_LINK_STYLE, drawView, drawTime);
        // Drawn by index (no emitters): every slot; with emitters, the live list's count (indirect).
        const range = live ? undefined : { count: capacity };
        draws.render(pass, drawView, drawTime, { intensity: 1, trails: true, range });
        pass.end();
        encoder.copyTextureToBuffer({ texture: color }, { buffer: read, bytesPerRow: paddedRowBytes }, [width, height]);
        device.queue.submit([encoder.finish()]);
      });
      await read.mapAsync(GPUMapMode.READ);
      const pixels = unpadRows(new Uint8Array(read.getMappedRange()), width, height, paddedRowBytes);
      read.unmap();
      const png = new PNG({ width, height });
      png.data = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
      const file = join(outDir, `frame-${String(frame).padStart(4, '0')}.png`);
      await writeFile(file, PNG.sync.write(png));
      files.push(file);
      bar?.update(frame + 1);
    }
    const seconds = (performance.now() - started) / 1000;
    const summary =
      `rendered ${options.frames} frame(s) of ${width}x${height}, ${options.steps} step(s) of ${options.dt} s apart, ` +
      `on ${adapterInfo.description || adapterInfo.vendor || 'the GPU'} in ${seconds.toFixed(1)} s: ` +
      `${files[0]}${files.length > 1 ? ` ... ${files[files.length - 1]}` : ''}`;
    return { files, width, height, camera, summary };
  } finally {
    bar?.stop();
    for (const x of owned.reverse()) x.destroy();
    device.destroy();
  }
}

/** Parses the flags, renders, prints the summary on stderr. */
export async function runRender(argv: string[], io: RenderIo = processIo): Promise<RenderResult> {
  const options = parseRenderOptions(argv, io);
  const result = await renderScene(options, io);
  io.err(`${result.summary}\n`);
  return result;
}

/** runRender as a program: returns the exit code; bad flags and scenes are one line on stderr, exit code 1. */
export async function main(argv: string[], io: RenderIo = processIo): Promise<number> {
  try {
    await runRender(argv, io);
    return 0;
  } catch (error) {
    return failureExitCode('render', error, io);
  }
}
