/**
 * A galaxy: a million particles on orbits around a few attractors, drawn as
 * points.
 *
 * Stand-in until the forces issue lands: there is no attraction on the GPU
 * yet, and computing it on the host would need the positions back (a
 * readback). Instead every particle gets the centripetal acceleration of its
 * circular orbit (-w^2 r toward its attractor) as Cyclone's constant
 * per-particle acceleration, and the GPU integrates that. A constant
 * acceleration bends a path into a parabola, which follows the circle for a
 * fraction of an orbit only (after an arc of angle t the radius is off by
 * about t^4 / 8), so the host re-aims the particles from their analytic orbits,
 * a slice a frame, each particle once per `reaim` seconds (no readback: the
 * host knows the orbits). Set the period to 0 to watch the parabolas fly off.
 */
import { vec3 } from 'gl-matrix';
import { ParticleSystem } from '../../gpu/particleSystem';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import type { DemoContext, DemoDefinition, DemoScene } from '../shared/app';
import { ParticleRecords, seededRandom } from '../shared/packing';
import type { ParamValues } from '../shared/params';
import { GALAXY_PARAMS } from './params';

type Params = ParamValues<typeof GALAXY_PARAMS>;

const BACKGROUND = [0.004, 0.004, 0.012] as const;
/** The count at which `intensity` is a point's own brightness. */
const DENSITY_REFERENCE = 1 << 17;
/** Records packed per queue write. */
const CHUNK = 32768;

interface Attractor {
  centre: vec3;
  /** Orthonormal: u and v span the disc, n is its axis. */
  u: vec3;
  v: vec3;
  n: vec3;
  radius: number;
  /** Orbital speed far out, and the core radius inside which the rotation is solid. */
  vmax: number;
  core: number;
  share: number;
}

function attractors(n: number, spin: number): Attractor[] {
  const out: Attractor[] = [];
  for (let k = 0; k < n; k++) {
    const main = k === 0;
    const angle = ((k - 1) / Math.max(1, n - 1)) * Math.PI * 2 + 0.6;
    const centre = main ? vec3.create() : vec3.fromValues(Math.cos(angle) * 24, k % 2 ? 4 : -3, Math.sin(angle) * 24);
    // Satellites' discs are tilted.
    const axis = main
      ? vec3.fromValues(0, 1, 0)
      : vec3.normalize(vec3.create(), [Math.sin(k * 1.7), 1.2, Math.cos(k * 2.3)]);
    const u = vec3.normalize(vec3.create(), vec3.cross(vec3.create(), axis, [0.3, 0.1, 1]));
    const v = vec3.cross(vec3.create(), u, axis);
    out.push({
      centre,
      u,
      v,
      n: axis,
      radius: main ? 15 : 5,
      vmax: (main ? 1.0 : 0.7) * spin,
      core: main ? 1.6 : 1.2,
      share: n === 1 ? 1 : main ? 0.64 : 0.36 / (n - 1),
    });
  }
  return out;
}

