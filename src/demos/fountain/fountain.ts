/**
 * A fountain: jets of water under gravity and drag, bouncing on the ground.
 *
 * Gravity is Cyclone's per-particle constant acceleration, because the
 * ground's resting-contact term reads that lane: a droplet that has stopped
 * bouncing rests (semi-implicit order: exactly; explicit: within a hop of
 * about 0.2 mm at 120 steps a second, as its position lags its velocity by a
 * step), where gravity from a generator would leave it hopping up at e g dt for
 * ever. Drag is the GPU registry's drag generator (`-v (k1 + k2 |v|)`), and
 * the ground is a plane collider with the panel's restitution and friction,
 * each droplet a sphere of the sprite's radius, so it sits on the plane. The
 * emission is the host's: particles come in batches (groups); the host
 * relaunches the oldest batch on a steady schedule by rewriting its block, no
 * readback. Each particle of a batch is launched at its own moment inside the
 * batch's slot (its state advanced analytically by the lateness), so the
 * stream is smooth at any frame rate.
 */
import type { ColliderInit } from '../../core/collisions/colliders';
import { FLOATS_PER_PARTICLE, attributeOffset } from '../../core/layout';
import { ParticleSystem } from '../../gpu/particleSystem';
import { GroupTimeline } from '../../render/groupTimeline';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import type { DemoContext, DemoDefinition, DemoScene } from '../shared/app';
import { ParticleRecords, seededRandom } from '../shared/packing';
import type { ParamValues } from '../shared/params';
import { FOUNTAIN_PARAMS } from './params';

type Params = ParamValues<typeof FOUNTAIN_PARAMS>;

const BACKGROUND = [0.02, 0.025, 0.04] as const;
const NOZZLE_Y = 0.3;
const RING_RADIUS = 1.6;
/** Outer jets lean out by this much (radians). */
const JET_LEAN = 0.42;
const RADIUS = attributeOffset('radius');

/** The ground: the plane y = 0, droplets kept above it. */
function groundColliders(params: Params): ColliderInit[] {
  return [{ type: 'plane', normal: [0, 1, 0], offset: 0, restitution: params.restitution, friction: params.friction }];
}

