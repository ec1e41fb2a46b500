/**
 * A fountain: jets of water under gravity and drag, bouncing on the ground.
 *
 * Each jet is one of the system's GPU emitters (src/core/emitters/): droplets
 * are born at its nozzle in a cone of the panel's spread around the jet's
 * axis, live the panel's lifetime and die; their slots are recycled by the
 * lifecycle's passes, so the host never writes a particle, and only sets the
 * emitters' rates (the flow) through `system.emitters`. What an emitter makes
 * (shape, velocity, lifetime, acceleration, radius) is fixed with the system,
 * so changing it rebuilds the demo.
 *
 * Gravity is Cyclone's per-particle constant acceleration, which the emitter
 * gives each droplet it spawns (its `acceleration`), because the ground's
 * resting-contact term reads that lane: a droplet that has stopped bouncing
 * rests (semi-implicit order: exactly; explicit: within a hop of about 0.2 mm
 * at 120 steps a second, as its position lags its velocity by a step), where
 * gravity from a generator would leave it hopping up at g dt for ever. Drag
 * is the GPU registry's drag generator (`-v (k1 + k2 |v|)`, over the live
 * list), and the ground is a plane collider with the panel's restitution and
 * friction, each droplet a sphere of the sprite's radius (the emitter's
 * `radius`), so it sits on the plane. The draw is indirect over the live list
 * (ParticlePass.bindLive), each droplet coloured over its own life from its
 * life record (its jet's colour, white foam at the nozzle, fading at the end),
 * and the live count is read back for the status line without stalling a frame.
 * After a lost device it continues from a snapshot: the system restored (its
 * emitters' rates and random streams included), and what was last sent to it.
 */
import type { ColliderInit } from '../../core/collisions/colliders';
import type { EmitterInit } from '../../core/emitters/types';
import type { ForceHandle } from '../../core/forces/registry';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import { defineDemo, type DemoContext, type DemoScene, type SceneFrame } from '../shared/demo';
import { LiveStatsPoller } from '../shared/liveStats';
import { applyLookParams, lifeColours, palette, speedColours } from '../shared/commonParams';
import type { ParamValues } from '../shared/params';
import { FOUNTAIN_PARAMS } from './params';
import { DemoGround } from '../shared/ground';
import { demoSystem, lifecycleOf, systemSceneParts } from '../shared/systemScene';

type Params = ParamValues<typeof FOUNTAIN_PARAMS>;

const BACKGROUND = [0.02, 0.025, 0.04] as const;
const NOZZLE_Y = 0.3;
const RING_RADIUS = 1.6;
/** Outer jets lean out by this much (radians). */
const JET_LEAN = 0.42;
/** Length of the cone a jet's droplets start in (m): the nozzle's flare. */
const NOZZLE_LENGTH = 0.08;
/** The share of the pool a flow of 1 keeps live (the rest absorbs a step's rounding, so nothing is short). */
const FILL = 0.95;
/** The centre jet's colour, and the ring's (life colours: white foam at the nozzle, then this). */
const CENTRE_COLOR = [0.45, 0.8, 1] as const;
const RING_COLOR = [0.08, 0.3, 0.95] as const;

/** The ground: the plane y = 0, droplets kept above it. */
function groundColliders(params: Params): ColliderInit[] {
  return [{ type: 'plane', normal: [0, 1, 0], offset: 0, restitution: params.restitution, friction: params.friction }];
}

/** Droplets per second of each of `jets` jets, for the panel's flow: `flow` 1 keeps FILL of the pool live. */
function jetRate(params: Params, capacity: number, jets: number): number {
  return (params.flow * FILL * capacity) / (params.lifetime * jets);
}

/**
 * One emitter per jet: jet 0 straight up in the middle (a little faster), the
 * others on a ring, leaning out; droplets in a cone of half-angle `spread`
 * around the jet's axis, with mass 1 (the drag's k1 is then its decay rate).
 */
export function fountainEmitters(params: Params, capacity: number): EmitterInit[] {
  const jets = Math.max(1, Math.round(params.jets));
  const spread = (params.spread * Math.PI) / 180;
  const rate = jetRate(params, capacity, jets);
  return Array.from({ length: jets }, (_, jet) => {
    const heading = jet === 0 ? 0 : ((jet - 1) / (jets - 1)) * Math.PI * 2;
    const lean = jet === 0 ? 0 : JET_LEAN;
    const ring = jet === 0 ? 0 : RING_RADIUS;
    const axis = [Math.sin(lean) * Math.cos(heading), Math.cos(lean), Math.sin(lean) * Math.sin(heading)];
    const speed = params.speed * (jet === 0 ? 1.12 : 0.92);
    return {
      rate,
      lifetime: params.lifetime,
      shape: {
        type: 'cone',
        center: [Math.cos(heading) * ring, NOZZLE_Y, Math.sin(heading) * ring],
        axis,
        angle: spread,
        height: NOZZLE_LENGTH,
      },
      velocity: { direction: axis, spread, speed: [speed * 0.97, speed * 1.03] },
      acceleration: [0, -params.gravity, 0],
      radius: params.size,
      color: jet === 0 ? CENTRE_COLOR : RING_COLOR,
      seed: (params.seed * 32 + jet) >>> 0,
    };
  });
}

