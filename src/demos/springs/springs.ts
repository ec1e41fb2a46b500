/**
 * Springs: a cloth of particles joined by springs, hung from its top edge.
 *
 * Waiting for the forces issue: springs are force generators (Hooke's law
 * between pairs of particles) whose forces are accumulated on the GPU before
 * each step, and the engine has no force pass yet. Rather than fake springs
 * (by moving particles from the host, or drawing lines that pretend to
 * pull), this page shows the cloth's particles where they will start: at rest
 * and immovable (inverse mass 0, so the step skips them). Nothing here is
 * simulated.
 */
import { ParticleSystem } from '../../gpu/particleSystem';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import type { DemoContext, DemoDefinition, DemoScene } from '../shared/app';
import { ParticleRecords } from '../shared/packing';
import type { ParamValues } from '../shared/params';
import { SPRINGS_PARAMS } from './params';

type Params = ParamValues<typeof SPRINGS_PARAMS>;

const BACKGROUND = [0.03, 0.032, 0.045] as const;
const TOP = 9;

export async function createSprings(context: DemoContext<Params>): Promise<DemoScene> {
  const { device, passes, params, hud } = context;
  const { columns, rows, spacing } = params;
  const count = columns * rows;
  const system = await ParticleSystem.create(device, { capacity: count });
  const records = new ParticleRecords(count);
  const width = (columns - 1) * spacing;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      // Hung in a vertical plane from its top edge; inverse mass 0: immovable, never stepped.
      records.set(r * columns + c, c * spacing - width / 2, TOP - r * spacing, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    }
  }
  records.writeTo(system, 0);
  const binding = passes.particles.bind('Springs.particles', system.particles.buffer);
  const ground = passes.grid.bind('Springs.ground');
  const caption = document.createElement('div');
  caption.className = 'sw-waiting';
  caption.textContent = 'Waiting for the forces issue: no springs are simulated yet';
  hud.overlay.append(caption);
  const look: ParticleLook = { ...DEFAULT_LOOK, hueOffset: 0.52, hueSpan: 0.12, saturation: 0.5 };

  return {
    particleCount: count,
    encodeSteps(encoder, dt, steps) {
      // Every particle is immovable, so the step changes nothing; it still runs, as it will with springs.
      system.encodeSteps(encoder, dt, steps);
    },
    render(pass, frame) {
      passes.grid.draw(
        pass,
        ground,
        {
          centre: [0, 0, 0],
          halfSize: 30,
          spacing: 1,
          majorEvery: 5,
          lineColor: [0.2, 0.23, 0.3],
          planeColor: [0.06, 0.065, 0.085],
          fadeColor: BACKGROUND,
        },
        frame.view,
      );
      look.mode = params.mode;
      look.blend = params.blend;
      look.colorMode = params.colorMode;
      look.size = params.size;
      look.intensity = params.intensity;
      passes.particles.draw(pass, binding, look, frame.view, frame.time, { count });
    },
    status() {
      return `${columns} x ${rows} cloth at rest (immovable)`;
    },
    dispose() {
      caption.remove();
      binding.destroy();
      ground.destroy();
      system.destroy();
    },
  };
}

export const springs: DemoDefinition<typeof SPRINGS_PARAMS> = {
  id: 'springs',
  title: 'Springs',
  note:
    'Waiting for the forces issue: springs are force generators accumulated on the GPU before each step, which the ' +
    "engine does not have yet. Shown: the cloth's particles at rest and immovable (inverse mass 0); nothing is " +
    'simulated, and no spring is faked.',
  params: SPRINGS_PARAMS,
  camera: { target: [0, 5.5, 0], distance: 20, yaw: 0.35, pitch: 0.15 },
  background: BACKGROUND,
  create: createSprings,
};
