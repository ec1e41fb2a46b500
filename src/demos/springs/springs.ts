/**
 * Springs: a cloth of particles joined by pair springs, hung from its top edge.
 *
 * Every particle has mass 1; the top row is immovable (inverse mass 0, so the
 * step and every force skip it). Neighbours along the rows and columns are
 * joined by structural springs and, optionally, the diagonals of each cell by
 * shear springs, all Hooke springs of the GPU's `system.springs` (each
 * particle gathers its own links, src/gpu/forces/springsPass.ts). Gravity, a
 * quadratic drag, a gusting wind and turbulence (a curl field) are generators of
 * the force registry; the wind and the turbulence's offset are rewritten every
 * frame (one record each, never a pipeline), so the cloth sways. The springs
 * are drawn under the particles as lines read straight from the particle
 * buffer (LinkPass), turning from blue to orange as they stretch.
 *
 * Stability: a node pulled by its 8 springs has its fastest mode below ω = 4
 * sqrt(k / m) (Gershgorin), about 280 rad/s at the default stiffness; the
 * semi-implicit order (Bourg's, the default here) is stable for ω dt < 2, so
 * the default 240 steps a second keep ω dt below 1.2, and the panel's largest
 * stiffness below 1.7 (at the default size the springs at the top corners,
 * which carry the most weight, stretch about 20%). Explicit Euler (Cyclone's
 * order) gains `sqrt(1 + ω² dt²)` in amplitude every step on an undamped
 * oscillator, far more than any damping takes off at these stiffnesses: choose
 * it to watch the cloth blow up.
 */
import type { ForceHandle } from '../../core/forces/registry';
import type { SpringLink } from '../../core/forces/generators';
import type { OrbitCamera } from '../../render/camera';
import { DEFAULT_LINK_STYLE, type LinkStyle } from '../../render/linkPass';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import { defineDemo, type DemoContext, type DemoScene } from '../shared/demo';
import { ParticleRecords } from '../shared/packing';
import { applyLookParams } from '../shared/commonParams';
import type { ParamValues } from '../shared/params';
import { SPRINGS_PARAMS } from './params';
import { DemoGround } from '../shared/ground';
import { demoSystem, systemSceneParts } from '../shared/systemScene';

type Params = ParamValues<typeof SPRINGS_PARAMS>;

const BACKGROUND = [0.03, 0.032, 0.045] as const;
/** Lowest height of the top edge, m. */
const MIN_TOP = 9;
/** Turbulence lattice cells per metre, and its drift (m/s) through the cloth. */
const TURBULENCE_FREQUENCY = 0.45;
const TURBULENCE_DRIFT = [0.5, 0.15, -0.8] as const;

/** The cloth's links: structural (rows and columns) and, with `shear`, both diagonals of each cell. */
export function clothLinks(columns: number, rows: number, spacing: number, shear: boolean, stiffness: number) {
  const links: SpringLink[] = [];
  const at = (c: number, r: number) => r * columns + c;
  const join = (a: number, b: number, restLength: number) => {
    // Two immovable ends would pull nothing.
    if (a < columns && b < columns) return;
    links.push({ a, b, restLength, stiffness });
  };
  const diagonal = spacing * Math.SQRT2;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      if (c + 1 < columns) join(at(c, r), at(c + 1, r), spacing);
      if (r + 1 < rows) join(at(c, r), at(c, r + 1), spacing);
      if (shear && c + 1 < columns && r + 1 < rows) {
        join(at(c, r), at(c + 1, r + 1), diagonal);
        join(at(c + 1, r), at(c, r + 1), diagonal);
      }
    }
  }
  return links;
}

/** What the GPU was last sent, kept with a snapshot so a panel change since is sent after a restore. */
interface Sent {
  stiffness: number;
  damping: number;
  drag: number;
  gravity: number;
}

