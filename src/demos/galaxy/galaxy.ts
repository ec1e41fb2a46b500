/**
 * A galaxy: a million particles (by default) orbiting a few attractors, drawn
 * as points.
 *
 * The pull is real and computed on the GPU: each attractor is an `attractor`
 * generator of the system's force registry (`strength * d / (|d|² +
 * softening²)^(3/2)`, d from the particle to the attractor), run fused into
 * the step (field forces only: one dispatch a step). Every particle has mass 1
 * and no per-particle acceleration; the host writes the particles once, at the
 * start, and afterwards only rewrites the generators' records (`update()`: one
 * uniform write, never a pipeline).
 *
 * A main disc sits at the origin; the other attractors are satellites with
 * small discs of their own, tilted. Particles start on circular orbits about
 * their own attractor: speed `r sqrt(S / (r² + s²)^(3/2))` (S its strength, s
 * the softening, r the particle's full distance to it, so a particle above the
 * disc's plane is on a circle in a tilted plane through the centre), times
 * `spin` (1: circular; less and the orbits plunge, the disc contracts).
 *
 * `attractors pull`:
 * - `all` (default): every attractor pulls every particle. The satellites move
 *   on circular orbits about the core, set from the host every frame (the
 *   core's pull on them, `handle.update({ position })` at the frame's mid-step
 *   time), and their discs are launched with their velocity: the core pulls a
 *   satellite's particles as it pulls the satellite, so a disc travels with
 *   its attractor, and only the difference (the tide) strips its rim into
 *   tails, while the passing satellites raise waves in the main disc.
 * - `own`: each attractor pulls only its own disc (a range target); the
 *   attractors stay where they are and every disc keeps its circular orbits.
 *
 * Strength and softening apply live (the satellites get a fixed share of the
 * core's strength); the particles keep the velocities they were launched
 * with, so the discs contract or swell: restart to launch them on circular
 * orbits again.
 *
 * The default order is semi-implicit Euler (velocity first, then position
 * with the new velocity): it is symplectic, so an orbit's energy error stays
 * bounded and the orbits close. Explicit Euler (Cyclone's order) multiplies an
 * orbit's radius by about sqrt(1 + ω² dt²) every step: at the core, ω =
 * sqrt(S / s³) ≈ 11 rad/s by default, it spirals out within seconds. 120 steps
 * a second keep ω dt below 0.1 at the core.
 */
import { vec3 } from 'gl-matrix';
import type { ForceHandle } from '../../core/forces/registry';
import { seededRandom } from '../../core/random';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import { defineDemo, type DemoContext, type DemoScene } from '../shared/demo';
import { ParticleRecords } from '../shared/packing';
import { applyLookParams, palette, speedColours } from '../shared/commonParams';
import type { ParamValues } from '../shared/params';
import { GALAXY_PARAMS } from './params';
import { DemoGround } from '../shared/ground';
import { demoSystem, systemSceneParts } from '../shared/systemScene';

type Params = ParamValues<typeof GALAXY_PARAMS>;

const BACKGROUND = [0.004, 0.004, 0.012] as const;
/** The count at which `intensity` is a point's own brightness. */
const DENSITY_REFERENCE = 1 << 17;
/** Records packed per queue write. */
const CHUNK = 32768;
/** A satellite's strength, as a share of the core's. */
const SATELLITE_STRENGTH = 0.12;
/** The satellites' distance from the core, m, and the tilt of their common orbital plane. */
const SATELLITE_DISTANCE = 26;
const SATELLITE_TILT = 0.3;
/** The satellites' orbital plane: their centre is D (cos φ P + sin φ Q). */
const ORBIT_P = vec3.fromValues(1, 0, 0);
const ORBIT_Q = vec3.fromValues(0, Math.sin(SATELLITE_TILT), Math.cos(SATELLITE_TILT));

interface Disc {
  /** Its attractor's position and velocity at t = 0. */
  centre: vec3;
  velocity: vec3;
  /** Orthonormal: u and v span the disc, n is its axis. */
  u: vec3;
  v: vec3;
  n: vec3;
  radius: number;
  /** Share of the core's strength. */
  strength: number;
  /** Phase on the satellites' orbit (satellites only). */
  phase: number;
  /** Its particles: [start, start + count). */
  start: number;
  count: number;
}

/** Angular speed of a circular orbit at distance r about an attractor of strength S and softening s. */
function orbitalOmega(r: number, strength: number, softening: number): number {
  return Math.sqrt(strength / (r * r + softening * softening) ** 1.5);
}

/** Writes a satellite's position (and velocity) on its orbit at phase `phase` into `out`. */
function orbitPoint(out: vec3, phase: number, scale: number): vec3 {
  vec3.scale(out, ORBIT_P, Math.cos(phase) * scale);
  return vec3.scaleAndAdd(out, out, ORBIT_Q, Math.sin(phase) * scale);
}

