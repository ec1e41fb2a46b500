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
 *
 * Here the drawing loop; its parts: the flags (renderOptions.ts), the camera
 * (renderCamera.ts), the background and ground grid (renderBackdrop.ts), the
 * PNG files (framePng.ts).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { SingleBar } from 'cli-progress';
import { withErrorScopes } from '../gpu/device/errors';
import { acquireDevice } from '../node/device';
import { GridPass } from '../render/gridPass';
import { DEFAULT_LINK_STYLE, LinkPass, sceneLinkEnds } from '../render/linkPass';
import { LookDraws } from '../render/lookDraws';
import { ParticlePass } from '../render/particlePass';
import type { SceneLook } from '../scene/look';
import { parseScene, sceneCapacity, sceneToForces, sceneToLook } from '../scene/scene';
import { createSceneSystem } from '../scene/sceneSystem';
import { failureExitCode, processIo, refuseFlag, type CliIo } from './flags';
import { unpadRows, writeFramePng } from './framePng';
import { startProgressBar } from './progressBar';
import { BACKGROUND, sceneGrid } from './renderBackdrop';
import { fitCamera, orbitCamera, type RenderCamera } from './renderCamera';
import { parseRenderOptions, type RenderOptions } from './renderOptions';

const FORMAT = 'rgba8unorm';
const DEPTH_FORMAT = 'depth24plus';

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
      bar = startProgressBar(
        io.progress,
        'render [{bar}] {percentage}% | {value}/{total} frames | {eta_formatted} left',
        options.frames,
        0,
      );
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
      files.push(await writeFramePng(outDir, frame, pixels, width, height));
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
