/**
 * Fireworks, after Cyclone's fireworks demo: rockets rise, burst into a shell
 * of sparks that slow down (damping), fall (gravity as a per-particle
 * acceleration) and fade.
 *
 * Stand-in until the emitters issue lands: launches and bursts are the
 * host's. Each burst owns a block of particles (a group). A launch writes the
 * whole block with the rocket's state, so all its particles fly as one (only
 * the first is drawn); the host follows each rocket with the CPU reference
 * (one particle per group, the same variant and steps as the GPU, so no
 * readback), and when the fuse runs out it rewrites the block as sparks at the
 * rocket's position. Colours and fading over a burst's life come from a
 * GroupTimeline, one vec4 per burst.
 */
import { CpuParticleSystem } from '../../core/cpuParticleSystem';
import { ParticleSystem } from '../../gpu/particleSystem';
import { GroupTimeline } from '../../render/groupTimeline';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import type { DemoDefinition, DemoScene, SceneFrame } from '../shared/app';
import type { DemoContext } from '../shared/app';
import { ParticleRecords, randomDirection, seededRandom } from '../shared/packing';
import type { ParamValues } from '../shared/params';
import { FIREWORKS_PARAMS } from './params';

type Params = ParamValues<typeof FIREWORKS_PARAMS>;

/** Where parked particles wait: immovable, far under the ground. */
const PARK_Y = -1000;
const LAUNCH_AREA = 14;
const BACKGROUND = [0.012, 0.014, 0.03] as const;

type Shell = 'peony' | 'chrysanthemum' | 'ring' | 'willow';
const SHELLS: readonly Shell[] = ['peony', 'chrysanthemum', 'ring', 'peony', 'willow'];