function makeDiscs(params: Params, count: number): Disc[] {
  const n = params.attractors;
  const moving = params.coupling === 'all';
  const satelliteOmega = orbitalOmega(SATELLITE_DISTANCE, params.strength, params.softening);
  const discs: Disc[] = [];
  let start = 0;
  let share = 0;
  for (let k = 0; k < n; k++) {
    const main = k === 0;
    share += n === 1 ? 1 : main ? 0.64 : 0.36 / (n - 1);
    const end = k === n - 1 ? count : Math.round(share * count);
    const phase = main ? 0 : ((k - 1) / Math.max(1, n - 1)) * Math.PI * 2 + 0.6;
    const centre = main ? vec3.create() : orbitPoint(vec3.create(), phase, SATELLITE_DISTANCE);
    // d/dφ of the orbit point, times D ω.
    const velocity =
      main || !moving
        ? vec3.create()
        : orbitPoint(vec3.create(), phase + Math.PI / 2, SATELLITE_DISTANCE * satelliteOmega);
    // Satellites' discs are tilted.
    const axis = main
      ? vec3.fromValues(0, 1, 0)
      : vec3.normalize(vec3.create(), [Math.sin(k * 1.7), 1.2, Math.cos(k * 2.3)]);
    const u = vec3.normalize(vec3.create(), vec3.cross(vec3.create(), axis, [0.3, 0.1, 1]));
    const v = vec3.cross(vec3.create(), u, axis);
    discs.push({
      centre,
      velocity,
      u,
      v,
      n: axis,
      radius: main ? 15 : 5,
      strength: main ? 1 : SATELLITE_STRENGTH,
      phase,
      start,
      count: end - start,
    });
    start = end;
  }
  return discs;
}

/** The host state a snapshot keeps: the satellites' phases and time, and what the GPU was last sent. */
interface GalaxyHost {
  phases: number[];
  phaseTime: number;
  sent: { strength: number; softening: number };
}

