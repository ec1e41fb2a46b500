/**
 * The Sparkworks side of the demo: a particle system on three's device, its
 * sparks drawn by Sparkworks' own ParticlePass straight from the system's
 * storage buffers (no copy) into the frame three drew.
 *
 * Five jets (one on top of the ball, four nozzles around it leaning in) are
 * GPU emitters; sparks are born, live and are recycled on the GPU, fall under
 * gravity (each spark's constant acceleration, so a resting spark rests) and
 * the drag generator, and bounce off three colliders that match three.js
 * meshes: the floor (a plane), the ball (a sphere) and the nozzles (boxes).
 * The draw is indirect over the live list, so the host never learns how many
 * sparks there are except through the stats it reads back for the HUD.
 *
 * `snapshot()` and `Sparks.restore` carry the sparks to a new device after a
 * loss (the system's own snapshot, and what the panel had last sent it).
 */
import { ParticleSystem, type ColliderInit, type EmitterInit, type ForceHandle, type LifecycleStats } from 'sparkworks';
import {
  DEFAULT_LOOK,
  ParticlePass,
  type DrawTime,
  type DrawView,
  type ParticleBinding,
  type ParticleLook,
} from 'sparkworks/render';
import { applyLookParams, lifeColours, speedColours } from '../shared/commonParams';
import { LiveStatsPoller } from '../shared/liveStats';
import type { ThreeParams } from './params';
import { BALL, NOZZLE, nozzleXZ } from './stage';

/** The share of the pool a flow of 1 keeps live (the rest absorbs a step's rounding). */
const FILL = 0.95;
/** How far the ring's jets lean in towards the ball (radians). */
const LEAN = 0.5;
const TOP_COLOR = [1, 0.82, 0.4] as const;
const RING_COLOR = [1, 0.42, 0.08] as const;

/** The floor, the ball and the nozzles, as Sparkworks colliders with the panel's bounce and friction. */
export function colliders(params: ThreeParams): ColliderInit[] {
  const surface = { restitution: params.restitution, friction: params.friction };
  const nozzles: ColliderInit[] = Array.from({ length: NOZZLE.count }, (_, i) => {
    const [x, z] = nozzleXZ(i);
    return {
      type: 'box',
      center: [x, NOZZLE.height / 2, z],
      halfExtents: [NOZZLE.radius, NOZZLE.height / 2, NOZZLE.radius],
      ...surface,
    };
  });
  return [
    { type: 'plane', normal: [0, 1, 0], offset: 0, ...surface },
    { type: 'sphere', center: BALL.center, radius: BALL.radius, ...surface },
    ...nozzles,
  ];
}

function jetRate(params: ThreeParams, capacity: number, jets: number): number {
  return (params.flow * FILL * capacity) / (params.lifetime * jets);
}

/** Jet 0 straight up from the top of the ball; jets 1..4 from the nozzles, leaning in over it. */
export function emitters(params: ThreeParams, capacity: number): EmitterInit[] {
  const jets = NOZZLE.count + 1;
  const spread = (params.spread * Math.PI) / 180;
  const rate = jetRate(params, capacity, jets);
  const common = {
    rate,
    lifetime: params.lifetime,
    acceleration: [0, -params.gravity, 0],
    radius: params.size,
  };
  const top: EmitterInit = {
    ...common,
    shape: { type: 'point', center: [BALL.center[0], BALL.center[1] + BALL.radius + 2 * params.size, BALL.center[2]] },
    velocity: { direction: [0, 1, 0], spread: spread * 1.5, speed: [params.speed * 0.55, params.speed * 0.65] },
    color: TOP_COLOR,
    seed: params.seed >>> 0,
  };
  const ring = Array.from({ length: NOZZLE.count }, (_, i): EmitterInit => {
    const [x, z] = nozzleXZ(i);
    const inward = Math.hypot(x, z);
    const axis = [(-x / inward) * Math.sin(LEAN), Math.cos(LEAN), (-z / inward) * Math.sin(LEAN)];
    return {
      ...common,
      shape: { type: 'cone', center: [x, NOZZLE.height + 2 * params.size, z], axis, angle: spread, height: 0.05 },
      velocity: { direction: axis, spread, speed: [params.speed * 0.97, params.speed * 1.03] },
      color: RING_COLOR,
      seed: (params.seed * 8 + i + 1) >>> 0,
    };
  });
  return [top, ...ring];
}

/** The live parameters as the system last received them. */
export interface SentParams {
  flow: number;
  k1: number;
  restitution: number;
  friction: number;
}

/** The sparks at one step: the system's snapshot and what it had been sent (JSON-able beside the bytes). */
export interface SparksSnapshot {
  system: Uint8Array;
  sent: SentParams;
}

export class Sparks {
  private readonly look: ParticleLook = {
    ...DEFAULT_LOOK,
    ...speedColours([0.9, 0.3, 0.05], [1, 0.85, 0.45], 9),
    saturation: 0.9,
    ...lifeColours(0.08, 0.7, 0.6),
    stretch: 0.025,
  };
  private sent: SentParams;
  /** A failure of an asynchronous update, thrown from the next frame so the page shows it. */
  private failure: unknown = null;
  /** The live count, read back at most every 200 ms, one read in flight, never waited on. */
  private readonly live: LiveStatsPoller;