/** What the GPU was last sent, kept with a snapshot so a panel change since is sent after a restore. */
interface Sent {
  flow: number;
  k1: number;
  k2: number;
  restitution: number;
  friction: number;
}

export async function createFountain(context: DemoContext<Params>): Promise<DemoScene> {
  const { passes, params, resume } = context;
  const capacity = params.count;
  const jets = Math.max(1, Math.round(params.jets));
  const system = await demoSystem(context, {
    capacity,
    emitters: fountainEmitters(params, capacity),
    collisions: { colliders: groundColliders(params) },
  });
  const { lifecycle, emitters } = lifecycleOf(system, 'fountain');
  const ground = new DemoGround(passes, 'Fountain.ground', {
    halfSize: 40,
    lineColor: [0.2, 0.24, 0.33],
    planeColor: [0.05, 0.06, 0.085],
    background: BACKGROUND,
  });
  // A restored system has its drag generator already (the registry is in the snapshot).
  const drag = resume
    ? (system.forces.handles[0] as ForceHandle)
    : system.forces.add({ type: 'drag', k1: params.k1, k2: params.k2 });
  // What the GPU has now, so a panel change is sent once, not every frame.
  let sent: Sent = resume
    ? (resume.host as { sent: Sent }).sent
    : {
        flow: params.flow,
        k1: params.k1,
        k2: params.k2,
        restitution: params.restitution,
        friction: params.friction,
      };
  /** A failure of an asynchronous update, thrown from the next frame so the page shows it. */
  let failure: unknown = null;
  const binding = passes.particles.bindLive('Fountain.particles', system.particleStore, lifecycle.buffers);

  /** Sends the panel's flow, drag, restitution and friction to the GPU when they changed. */
  const applyPanel = (): void => {
    const { flow, k1, k2, restitution, friction } = params;
    if (flow !== sent.flow) {
      const rate = jetRate(params, capacity, jets);
      for (let jet = 0; jet < jets; jet++) emitters.set(jet, { rate });
    }
    if (k1 !== sent.k1 || k2 !== sent.k2) drag.update({ k1, k2 });
    if (restitution !== sent.restitution || friction !== sent.friction) {
      system.setColliders(groundColliders(params)).catch((error: unknown) => {
        failure ??= error;
      });
    }
    sent = { flow, k1, k2, restitution, friction };
  };

  const live = new LiveStatsPoller(system);

  const look: ParticleLook = {
    ...DEFAULT_LOOK,
    ...speedColours([0.08, 0.25, 0.95], [0.45, 0.8, 1], 18),
    // Full size to the end: the sprite is the droplet's collision sphere, sitting on the ground.
    ...lifeColours(0.06, 0.85, 1),
    ...palette(0.5, 0.15, 0.85),
    stretch: 0.02,
  };

  return {
    ...systemSceneParts(system, { host: () => ({ sent: { ...sent } }), owned: [binding, ground], live }),
    /** The live count, as last read back (nothing is live before the first step). */
    get particleCount() {
      return live.live;
    },
    beforeSteps() {
      if (failure) throw failure;
      applyPanel();
      live.poll();
    },
    render(pass, frame: SceneFrame) {
      ground.draw(pass, frame.view);
      applyLookParams(look, params);
      passes.particles.draw(pass, binding, look, frame.view, frame.time);
    },
    status() {
      const n = (x: number) => x.toLocaleString('en-US');
      const ground =
        `${jets} jets · ground: restitution ${params.restitution}, friction ${params.friction} · ` +
        `drag k1 ${params.k1}, k2 ${params.k2}`;
      if (!live.stats) return `${n(capacity)} slots · ${ground}`;
      const short = live.stats.shortfall > 0 ? ` (${n(live.stats.shortfall)} did not fit)` : '';
      return `${n(live.stats.live)} droplets live of ${n(capacity)} slots${short} · ${ground}`;
    },
    check() {
      return live.counts();
    },
  };
}

export const fountain = defineDemo('fountain', 'Fountain', FOUNTAIN_PARAMS, {
  camera: { target: [0, 2.2, 0], distance: 23, yaw: 0.5, pitch: 0.3 },
  background: BACKGROUND,
  create: createFountain,
});