export async function createSprings(context: DemoContext<Params>): Promise<DemoScene> {
  const { passes, params, resume } = context;
  const { columns, rows, spacing, shear } = params;
  const count = columns * rows;
  const system = await demoSystem(context, { capacity: count });
  // Changing it rebuilds the demo: the status line says the system's.
  const integrator = params.integrator;
  const restored = resume ? (resume.host as { sent: Sent }).sent : null;
  const width = (columns - 1) * spacing;
  const height = (rows - 1) * spacing;
  // High enough that the cloth, stretched by its weight, stays clear of the ground.
  const top = Math.max(MIN_TOP, height * 1.35 + 1);
  // The same pairs as the snapshot's springs (only a rebuild changes them), at the stiffness last sent.
  let links = clothLinks(columns, rows, spacing, shear, restored?.stiffness ?? params.stiffness);
  const dampingValues = new Float32Array(count);
  let gravity: ForceHandle, drag: ForceHandle, wind: ForceHandle, turbulence: ForceHandle;
  if (restored) {
    // Records, springs, the damping field and the four generators are the snapshot's.
    [gravity, drag, wind, turbulence] = system.forces.handles as [ForceHandle, ForceHandle, ForceHandle, ForceHandle];
  } else {
    const records = new ParticleRecords(count);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        // A flat sheet in a vertical plane, at rest; the top row is nailed in place.
        const inverseMass = r === 0 ? 0 : 1;
        records.set(r * columns + c, c * spacing - width / 2, top - r * spacing, 0, 0, 0, 0, 0, 0, 0, inverseMass, 1);
      }
    }
    records.writeTo(system, 0);
    system.springs.setLinks(links);
    gravity = system.forces.add({ type: 'gravity', g: [0, -params.gravity, 0] });
    drag = system.forces.add({ type: 'drag', k1: 0, k2: params.drag });
    wind = system.forces.add({ type: 'wind', force: [0, 0, 0] });
    turbulence = system.forces.add({ type: 'turbulence', strength: 0, frequency: TURBULENCE_FREQUENCY, seed: 11 });
    await system.setField('damping', 0, dampingValues.fill(params.dampingValue));
  }

  // What the GPU has now, so a panel change is sent once, not every frame.
  let sent: Sent = restored ?? {
    stiffness: params.stiffness,
    damping: params.dampingValue,
    drag: params.drag,
    gravity: params.gravity,
  };
  /** A failure of an asynchronous update, thrown from the next frame so the page shows it. */
  let failure: unknown = null;

  function applyPanel(): void {
    if (params.stiffness !== sent.stiffness) {
      links = clothLinks(columns, rows, spacing, shear, params.stiffness);
      system.springs.setLinks(links);
    }
    if (params.dampingValue !== sent.damping) {
      system.setField('damping', 0, dampingValues.fill(params.dampingValue)).catch((error: unknown) => {
        failure ??= error;
      });
    }
    if (params.drag !== sent.drag) drag.update({ k2: params.drag });
    if (params.gravity !== sent.gravity) gravity.update({ g: [0, -params.gravity, 0] });
    sent = { stiffness: params.stiffness, damping: params.dampingValue, drag: params.drag, gravity: params.gravity };
  }

  /** Gusts: the wind swells and turns slowly; the turbulence drifts through the cloth with it. */
  function blow(handles: { wind: ForceHandle; turbulence: ForceHandle }, time: number): void {
    const gust = 0.65 + 0.35 * Math.sin(0.9 * time) * Math.sin(0.37 * time + 1);
    const turn = 0.35 * Math.sin(0.23 * time);
    const strength = params.wind * gust;
    handles.wind.update({ force: [strength * Math.sin(turn), 0, strength * Math.cos(turn)] });
    handles.turbulence.update({
      strength: params.wind * params.turbulence,
      offset: [TURBULENCE_DRIFT[0] * time, TURBULENCE_DRIFT[1] * time, TURBULENCE_DRIFT[2] * time],
    });
  }

  const binding = passes.particles.bind('Springs.particles', system.particleStore);
  // The springs, drawn from the same buffer: their ends move with the particles on the GPU. Their
  // geometry changes only on a rebuild (a stiffness change rewrites the same pairs), so sent once.
  const springLines = passes.links.bind('Springs.links', system.particleStore, links);
  // Blue at rest length or shorter, turning orange as a spring stretches by 30%.
  const springStyle: LinkStyle = { ...DEFAULT_LINK_STYLE, stretchRange: 0.3 };
  const ground = new DemoGround(passes, 'Springs.ground', {
    halfSize: 30,
    lineColor: [0.2, 0.23, 0.3],
    planeColor: [0.06, 0.065, 0.085],
    background: BACKGROUND,
  });
  const look: ParticleLook = { ...DEFAULT_LOOK, hueOffset: 0.5, hueSpan: 0.3, saturation: 0.55 };

  return {
    // Every step: gravity, drag, wind and turbulence, then the springs, then the integration.
    ...systemSceneParts(system, { host: () => ({ sent: { ...sent } }), owned: [binding, springLines, ground] }),
    particleCount: count,
    beforeSteps(time) {
      if (failure) throw failure;
      applyPanel();
      blow({ wind, turbulence }, time);
    },
    render(pass, frame) {
      ground.draw(pass, frame.view);
      // Under the particles: neither writes depth, so what is drawn later lies on top.
      if (params.drawSprings) passes.links.draw(pass, springLines, springStyle, frame.view, frame.time);
      applyLookParams(look, params);
      passes.particles.draw(pass, binding, look, frame.view, frame.time, { count });
    },
    status() {
      const cloth = `${columns} x ${rows} cloth · ${links.length.toLocaleString('en-US')} pair springs · top row immovable`;
      return integrator === 'explicit' ? `${cloth} · explicit Euler: unstable at these stiffnesses` : cloth;
    },
    fitCamera(camera: OrbitCamera) {
      const extent = Math.max(width, height * 1.2);
      camera.set({ target: [0, top - height * 0.6, 0], distance: Math.max(14, extent * 2.4) });
    },
  };
}

export const springs = defineDemo('springs', 'Springs', SPRINGS_PARAMS, {
  note:
    'A cloth of pair springs (structural and shear) hung from its top row (immovable), under gravity, drag, a gusting ' +
    'wind and turbulence, all accumulated on the GPU before each step. Semi-implicit Euler is stable at these ' +
    "stiffnesses; explicit Euler (Cyclone's order) gains energy every oscillation and blows up.",
  camera: { target: [0, 5.5, 0], distance: 20, yaw: 0.6, pitch: 0.15 },
  background: BACKGROUND,
  create: createSprings,
});
