/**
 * The fixed-step clock (Glenn Fiedler's "Fix Your Timestep!"): real frame time,
 * scaled, goes into an accumulator; the simulation advances in whole steps of
 * `dt` taken out of it, at most `maxStepsPerFrame` a frame. A frame that would
 * need more drops the backlog instead of running ever more steps (the spiral
 * of death), so the simulation slows down rather than freezing the page.
 *
 * What is left in the accumulator, `alpha = accumulator / dt` in [0, 1), says
 * how far real time has run past the last step. The renderer draws at that
 * time (see src/render/particlePass.ts): it moves each particle by
 * `velocity * alpha * dt`, which is exactly the linear interpolation between
 * this step and the next for the explicit integrator (it moves the position
 * with the old velocity), and within `alpha * dt^2 * |a|` of it for the
 * semi-implicit one. Interpolating between the previous and current state
 * instead would need the previous state kept: a copy of every particle per step
 * (64 MiB a step at a million particles) and a frame of latency.
 */

export interface FixedStepOptions {
  /** Seconds per step, > 0. */
  dt: number;
  /** Default 8. */
  maxStepsPerFrame?: number;
  /** Simulated seconds per real second. Default 1. */
  timeScale?: number;
  /** A frame longer than this (a background tab, a breakpoint) counts as this long. Default 0.25 s. */
  maxFrameSeconds?: number;
}

/** What a frame should do: how many steps, and how far past the last one to draw. */
export interface StepPlan {
  /** Whole steps to take this frame. */
  steps: number;
  /** accumulator / dt after those steps, in [0, 1). */
  alpha: number;
  /** Simulated seconds dropped this frame because of the step cap. */
  dropped: number;
}

/** A fixed-step clock: `advance(realSeconds)` says how many steps of `dt` a frame takes, and the drawing's `alpha`. */
export class FixedStepClock {
  /** Seconds per step, > 0; may change between frames. */
  dt: number;
  /** Most steps a frame takes; a frame that needs more drops the backlog. */
  maxStepsPerFrame: number;
  /** Simulated seconds per real second. */
  timeScale: number;
  /** A frame longer than this counts as this long, seconds. */
  maxFrameSeconds: number;
  /** While true, frames take no steps except those `requestStep` asks for. */
  paused = false;
  /** Steps taken since the start (or the last reset). */
  stepCount = 0;
  /** Simulated seconds of the current state: the sum of the steps taken (dt may change between frames). */
  time = 0;
  private accumulator = 0;
  private singleSteps = 0;

  constructor(options: FixedStepOptions) {
    this.dt = options.dt;
    this.maxStepsPerFrame = options.maxStepsPerFrame ?? 8;
    this.timeScale = options.timeScale ?? 1;
    this.maxFrameSeconds = options.maxFrameSeconds ?? 0.25;
  }

  /** accumulator / dt, in [0, 1). */
  get alpha(): number {
    return Math.min(this.accumulator / this.dt, 1 - Number.EPSILON);
  }

  /** Asks for one step on the next frame while paused (ignored while running). */
  requestStep(): void {
    this.singleSteps++;
  }

  /** Back to time 0: no steps taken, the accumulator and pending single steps cleared. */
  reset(): void {
    this.stepCount = 0;
    this.time = 0;
    this.accumulator = 0;
    this.singleSteps = 0;
  }

  /**
   * Plans a frame of `realSeconds` and counts its steps as taken: the caller
   * must take exactly `plan.steps` steps before drawing.
   */
  advance(realSeconds: number): StepPlan {
    const frame = Math.min(Math.max(realSeconds, 0), this.maxFrameSeconds);
    let steps = 0;
    let dropped = 0;
    if (this.paused) {
      steps = Math.min(this.singleSteps, this.maxStepsPerFrame);
    } else {
      this.accumulator += frame * this.timeScale;
      steps = Math.floor(this.accumulator / this.dt);
      if (steps > this.maxStepsPerFrame) {
        // Keep the fraction of a step, drop whole steps: the simulation slows down instead of spiralling.
        dropped = (steps - this.maxStepsPerFrame) * this.dt;
        steps = this.maxStepsPerFrame;
      }
      this.accumulator = Math.max(0, this.accumulator - steps * this.dt - dropped);
    }
    this.singleSteps = 0;
    this.stepCount += steps;
    this.time += steps * this.dt;
    return { steps, alpha: this.alpha, dropped };
  }
}