export async function createFountain(context: DemoContext<Params>): Promise<DemoScene> {
  const { device, passes, params } = context;
  const batches = Math.min(params.batches, params.count);
  const batchSize = Math.floor(params.count / batches);
  const count = batchSize * batches;
  const variant = { integrator: params.integrator, damping: params.damping } as const;
  const system = await ParticleSystem.create(device, {
    capacity: count,
    ...variant,
    collisions: { colliders: groundColliders(params) },
  });
  const drag = system.forces.add({ type: 'drag', k1: params.k1, k2: params.k2 });
  // What the GPU has now, so a panel change is sent once, not every frame.
  let sent = { k1: params.k1, k2: params.k2, restitution: params.restitution, friction: params.friction };
  /** A failure of an asynchronous update, thrown from the next frame so the page shows it. */
  let failure: unknown = null;
  const groups = new GroupTimeline(device, batches, batchSize, 'Fountain.groups');
  const binding = passes.particles.bind('Fountain.particles', system.particles.buffer, groups);
  const ground = passes.grid.bind('Fountain.ground');
  const records = new ParticleRecords(batchSize);
  const random = seededRandom(params.seed);
  const lifetime = params.lifetime;
  /** One batch leaves every `slot` seconds, so `batches` are in flight over a lifetime. */
  const slot = lifetime / batches;
  let nextLaunch = 0;
  let nextBatch = 0;

  // Park everything under the ground, immovable (no collider moves it), until its batch is first launched.
  for (let i = 0; i < batchSize; i++) records.set(i, 0, -100, 0, 0, 0, 0, 0, 0, 0, 0, 1);
  for (let b = 0; b < batches; b++) records.writeTo(system, b * batchSize);

  function launch(batch: number, launchTime: number, now: number): void {
    const jets = Math.max(1, Math.round(params.jets));
    const g = params.gravity;
    const spread = (params.spread * Math.PI) / 180;
    // Mass 1: the drag's linear term alone decays the velocity as exp(-k1 t), which advances the lateness below.
    const logKeep = -params.k1;
    const radius = params.size;
    for (let i = 0; i < batchSize; i++) {
      const jet = i % jets;
      let px = 0;
      let pz = 0;
      let lean = 0;
      let heading = 0;
      if (jet > 0) {
        heading = ((jet - 1) / (jets - 1)) * Math.PI * 2;
        px = Math.cos(heading) * RING_RADIUS;
        pz = Math.sin(heading) * RING_RADIUS;
        lean = JET_LEAN;
      }
      // A cone of half-angle `spread` around the jet's axis.
      const theta = spread * Math.sqrt(random());
      const phi = random() * Math.PI * 2;
      const speed = params.speed * (jet === 0 ? 1.12 : 0.92) * (0.97 + 0.06 * random());
      // Axis: up, leaning out toward `heading`.
      let dx = Math.sin(theta) * Math.cos(phi);
      let dy = Math.cos(theta);
      let dz = Math.sin(theta) * Math.sin(phi);
      // Rotate (dx, dy) by the lean in the plane of the heading.
      const out = dx * Math.cos(lean) + dy * Math.sin(lean);
      dy = -dx * Math.sin(lean) + dy * Math.cos(lean);
      dx = out;
      const vx = (dx * Math.cos(heading) - dz * Math.sin(heading)) * speed;
      const vz = (dx * Math.sin(heading) + dz * Math.cos(heading)) * speed;
      let vy = dy * speed;
      // This particle's own moment in the slot; it is `late` seconds old already.
      const late = Math.max(0, now - (launchTime + random() * slot));
      // Closed form of dv/dt = a + v ln k over `late` (close enough to the integrator for a head start).
      const decay = Math.exp(logKeep * late);
      const reach = logKeep < -1e-6 ? (decay - 1) / logKeep : late;
      const x = px + vx * reach;
      const z = pz + vz * reach;
      const y = NOZZLE_Y + vy * reach - 0.5 * g * late * late;
      vy = vy * decay - g * late;
      records.set(i, x, y, z, vx * decay, vy, vz * decay, 0, -g, 0, 1, 1);
      records.data[i * FLOATS_PER_PARTICLE + RADIUS] = radius;
    }
    records.writeTo(system, batch * batchSize);
    groups.set(batch, 'burst', launchTime, lifetime, 0.56);
  }

  const look: ParticleLook = {
    ...DEFAULT_LOOK,
    colorA: [0.08, 0.25, 0.95],
    colorB: [0.45, 0.8, 1],
    speedRange: 18,
    saturation: 0.55,
    hotTime: 0,
    fadeStart: 0.85,
    endSize: 0.8,
    hueOffset: 0.5,
    hueSpan: 0.15,
    stretch: 0.02,
  };

  /** Sends the panel's drag, restitution and friction to the GPU when they changed. */
  function applyPanel(): void {
    const { k1, k2, restitution, friction } = params;
    if (k1 !== sent.k1 || k2 !== sent.k2) drag.update({ k1, k2 });
    if (restitution !== sent.restitution || friction !== sent.friction) {
      system.setColliders(groundColliders(params)).catch((error: unknown) => {
        failure ??= error;
      });
    }
    sent = { k1, k2, restitution, friction };
  }

  return {
    particleCount: count,
    beforeSteps(time) {
      if (failure) throw failure;
      applyPanel();
      // Never replay more than one lifetime of launches (after a long pause in a background tab).
      if (nextLaunch < time - lifetime) nextLaunch = time - lifetime;
      while (nextLaunch <= time) {
        launch(nextBatch, nextLaunch, time);
        nextBatch = (nextBatch + 1) % batches;
        nextLaunch += slot;
      }
      groups.upload();
    },
    encodeSteps(encoder, dt, steps) {
      system.encodeSteps(encoder, dt, steps);
    },
    render(pass, frame) {
      passes.grid.draw(
        pass,
        ground,
        {
          centre: [0, 0, 0],
          halfSize: 40,
          spacing: 1,
          majorEvery: 5,
          lineColor: [0.2, 0.24, 0.33],
          planeColor: [0.05, 0.06, 0.085],
          fadeColor: BACKGROUND,
        },
        frame.view,
      );
      look.mode = params.mode;
      look.blend = params.blend;
      look.colorMode = params.colorMode;
      look.size = params.size;
      look.intensity = params.intensity;
      passes.particles.draw(pass, binding, look, frame.view, frame.time, { count, groupSize: batchSize });
    },
    status() {
      return (
        `${batches} batches of ${batchSize.toLocaleString('en-US')} · ground: restitution ${params.restitution}, ` +
        `friction ${params.friction} · drag k1 ${params.k1}, k2 ${params.k2}`
      );
    },
    dispose() {
      binding.destroy();
      ground.destroy();
      groups.destroy();
      system.destroy();
    },
  };
}

export const fountain: DemoDefinition<typeof FOUNTAIN_PARAMS> = {
  id: 'fountain',
  title: 'Fountain',
  note:
    "Gravity is each droplet's acceleration, drag the GPU's drag generator, and the ground a plane collider: droplets " +
    'bounce (restitution) and slide (friction) on it. Batches are relaunched from the host.',
  params: FOUNTAIN_PARAMS,
  camera: { target: [0, 2.2, 0], distance: 23, yaw: 0.5, pitch: 0.3 },
  background: BACKGROUND,
  create: createFountain,
};