export async function createFireworks(context: DemoContext<Params>): Promise<DemoScene> {
  const { device, passes, params } = context;
  const bursts = Math.min(params.bursts, params.count);
  const groupSize = Math.floor(params.count / bursts);
  const count = groupSize * bursts;
  const variant = { integrator: params.integrator, damping: params.damping } as const;
  const system = await ParticleSystem.create(device, { capacity: count, ...variant });
  const groups = new GroupTimeline(device, bursts, groupSize, 'Fireworks.groups');
  const binding = passes.particles.bind('Fireworks.particles', system.particles.buffer, groups);
  const ground = passes.grid.bind('Fireworks.ground');
  // The CPU reference follows each group's rocket: slot g mirrors particle g * groupSize.
  const rockets = new CpuParticleSystem({ capacity: bursts, ...variant });
  const records = new ParticleRecords(groupSize);
  const random = seededRandom(params.seed);
  const direction: [number, number, number] = [0, 0, 0];
  /** Simulated time at which each group's rocket bursts (NaN: none in flight). */
  const fuse = new Float64Array(bursts).fill(Number.NaN);
  let nextGroup = 0;
  let launchCredit = 2.5; // a few rockets at once, so the show starts at once
  let lastTime = 0;

  // Park every particle: immovable (skipped by the step) and below the ground.
  for (let i = 0; i < groupSize; i++) records.set(i, 0, PARK_Y, 0, 0, 0, 0, 0, 0, 0, 0, 1);
  for (let g = 0; g < bursts; g++) records.writeTo(system, g * groupSize);

  const isFree = (g: number, time: number) =>
    groups.kind(g) === 'hidden' || (groups.kind(g) === 'burst' && time > groups.birth(g) + groups.lifetime(g));

  function launch(g: number, time: number): void {
    const x = (random() * 2 - 1) * LAUNCH_AREA;
    const z = (random() * 2 - 1) * LAUNCH_AREA * 0.4;
    const vy = params.rocketSpeed * (0.85 + 0.25 * random());
    const vx = -x * 0.08 + (random() * 2 - 1) * 1.5;
    const vz = (random() * 2 - 1) * 1.5;
    const rocket = {
      position: [x, 0.2, z],
      velocity: [vx, vy, vz],
      acceleration: [0, -params.gravity, 0],
      damping: 0.9,
    };
    for (let i = 0; i < groupSize; i++) records.set(i, x, 0.2, z, vx, vy, vz, 0, -params.gravity, 0, 1, 0.9);
    records.writeTo(system, g * groupSize);
    rockets.writeParticles(g, [rocket]);
    // Burst a little before the apex (vy / g), as Cyclone's fuses do, at random.
    const apex = params.gravity > 0 ? vy / params.gravity : 1.5;
    fuse[g] = time + Math.min(apex, 3) * (0.7 + 0.25 * random());
    groups.set(g, 'rocket', time, (fuse[g] as number) - time + 0.05, random());
  }

  function burst(g: number, time: number): void {
    const at = rockets.getPosition(g);
    const carried = rockets.getVelocity(g);
    const shell = SHELLS[Math.floor(random() * SHELLS.length)] as Shell;
    const willow = shell === 'willow';
    const speed = params.burstSpeed * (willow ? 0.55 : 0.85 + 0.3 * random());
    const lifetime = params.lifetime * (willow ? 1.6 : 0.85 + 0.3 * random());
    const hue = willow ? 0.11 : random();
    const damping = willow ? Math.min(1, params.dampingValue * 1.5) : params.dampingValue;
    // A ring: directions in the plane across a random axis.
    const axis = randomDirection(random, [0, 0, 0]);
    for (let i = 0; i < groupSize; i++) {
      randomDirection(random, direction);
      let s = speed;
      if (shell === 'peony' || willow) s *= 0.92 + 0.08 * random();
      else if (shell === 'chrysanthemum') s *= Math.cbrt(random());
      else {
        const along = direction[0] * axis[0] + direction[1] * axis[1] + direction[2] * axis[2];
        for (let c = 0; c < 3; c++) direction[c] = (direction[c] as number) - along * (axis[c] as number);
        const norm = Math.hypot(...direction) || 1;
        for (let c = 0; c < 3; c++) direction[c] = (direction[c] as number) / norm;
        s *= 0.95 + 0.05 * random();
      }
      records.set(
        i,
        at[0],
        at[1],
        at[2],
        carried[0] * 0.2 + direction[0] * s,
        carried[1] * 0.2 + direction[1] * s,
        carried[2] * 0.2 + direction[2] * s,
        0,
        -params.gravity,
        0,
        1,
        damping,
      );
    }
    records.writeTo(system, g * groupSize);
    fuse[g] = Number.NaN;
    groups.set(g, 'burst', time, lifetime, hue);
  }

  const look: ParticleLook = {
    ...DEFAULT_LOOK,
    hotTime: 0.12,
    fadeStart: 0.1,
    endSize: 0.5,
    saturation: 0.85,
    minPixels: 1.2,
    colorA: [1, 0.55, 0.2],
    colorB: [1, 0.85, 0.5],
    speedRange: 30,
  };

  return {
    particleCount: count,
    beforeSteps(time) {
      for (let g = 0; g < bursts; g++) if ((fuse[g] as number) <= time) burst(g, time);
      launchCredit += Math.max(0, time - lastTime) * params.launchRate;
      lastTime = time;
      while (launchCredit >= 1) {
        launchCredit -= 1;
        let found = -1;
        for (let k = 0; k < bursts && found < 0; k++) {
          const g = (nextGroup + k) % bursts;
          if (isFree(g, time)) found = g;
        }
        if (found < 0) break;
        launch(found, time);
        nextGroup = (found + 1) % bursts;
      }
      groups.upload();
    },
    encodeSteps(encoder, dt, steps) {
      system.encodeSteps(encoder, dt, steps);
      rockets.stepMany(dt, steps);
    },
    render(pass, frame: SceneFrame) {
      if (params.ground) {
        passes.grid.draw(
          pass,
          ground,
          {
            centre: [0, 0, 0],
            halfSize: 90,
            spacing: 2,
            majorEvery: 5,
            lineColor: [0.16, 0.19, 0.28],
            planeColor: [0.03, 0.035, 0.06],
            fadeColor: BACKGROUND,
          },
          frame.view,
        );
      }
      look.mode = params.mode;
      look.blend = params.blend;
      look.colorMode = params.colorMode;
      look.size = params.size;
      look.intensity = params.intensity;
      look.stretch = params.stretch;
      passes.particles.draw(pass, binding, look, frame.view, frame.time, { count, groupSize });
    },
    status() {
      let flying = 0;
      for (let g = 0; g < bursts; g++) if (!Number.isNaN(fuse[g] as number)) flying++;
      return `${bursts} bursts of ${groupSize.toLocaleString('en-US')} · ${flying} rockets up`;
    },
    dispose() {
      binding.destroy();
      ground.destroy();
      groups.destroy();
      system.destroy();
      rockets.destroy();
    },
  };
}

export const fireworks: DemoDefinition<typeof FIREWORKS_PARAMS> = {
  id: 'fireworks',
  title: 'Fireworks',
  note:
    "Cyclone's fireworks demo. Stand-in until the emitters issue lands: rockets and bursts are launched from the host " +
    '(each burst rewrites a block of particles; the host tracks each rocket with the CPU reference, no readback).',
  params: FIREWORKS_PARAMS,
  camera: { target: [0, 17, 0], distance: 54, yaw: 0, pitch: 0.1 },
  background: BACKGROUND,
  create: createFireworks,
};
