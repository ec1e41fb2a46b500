/**
 * The frame loop: one requestAnimationFrame callback a frame while running,
 * the seconds since the last drawn frame (and their smoothed length), and the
 * recording of one frame: the host work, the steps (timed on the GPU), one
 * render pass, one submit. The statistics line reads what it measured.
 */
import type { OrbitCamera } from '../../render/camera';
import type { PixelRect } from '../../render/canvasTarget';
import type { FixedStepClock } from '../../render/fixedStep';
import type { Rgb } from '../../render/particleLook';
import type { DemoScene } from './demo';
import type { GpuState } from './deviceLifecycle';

/**
 * A page's rebuilds (a new scene from the panel's values, on the same
 * device), never two at once: one asked for while another runs is queued,
 * and however many were asked for meanwhile, one more runs after it. The
 * loop draws no frame while one runs.
 */
export class Rebuilds {
  private running = false;
  private queued = false;

  constructor(
    /** Whether a rebuild can start now (a device, a running loop). */
    private readonly ready: () => boolean,
    private readonly build: () => Promise<void>,
    private readonly fail: (error: unknown) => void,
  ) {}

  get building(): boolean {
    return this.running;
  }

  async rebuild(): Promise<void> {
    if (this.running) {
      this.queued = true;
      return;
    }
    if (!this.ready()) return;
    this.running = true;
    try {
      do {
        this.queued = false;
        await this.build();
      } while (this.queued);
    } catch (error) {
      this.fail(error);
    } finally {
      this.running = false;
    }
  }
}

export class FrameLoop {
  private running = false;
  private lastNow: number | null = null;
  /** Smoothed milliseconds between drawn frames; NaN before the second one. */
  frameMs = Number.NaN;

  /**
   * `draw` is called with the frame's time and the seconds since the last frame drawn,
   * on the frames `ready` allows (the others are not drawn and do not count).
   */
  constructor(
    private readonly ready: () => boolean,
    private readonly draw: (now: number, seconds: number) => void,
  ) {}

  get isRunning(): boolean {
    return this.running;
  }

  /** Runs from the next animation frame on, the first one advancing no time. */
  start(): void {
    this.running = true;
    this.lastNow = null;
    requestAnimationFrame(this.tick);
  }

  stop(): void {
    this.running = false;
  }

  private readonly tick = (now: number): void => {
    if (!this.running) return;
    requestAnimationFrame(this.tick);
    if (!this.ready()) return;
    const seconds = this.lastNow === null ? 0 : (now - this.lastNow) / 1000;
    this.lastNow = now;
    if (seconds > 0) this.frameMs = Number.isNaN(this.frameMs) ? seconds * 1000 : this.frameMs * 0.9 + seconds * 100;
    this.draw(now, seconds);
  };
}

export interface FrameRecording {
  /** Names the frame's command encoder. */
  label: string;
  camera: OrbitCamera;
  clock: FixedStepClock;
  /** What the clock planned for this frame, and its time before the plan's steps. */
  plan: { steps: number; alpha: number };
  timeBefore: number;
  /** The part of the canvas the scene is centred in. */
  free: PixelRect;
  background: Rgb;
  /** Draw the state extrapolated by the leftover time (alpha * dt). */
  interpolate: boolean;
}

/** Records and submits one frame of `scene`: host work, the planned steps (timed), one render pass. */
export function recordFrame(gpu: GpuState, scene: DemoScene, frame: FrameRecording): void {
  const { device, target, timer } = gpu;
  const { camera, clock, plan, free } = frame;
  // Centre the scene in the part of the canvas the panel and the header leave free.
  camera.shiftX = ((free.x + free.width / 2) / target.width) * 2 - 1;
  camera.shiftY = 1 - ((free.y + free.height / 2) / target.height) * 2;
  camera.update(target.width / target.height);
  scene.beforeSteps?.(frame.timeBefore, clock.dt);

  const encoder = device.createCommandEncoder({ label: frame.label });
  if (plan.steps > 0) timer.time(encoder, (e) => scene.encodeSteps(e, clock.dt, plan.steps));
  const extrapolate = frame.interpolate ? plan.alpha * clock.dt : 0;
  const pass = target.beginPass(encoder, [...frame.background]);
  scene.render(pass, {
    view: camera.drawView(target.width, target.height),
    free,
    time: { extrapolate, time: clock.time + extrapolate },
    alpha: plan.alpha,
    target,
    camera,
  });
  pass.end();
  device.queue.submit([encoder.finish()]);
  scene.submitted();
  timer.afterSubmit();
}

/** The statistics line: particles, frame time, GPU step time, steps a frame, simulated time, the scene's own, the adapter. */
export function statsLine(
  gpu: GpuState,
  scene: DemoScene,
  figures: { frameMs: number; stepsLastFrame: number; clock: FixedStepClock; paused: boolean },
): string {
  const { frameMs, stepsLastFrame, clock } = figures;
  const timing = gpu.timer.timing;
  const stepMs = Number.isNaN(timing.milliseconds)
    ? '–'
    : `${timing.source === 'host' ? '≈ ' : ''}${timing.milliseconds.toFixed(2)} ms`;
  const fps = Number.isNaN(frameMs) ? '–' : (1000 / frameMs).toFixed(0);
  const parts = [
    `${scene.particleCount.toLocaleString('en-US')} particles`,
    `frame ${Number.isNaN(frameMs) ? '–' : frameMs.toFixed(1)} ms (${fps} fps)`,
    `GPU step ${stepMs}${timing.source === 'host' ? ' (no timestamp queries: submit to done)' : ''}`,
    `${stepsLastFrame} step${stepsLastFrame === 1 ? '' : 's'}/frame of ${(clock.dt * 1000).toFixed(2)} ms`,
    `t = ${clock.time.toFixed(2)} s${figures.paused ? ' (paused)' : ''}`,
  ];
  const extra = scene.status?.();
  if (extra) parts.push(extra);
  parts.push(gpu.adapterInfo.description || gpu.adapterInfo.vendor);
  return parts.join(' · ');
}
