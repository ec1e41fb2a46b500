/**
 * The emitters as the host drives them, shared by both backends: rates,
 * bursts, and each emitter's position and velocity (a moving emitter). Each
 * step packs them into the frame record (src/core/emitters/gpuRecords.ts):
 * the GPU reads it from a uniform, the CPU reference from the same words, so
 * both see the same integers.
 *
 * The rate is carried as a 32.32 fixed-point increment per step: whole
 * particles plus a fraction in units of 2^-32, added to a per-emitter carry
 * with integer arithmetic (on the GPU and on the CPU alike). A rate of r for
 * n steps of dt emits floor(n * inc) particles with inc within 2^-32 of
 * r * dt, so r * T within one particle for any run shorter than 2^32 steps,
 * and no float rounding can make the two backends disagree on a count.
 *
 * Bursts are cumulative totals (the GPU keeps how many it served), so a frame
 * recorded twice, or reused from the uniform ring, never repeats one.
 */
import { EMITTER_FRAME, FRAME_PARAMS } from './gpuRecords';
import { checkBurst, checkEmitterVector, checkRate, type EmitterRuntime } from './params';
import type { PreparedSpawnRules } from './spawnRules';
import type { StructArray } from '../schema';
import { validator, type Validator } from '../validation';

const check: Validator = validator();

/** What `emitters.set` changes on a running emitter; fields left out keep their value. */
export interface EmitterUpdate {
  /** Particles per second, >= 0. */
  rate?: number;
  /** The shape's centre: moves the emitter. */
  position?: ArrayLike<number>;
  /** The emitter's velocity, which its particles inherit (times its `inherit`). */
  velocity?: ArrayLike<number>;
}

const TWO_TO_32 = 2 ** 32;

/** `rate * dt` as (whole, fraction * 2^32), both u32. */
export function fixedPointIncrement(rate: number, dt: number): [number, number] {
  const x = rate * dt;
  const whole = Math.min(Math.floor(x), TWO_TO_32 - 1);
  const fraction = Math.min(Math.floor((x - whole) * TWO_TO_32), TWO_TO_32 - 1);
  return [whole >>> 0, fraction >>> 0];
}

/**
 * A system's emitters as the host drives them (`system.emitters`): bursts,
 * and each emitter's rate, position and velocity, applied from the next step.
 */
export class EmitterSet {
  /** Number of emitters, fixed at creation. */
  readonly count: number;
  private readonly state: EmitterRuntime[];
  /** Bumped by every change, so a backend knows when to repack. */
  version = 0;

  /**
   * Made by a system from its validated options (`system.emitters`).
   * @internal
   */
  constructor(
    /**
     * The validated emitters and firework rules the backends pack.
     * @internal
     */
    readonly rules: PreparedSpawnRules,
  ) {
    this.count = rules.emitterCount;
    this.state = rules.emitters.map((e) => ({ ...e, center: [...e.center], velocity: [...e.velocity] }));
  }

  private checkIndex(emitter: number): EmitterRuntime {
    const rule = `must be an integer in [0, ${this.count - 1}] (this system has ${this.count} emitters)`;
    check.integer('emitter', emitter, 0, this.count - 1, rule);
    return this.state[emitter] as EmitterRuntime;
  }

  /** Emits `count` more particles from `emitter` at the next step (the shortfall is counted if they do not fit). */
  burst(emitter: number, count: number): void {
    const state = this.checkIndex(emitter);
    checkBurst('count', count);
    // Cumulative, wrapping like the GPU's u32: the difference served is exact below 2^32.
    state.burst = (state.burst + count) % TWO_TO_32;
    this.version++;
  }

  /** Changes an emitter's rate, position or velocity from the next step. Validates everything before changing anything. */
  set(emitter: number, update: EmitterUpdate): void {
    const state = this.checkIndex(emitter);
    const rate = update.rate === undefined ? state.rate : checkRate('rate', update.rate);
    const center = update.position === undefined ? state.center : checkEmitterVector('position', update.position);
    const velocity = update.velocity === undefined ? state.velocity : checkEmitterVector('velocity', update.velocity);
    Object.assign(state, { rate, center: [...center], velocity: [...velocity] });
    this.version++;
  }

  /**
   * An emitter's current settings (a copy).
   * @internal
   */
  get(emitter: number): EmitterRuntime {
    const state = this.checkIndex(emitter);
    return { ...state, center: [...state.center], velocity: [...state.velocity] };
  }

  /**
   * Every emitter's settings, copied, for a snapshot.
   * @internal
   */
  runtime(): EmitterRuntime[] {
    return this.state.map((e) => ({ ...e, center: [...e.center], velocity: [...e.velocity] }));
  }

  /**
   * Sets every emitter's settings from a snapshot (`runtime()`'s shape), cumulative burst totals included.
   * @internal
   */
  restore(states: readonly EmitterRuntime[]): void {
    if (states.length !== this.count) {
      check.refuse('emitterRuntime.length', states.length, `must be ${this.count}, one per emitter`);
    }
    const next = states.map((e, i) => {
      const at = `emitterRuntime[${i}]`;
      const rate = checkRate(`${at}.rate`, e.rate);
      const burst = check.integer(`${at}.burst`, e.burst, 0, TWO_TO_32 - 1);
      return {
        rate,
        burst,
        center: [...checkEmitterVector(`${at}.center`, e.center)],
        velocity: [...checkEmitterVector(`${at}.velocity`, e.velocity)],
      };
    });
    next.forEach((e, i) => (this.state[i] = e));
    this.version++;
  }

  /**
   * The frame record of one step of `dt` (dt as the float32 the step uses).
   * @internal
   */
  frame(dt: number): StructArray<typeof FRAME_PARAMS.fields> {
    const frame = FRAME_PARAMS.array(1);
    frame.set(0, 'dt', dt).set(0, 'emitterCount', this.count);
    const emitters = frame.member(0, 'emitters', EMITTER_FRAME);
    this.state.forEach((e, i) => {
      const [whole, fraction] = fixedPointIncrement(e.rate, dt);
      emitters
        .set(i, 'center', e.center)
        .set(i, 'incrementWhole', whole)
        .set(i, 'velocity', e.velocity)
        .set(i, 'incrementFraction', fraction)
        .set(i, 'burstTotal', e.burst);
    });
    return frame;
  }
}