export async function createGalaxy(context: DemoContext<Params>): Promise<DemoScene> {
  const { device, passes, params } = context;
  const count = params.count;
  const system = await ParticleSystem.create(device, {
    capacity: count,
    integrator: params.integrator,
    damping: params.damping,
  });
  const binding = passes.particles.bind('Galaxy.particles', system.particles.buffer);
  const grid = passes.grid.bind('Galaxy.grid');
  const discs = attractors(params.attractors, params.spin);
  const random = seededRandom(params.seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

  // Each particle's orbit: attractor, radius, phase at t = 0, height over the disc, angular speed.
  const owner = new Uint8Array(count);
  const radius = new Float32Array(count);
  const phase = new Float32Array(count);
  const height = new Float32Array(count);
  const omega = new Float32Array(count);
  let k = 0;
  let upTo = 0;
  for (let i = 0; i < count; i++) {
    while (k < discs.length - 1 && i >= upTo + (discs[k] as Attractor).share * count) {
      upTo += (discs[k] as Attractor).share * count;
      k++;
    }
    const disc = discs[k] as Attractor;
    const R = disc.radius;
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
    owner[i] = k;
    radius[i] = r;
    phase[i] = theta;
    height[i] = h;
    omega[i] = disc.vmax / Math.sqrt(r * r + disc.core * disc.core);
  }

  const records = new ParticleRecords(Math.min(CHUNK, count));
  /** Writes particles [start, start + n) on their analytic orbits at `time`. */
  function writeOrbits(start: number, n: number, time: number): void {
    for (let done = 0; done < n;) {
      const m = Math.min(records.capacity, n - done);
      for (let j = 0; j < m; j++) {
        const i = start + done + j;
        const disc = discs[owner[i] as number] as Attractor;
        const r = radius[i] as number;
        const w = omega[i] as number;
        const theta = (phase[i] as number) + w * time;
        const c = Math.cos(theta);
        const s = Math.sin(theta);
        const h = height[i] as number;
        const { centre, u, v, n: axis } = disc;
        const speed = w * r;
        const pull = w * w * r;
        records.set(
          j,
          centre[0] + (u[0] * c + v[0] * s) * r + axis[0] * h,
          centre[1] + (u[1] * c + v[1] * s) * r + axis[1] * h,
          centre[2] + (u[2] * c + v[2] * s) * r + axis[2] * h,
          (-u[0] * s + v[0] * c) * speed,
          (-u[1] * s + v[1] * c) * speed,
          (-u[2] * s + v[2] * c) * speed,
          -(u[0] * c + v[0] * s) * pull,
          -(u[1] * c + v[1] * s) * pull,
          -(u[2] * c + v[2] * s) * pull,
          1,
          1,
        );
      }
      records.writeTo(system, start + done, m);
      done += m;
    }
  }
  writeOrbits(0, count, 0);

  let cursor = 0;
  let credit = 0;
  let lastTime = 0;
  let lastReaimed = 0;
  const look: ParticleLook = {
    ...DEFAULT_LOOK,
    colorA: [1, 0.72, 0.42],
    colorB: [0.5, 0.65, 1],
    speedRange: 2 * params.spin,
    minPixels: 1,
    hueOffset: 0.55,
    hueSpan: 0.5,
    saturation: 0.6,
  };

  return {
    particleCount: count,
    beforeSteps(time) {
      const elapsed = Math.max(0, time - lastTime);
      lastTime = time;
      lastReaimed = 0;
      if (params.reaim <= 0 || elapsed === 0) return;
      credit += (count * elapsed) / params.reaim;
      const n = Math.min(count, Math.floor(credit));
      credit = Math.min(credit - n, count);
      const first = Math.min(n, count - cursor);
      writeOrbits(cursor, first, time);
      if (n > first) writeOrbits(0, n - first, time);
      cursor = (cursor + n) % count;
      lastReaimed = n;
    },
    encodeSteps(encoder, dt, steps) {
      system.encodeSteps(encoder, dt, steps);
    },
    render(pass, frame) {
      if (params.grid) {
        passes.grid.draw(
          pass,
          grid,
          {
            centre: [0, -8, 0],
            halfSize: 70,
            spacing: 2,
            majorEvery: 5,
            lineColor: [0.1, 0.12, 0.2],
            planeColor: [0.012, 0.014, 0.03],
            fadeColor: BACKGROUND,
          },
          frame.view,
        );
      }
      look.mode = params.mode;
      look.blend = params.blend;
      look.colorMode = params.colorMode;
      look.size = params.size;
      // The same exposure at any count: past 2^17 particles each one gives less light.
      look.intensity = params.intensity * Math.min(1, DENSITY_REFERENCE / count);
      passes.particles.draw(pass, binding, look, frame.view, frame.time, { count });
    },
    status() {
      return `${discs.length} attractor${discs.length === 1 ? '' : 's'} · re-aimed ${lastReaimed.toLocaleString('en-US')} this frame`;
    },
    dispose() {
      binding.destroy();
      grid.destroy();
      system.destroy();
    },
  };
}

export const galaxy: DemoDefinition<typeof GALAXY_PARAMS> = {
  id: 'galaxy',
  title: 'Galaxy',
  note:
    'Stand-in until the forces issue lands: no attraction is computed. Each particle carries the centripetal acceleration ' +
    'of its circular orbit as a constant per-particle acceleration, and since that only holds for part of an orbit, ' +
    'the host re-aims a slice of particles each frame from their analytic orbits (no readback).',
  params: GALAXY_PARAMS,
  camera: { target: [0, 0, 0], distance: 58, yaw: 0.4, pitch: 0.55 },
  background: BACKGROUND,
  create: createGalaxy,
};
