/**
 * Parameters most demos share: the clock (pause, time scale, step rate, the
 * cap on steps per frame, interpolation, how often a snapshot is kept), the
 * integrator variant, and the look of the particles.
 */
import { DAMPING_MODES, INTEGRATION_ORDERS, type DampingMode, type IntegrationOrder } from '../../core/variants';
import {
  BLEND_MODES,
  COLOR_MODES,
  DRAW_MODES,
  type BlendMode,
  type ColorMode,
  type DrawMode,
  type ParticleLook,
  type Rgb,
} from '../../render/particleLook';
import { param } from './params';

export interface ClockDefaults {
  stepRate?: number;
  maxSteps?: number;
  timeScale?: number;
}

/** The fixed-step clock's parameters (read by src/demos/shared/app.ts every frame). */
export function clockParams(defaults: ClockDefaults = {}) {
  return {
    paused: param.boolean(false, { folder: 'Simulation', transient: true }),
    timeScale: param.number(defaults.timeScale ?? 1, 0, 8, { folder: 'Simulation', step: 0.05, label: 'time scale' }),
    stepRate: param.integer(defaults.stepRate ?? 120, 10, 1000, { folder: 'Simulation', label: 'steps per second' }),
    maxSteps: param.integer(defaults.maxSteps ?? 8, 1, 64, { folder: 'Simulation', label: 'max steps per frame' }),
    interpolate: param.boolean(true, { folder: 'Simulation' }),
    // How often the state is kept to continue from after a lost device (src/demos/shared/recovery.ts); 0: never.
    snapshotEvery: param.number(3, 0, 60, { folder: 'Simulation', step: 0.5, label: 'snapshot every (s)' }),
  };
}

export function variantParams(integrator: IntegrationOrder = 'explicit', damping: DampingMode = 'per-second') {
  return {
    integrator: param.choice(integrator, INTEGRATION_ORDERS, { folder: 'Simulation', rebuild: true }),
    damping: param.choice(damping, DAMPING_MODES, { folder: 'Simulation', rebuild: true }),
  };
}

export interface JetDefaults {
  speed: number;
  maxSpeed: number;
  spread: number;
  lifetime: number;
  seed: number;
}

/**
 * What the emitters of a demo's jets are made with, in the panel's `folder`:
 * fixed when the system is made, so a change rebuilds it (the fountain, the
 * three.js page's sparks).
 */
export function jetParams(folder: string, defaults: JetDefaults) {
  return {
    speed: param.number(defaults.speed, 1, defaults.maxSpeed, { folder, step: 0.1, rebuild: true }),
    spread: param.number(defaults.spread, 0, 45, { folder, step: 0.5, rebuild: true, label: 'spread (degrees)' }),
    lifetime: param.number(defaults.lifetime, 0.3, 8, { folder, step: 0.1, rebuild: true }),
    seed: param.integer(defaults.seed, 0, 1e6, { folder, rebuild: true }),
  };
}

export interface LookDefaults {
  mode: DrawMode;
  blend: BlendMode;
  colorMode: ColorMode;
  size: number;
  intensity: number;
}

export function lookParams(defaults: LookDefaults, maxSize = 1) {
  return {
    mode: param.choice(defaults.mode, DRAW_MODES, { folder: 'Look' }),
    blend: param.choice(defaults.blend, BLEND_MODES, { folder: 'Look' }),
    colorMode: param.choice(defaults.colorMode, COLOR_MODES, { folder: 'Look', label: 'colour' }),
    size: param.number(defaults.size, 0.001, maxSize, { folder: 'Look', step: 0.001 }),
    intensity: param.number(defaults.intensity, 0.01, 4, { folder: 'Look', step: 0.01 }),
  };
}

/** Copies the panel's look parameters (those of `lookParams`) into `look`, before a draw. */
export function applyLookParams(look: ParticleLook, params: LookDefaults): void {
  look.mode = params.mode;
  look.blend = params.blend;
  look.colorMode = params.colorMode;
  look.size = params.size;
  look.intensity = params.intensity;
}

type SpeedColours = Pick<ParticleLook, 'colorA' | 'colorB' | 'speedRange'>;
type LifeColours = Pick<ParticleLook, 'hotTime' | 'fadeStart' | 'endSize'>;
type Palette = Pick<ParticleLook, 'hueOffset' | 'hueSpan' | 'saturation'>;

/** A look's speed colours: `colorA` at rest, `colorB` halfway to `speedRange` (m/s), white beyond. */
export function speedColours(colorA: Rgb, colorB: Rgb, speedRange: number): SpeedColours {
  return { colorA, colorB, speedRange };
}

/** A look's life colours: white-hot for the first `hotTime` of a life, fading after `fadeStart`, `endSize` at its end. */
export function lifeColours(hotTime: number, fadeStart: number, endSize: number): LifeColours {
  return { hotTime, fadeStart, endSize };
}

/** A look's index colours: hues from `hueOffset` over `hueSpan` turns, at `saturation` (which life colours have too). */
export function palette(hueOffset: number, hueSpan: number, saturation: number): Palette {
  return { hueOffset, hueSpan, saturation };
}
