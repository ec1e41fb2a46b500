/**
 * The render command's flags: their declarations (what --help lists), their
 * defaults and limits, and the checked options a run takes from them.
 */
import { checkStepCount } from '../core/particles';
import type { Variant } from '../core/variants';
import {
  addVariantOptions,
  checkFlag,
  cliCommand,
  numberFlag,
  refuseFlag,
  timeStepFlag,
  variantFlags,
  type CliIo,
} from './flags';
import { parseCamera, type RenderCamera } from './renderCamera';

/** The most frames one run draws, and the largest side of a frame (a common maxTextureDimension2D). */
export const MAX_FRAMES = 100_000;
export const MAX_SIDE = 8192;
/** The most steps between two frames. */
export const MAX_STEPS_BETWEEN_FRAMES = 1_000_000;
/** Defaults: one frame a 60th of a second, one step a frame, 960 x 540. */
export const RENDER_DEFAULTS = { steps: 1, dt: 1 / 60, frames: 1, size: '960x540', out: 'render-out' } as const;

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

/** The flags as commander hands them over: strings, checked in parseRenderOptions. */
interface RenderFlags {
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

export function parseRenderOptions(argv: string[], io: CliIo): RenderOptions {
  const program = cliCommand(
    'render',
    'Draw frames of a scene with the gallery renderer and write them as PNG files.',
    io,
  )
    .requiredOption('--scene <file>', 'scene JSON file')
    .option(
      '--steps <n>',
      `steps between frames, an integer in [0, ${MAX_STEPS_BETWEEN_FRAMES}]`,
      String(RENDER_DEFAULTS.steps),
    )
    .option('--dt <seconds>', 'time step, finite and > 0', String(RENDER_DEFAULTS.dt))
    .option('--frames <k>', `frames to draw, an integer in [1, ${MAX_FRAMES}]`, String(RENDER_DEFAULTS.frames))
    .option('--out <dir>', 'directory for frame-0000.png, ... (made if missing)', RENDER_DEFAULTS.out)
    .option('--size <WxH>', `frame size in pixels, each side in [1, ${MAX_SIDE}]`, RENDER_DEFAULTS.size)
    .option('--camera <settings...>', 'target=x,y,z eye=x,y,z fov=degrees (each optional; default: fitted)');
  addVariantOptions(program).option('--no-progress', 'no progress bar on stderr');
  program.parse(argv, { from: 'user' });
  const flags = program.opts<RenderFlags>();
  const steps = integerFlag('--steps', flags.steps, 0, MAX_STEPS_BETWEEN_FRAMES);
  const dt = timeStepFlag(flags.dt);
  checkFlag('--steps', () => checkStepCount(steps));
  const frames = integerFlag('--frames', flags.frames, 1, MAX_FRAMES);
  const variant = variantFlags(flags);
  return {
    scene: flags.scene as string,
    steps,
    dt,
    frames,
    out: flags.out,
    ...parseSize(flags.size),
    camera: parseCamera(flags.camera ?? []),
    variant,
    progress: flags.progress,
  };
}