  private constructor(
    private readonly system: ParticleSystem,
    private readonly pass: ParticlePass,
    private readonly binding: ParticleBinding,
    private readonly drag: ForceHandle,
    private readonly params: ThreeParams,
    /** What a restored system was last sent (null: a new one, made from `params`). */
    sent: SentParams | null,
  ) {
    const { flow, k1, restitution, friction } = params;
    this.sent = sent ?? { flow, k1, restitution, friction };
    this.live = new LiveStatsPoller(system);
  }

  /** The last lifecycle counters read back (null before the first lands). */
  get stats(): LifecycleStats | null {
    return this.live.stats;
  }

  /**
   * A system of `params.count` slots on `device` (three's), and a particle
   * pass for the frame's colour and depth formats (the three.js render
   * target's).
   */
  static async create(
    device: GPUDevice,
    formats: { color: GPUTextureFormat; depth: GPUTextureFormat },
    params: ThreeParams,
  ): Promise<Sparks> {
    const capacity = params.count;
    const system = await ParticleSystem.create(device, {
      capacity,
      emitters: emitters(params, capacity),
      collisions: { colliders: colliders(params) },
    });
    return Sparks.drawing(device, formats, params, system, null);
  }

  /**
   * The sparks of `snapshot` on a new `device` (after a loss), continuing
   * where it was taken: its emitters, colliders and drag are the system's as
   * they were then; the panel's later changes are sent on the next frame.
   */
  static async restore(
    device: GPUDevice,
    formats: { color: GPUTextureFormat; depth: GPUTextureFormat },
    params: ThreeParams,
    snapshot: SparksSnapshot,
  ): Promise<Sparks> {
    const system = await ParticleSystem.restore(device, snapshot.system);
    return Sparks.drawing(device, formats, params, system, snapshot.sent);
  }

  /** The pass and binding over `system` (made, or restored with its drag and what it was `sent`). */
  private static drawing(
    device: GPUDevice,
    formats: { color: GPUTextureFormat; depth: GPUTextureFormat },
    params: ThreeParams,
    system: ParticleSystem,
    sent: SentParams | null,
  ): Sparks {
    let pass: ParticlePass | null = null;
    try {
      const live = system.liveBuffers;
      if (!live) throw new Error('the sparks system has no emitters');
      // A restored system has its drag registered, as the only force.
      const drag = sent ? system.forces.handles[0] : system.forces.add({ type: 'drag', k1: params.k1, k2: 0 });
      if (!drag) throw new Error('the restored sparks system has no drag force');
      pass = new ParticlePass(device, formats.color, formats.depth);
      const binding = pass.bindLive('three demo: sparks', system.particleStore, live);
      return new Sparks(system, pass, binding, drag, params, sent);
    } catch (error) {
      pass?.destroy();
      system.destroy();
      throw error;
    }
  }

  get capacity(): number {
    return this.system.capacity;
  }

  /** Host work before a frame's steps: the panel's live parameters, and a read of the counters now and then. */
  beforeSteps(): void {
    if (this.failure) throw this.failure;
    const { flow, k1, restitution, friction } = this.params;
    const emitters = this.system.emitters;
    if (flow !== this.sent.flow && emitters) {
      const rate = jetRate(this.params, this.capacity, emitters.count);
      for (let jet = 0; jet < emitters.count; jet++) emitters.set(jet, { rate });
    }
    if (k1 !== this.sent.k1) this.drag.update({ k1 });
    if (restitution !== this.sent.restitution || friction !== this.sent.friction) {
      this.system.setColliders(colliders(this.params)).catch((error: unknown) => {
        this.failure ??= error;
      });
    }
    this.sent = { flow, k1, restitution, friction };
    this.live.poll();
  }

  encodeSteps(encoder: GPUCommandEncoder, dt: number, steps: number): void {
    this.system.encodeSteps(encoder, dt, steps);
  }

  /** Records the sparks into `pass` (over three's frame) through three's camera. */
  draw(pass: GPURenderPassEncoder, view: DrawView, time: DrawTime): void {
    applyLookParams(this.look, this.params);
    this.pass.draw(pass, this.binding, this.look, view, time);
  }

  /**
   * The sparks now, to continue on a new device (Sparks.restore): what was
   * sent is taken and the system's copy submitted now; it resolves when the
   * GPU reaches the copy (never awaited in a frame).
   */
  snapshot(): Promise<SparksSnapshot> {
    const sent = { ...this.sent };
    return this.system.snapshot().then((system) => ({ system, sent }));
  }

  /** After the frame's command buffer is submitted: the system reuses its uniform slots. */
  submitted(): void {
    this.system.submitted();
  }

  /** Stops the reads and frees the binding, the pass and the system (not the device: three's). Safe twice, as each is. */
  dispose(): void {
    this.live.stop();
    this.binding.destroy();
    this.pass.destroy();
    this.system.destroy();
  }
}