export async function createGalaxy(context: DemoContext<Params>): Promise<DemoScene> {
  const { passes, params, resume } = context;
  const count = params.count;
  const system = await demoSystem(context, { capacity: count });
  const binding = passes.particles.bind('Galaxy.particles', system.particleStore);
  const grid = new DemoGround(passes, 'Galaxy.grid', {
    centre: [0, -8, 0],
    halfSize: 70,
    spacing: 2,
    lineColor: [0.1, 0.12, 0.2],
    planeColor: [0.012, 0.014, 0.03],
    background: BACKGROUND,
  });
  const coupling = params.coupling;
  const discs = makeDiscs(params, count);
  const host = resume ? (resume.host as GalaxyHost) : null;
  if (host) discs.forEach((disc, k) => (disc.phase = host.phases[k] ?? disc.phase));
  const random = seededRandom(params.seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

  // Every particle on a circular orbit about its own attractor (times `spin`), mass 1, no acceleration.
  const records = new ParticleRecords(Math.min(CHUNK, count));
  const softening2 = params.softening * params.softening;
  // Restored, the records are the snapshot's.
  for (const disc of resume ? [] : discs) {
    const { centre, velocity, u, v, n: axis } = disc;
    const R = disc.radius;
    const strength = params.strength * disc.strength;
    for (let done = 0; done < disc.count;) {
      const m = Math.min(records.capacity, disc.count - done);
      for (let j = 0; j < m; j++) {
        const kind = random();
        let r: number;
        let theta: number;
        let h: number;
        if (kind < 0.16) {
          // The bulge: a thick, dense core.
          r = Math.abs(gauss()) * R * 0.09 + 0.02;
          theta = random() * Math.PI * 2;
          h = gauss() * R * 0.05;
        } else {
          r = Math.min(R, -R * 0.28 * Math.log(1 - random() * 0.97) + R * 0.04);
          if (kind < 0.8) {
            // Trailing logarithmic arms, wider toward the rim.
            const arm = Math.floor(random() * params.arms);
            const spread = gauss() * (0.22 + 0.3 * (r / R));
            theta = (arm / params.arms) * Math.PI * 2 - 2.4 * Math.log(r / (R * 0.05)) + spread;
          } else {
            theta = random() * Math.PI * 2;
          }
          h = gauss() * R * 0.018;
        }
        const c = Math.cos(theta);
        const s = Math.sin(theta);
        // The tangent (-u s + v c) is perpendicular to the whole offset, height included.
        const distance2 = r * r + h * h;
        const speed = params.spin * Math.sqrt((distance2 * strength) / (distance2 + softening2) ** 1.5);
        records.set(
          j,
          centre[0] + (u[0] * c + v[0] * s) * r + axis[0] * h,
          centre[1] + (u[1] * c + v[1] * s) * r + axis[1] * h,
          centre[2] + (u[2] * c + v[2] * s) * r + axis[2] * h,
          velocity[0] + (-u[0] * s + v[0] * c) * speed,
          velocity[1] + (-u[1] * s + v[1] * c) * speed,
          velocity[2] + (-u[2] * s + v[2] * c) * speed,
          0,
          0,
          0,
          1,
          1,
        );
      }
      records.writeTo(system, disc.start + done, m);
      done += m;
    }
  }

  // One attractor generator per disc: on every particle, or on its own disc's range (restored: the snapshot's).
  const handles: readonly ForceHandle[] = resume
    ? system.forces.handles
    : discs.map((disc) =>
        system.forces.add(
          {
            type: 'attractor',
            position: [disc.centre[0], disc.centre[1], disc.centre[2]],
            strength: params.strength * disc.strength,
            softening: params.softening,
          },
          coupling === 'all' ? 'all' : { start: disc.start, count: disc.count },
        ),
      );

  // What the GPU has now, so a panel change is sent once, not every frame.
  let sent = host ? host.sent : { strength: params.strength, softening: params.softening };
  /** The state's time at the start of this frame's steps, and the time the satellites' phases are at. */
  let stateTime = 0;
  let phaseTime = host?.phaseTime ?? 0;
  const position = vec3.create();

  /** Moves the satellites along their orbits to `time` (with `all` coupling) and sends any panel change. */
  function updateAttractors(time: number): void {
    const changed = params.strength !== sent.strength || params.softening !== sent.softening;
    const omega = orbitalOmega(SATELLITE_DISTANCE, params.strength, params.softening);
    const moving = coupling === 'all' && discs.length > 1;
    discs.forEach((disc, k) => {
      const handle = handles[k] as ForceHandle;
      const update: { position?: [number, number, number]; strength?: number; softening?: number } = {};
      if (changed) {
        update.strength = params.strength * disc.strength;
        update.softening = params.softening;
      }
      if (moving && k > 0) {
        disc.phase += omega * (time - phaseTime);
        orbitPoint(position, disc.phase, SATELLITE_DISTANCE);
        update.position = [position[0], position[1], position[2]];
      }
      if (update.position || update.strength !== undefined) handle.update(update);
    });
    phaseTime = time;
    sent = { strength: params.strength, softening: params.softening };
  }

  const look: ParticleLook = {
    ...DEFAULT_LOOK,
    ...speedColours([1, 0.72, 0.42], [0.5, 0.65, 1], 10),
    minPixels: 1,
    ...palette(0.55, 0.5, 0.6),
  };

  const snapshotHost = (): GalaxyHost => ({ phases: discs.map((disc) => disc.phase), phaseTime, sent: { ...sent } });
  return {
    ...systemSceneParts(system, { host: snapshotHost, owned: [binding, grid] }),
    particleCount: count,
    beforeSteps(time) {
      stateTime = time;
      // Paused, a panel change still reaches the GPU (for the next single step).
      updateAttractors(phaseTime);
    },
    encodeSteps(encoder, dt, steps) {
      // The attractors hold still through a frame's steps: place them at the steps' middle.
      updateAttractors(stateTime + (steps * dt) / 2);
      system.encodeSteps(encoder, dt, steps);
    },
    render(pass, frame) {
      if (params.grid) grid.draw(pass, frame.view);
      applyLookParams(look, params);
      // White at about the fastest circular speed about the core, 0.62 sqrt(S / s) (at r = s sqrt(2)).
      look.speedRange = 1.5 * Math.sqrt(params.strength / params.softening);
      // The same exposure at any count: past 2^17 particles each one gives less light.
      look.intensity = params.intensity * Math.min(1, DENSITY_REFERENCE / count);
      passes.particles.draw(pass, binding, look, frame.view, frame.time, { count });
    },
    status() {
      const pull = coupling === 'all' ? 'each pulling every particle' : 'each pulling its own disc';
      return `${discs.length} attractor${discs.length === 1 ? '' : 's'} ${pull} · strength ${params.strength}, softening ${params.softening}`;
    },
  };
}

export const galaxy = defineDemo('galaxy', 'Galaxy', GALAXY_PARAMS, {
  note:
    'Orbits under real attraction, computed on the GPU: each attractor is a softened attractor force generator ' +
    '(strength d / (|d|² + softening²)^(3/2)) run inside the step, and the particles start on circular orbits. ' +
    'Satellites circle the core and their tides tear at the discs. Semi-implicit Euler is the default because it is ' +
    'symplectic: orbits close, where explicit Euler spirals them out.',
  camera: { target: [0, 0, 0], distance: 70, yaw: 0.4, pitch: 0.55 },
  background: BACKGROUND,
  create: createGalaxy,
});
