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

export class Sparks {
  /** The last lifecycle counters read back (null before the first lands). */
  stats: LifecycleStats | null = null;
  private readonly look: ParticleLook = {
    ...DEFAULT_LOOK,
    colorA: [0.9, 0.3, 0.05],
    colorB: [1, 0.85, 0.45],
    speedRange: 9,
    saturation: 0.9,
    hotTime: 0.08,
    fadeStart: 0.7,
    endSize: 0.6,
    stretch: 0.025,
  };
  private sent: { flow: number; k1: number; restitution: number; friction: number };
  /** A failure of an asynchronous update, thrown from the next frame so the page shows it. */
  private failure: unknown = null;
  private reading = false;
  private lastRead = -Infinity;
  private disposed = false;

  private constructor(
    private readonly system: ParticleSystem,
    private readonly pass: ParticlePass,
    private readonly binding: ParticleBinding,
    private readonly drag: ForceHandle,
    private readonly params: ThreeParams,
  ) {
    const { flow, k1, restitution, friction } = params;
    this.sent = { flow, k1, restitution, friction };
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
    let pass: ParticlePass | null = null;
    try {
      const live = system.liveBuffers;
      if (!live) throw new Error('the sparks system has no emitters');
      const drag = system.forces.add({ type: 'drag', k1: params.k1, k2: 0 });
      pass = new ParticlePass(device, formats.color, formats.depth);
      const binding = pass.bindLive('three demo: sparks', system.particleStore, live);
      return new Sparks(system, pass, binding, drag, params);
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
    this.pollStats();
  }

  /** Reads the live count back at most every 200 ms, one read in flight, never waited on. */
  private pollStats(): void {
    const now = performance.now();
    if (this.reading || now - this.lastRead < 200) return;
    this.reading = true;
    this.lastRead = now;
    this.system
      .readStats()
      .then((stats) => {
        if (!this.disposed) this.stats = stats;
      })
      // Refused only once the system is destroyed; a GPU error reaches the device's uncaptured-error listener.
      .catch(() => undefined)
      .finally(() => {
        this.reading = false;
      });
  }

  encodeSteps(encoder: GPUCommandEncoder, dt: number, steps: number): void {
    this.system.encodeSteps(encoder, dt, steps);
  }

  /** Records the sparks into `pass` (over three's frame) through three's camera. */
  draw(pass: GPURenderPassEncoder, view: DrawView, time: DrawTime): void {
    const { look, params } = this;
    look.mode = params.mode;
    look.blend = params.blend;
    look.colorMode = params.colorMode;
    look.size = params.size;
    look.intensity = params.intensity;
    this.pass.draw(pass, this.binding, look, view, time);
  }

  /** After the frame's command buffer is submitted: the system reuses its uniform slots. */
  submitted(): void {
    this.system.submitted();
  }

  /** Frees the binding, the pass and the system (not the device: three's). Safe twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.binding.destroy();
    this.pass.destroy();
    this.system.destroy();
  }
}
