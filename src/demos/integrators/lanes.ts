/**
 * One Integrators lane: a variant's GPU system, the trail that records its
 * every step, its CPU reference, the bindings that draw them in its viewport
 * (reference lines, trail dots, the scene's look over the current state, a
 * backdrop grid) and its caption. Built and freed here, so the page itself
 * holds only the run over all lanes.
 */
import { FLOATS_PER_PARTICLE } from '../../core/layout';
import type { ParticleInit } from '../../core/particles';
import { variantName, type Variant } from '../../core/variants';
import { ParticleSystem } from '../../gpu/particleSystem';
import type { GridBinding } from '../../render/gridPass';
import type { LineBinding } from '../../render/linePass';
import { LookDraws } from '../../render/lookDraws';
import type { ParticleBinding } from '../../render/particleBinding';
import type { ParticleLook } from '../../render/particleLook';
import { TrailRecorder } from '../../render/trailRecorder';
import type { SceneLook } from '../../scene/look';
import type { DemoContext } from '../shared/demo';
import { resumedSystem } from '../shared/recovery';
import { referencePositions, referenceStrips } from './reference';

export interface Lane {
  variant: Variant;
  system: ParticleSystem;
  trail: TrailRecorder;
  /** CPU reference positions, xyz per particle per sample. */
  cpu: Float32Array;
  lines: LineBinding;
  dots: ParticleBinding;
  /** The GPU's current state, drawn with the scene's look. */
  live: LookDraws;
  backdrop: GridBinding;
  caption: HTMLDivElement;
  worst: number;
}

/** What every lane of a run is built from. */
export interface LaneSetup {
  particles: ParticleInit[];
  steps: number;
  dt: number;
  /** The scene's look, drawn over each lane's current state. */
  look: SceneLook;
  /** The base of that look: the page's own for the current state. */
  liveLook: ParticleLook;
}

/**
 * Lane `k`, for `variant`: its system restored from `context.resume` where
 * there is one, else written from the scene, and its trail holding `samples`
 * (the trail's samples in a snapshot) where given.
 */
export async function createLane(
  context: DemoContext<unknown>,
  setup: LaneSetup,
  k: number,
  variant: Variant,
  samples: Float32Array | undefined,
): Promise<Lane> {
  const { device, passes, hud } = context;
  const { particles, steps, dt, look, liveLook } = setup;
  const count = particles.length;
  const name = variantName(variant);
  // The CPU reference: float32, the same steps, every position kept.
  const cpu = referencePositions(variant, particles, steps, dt);
  let system: ParticleSystem;
  if (context.resume) {
    system = await ParticleSystem.restore(device, resumedSystem(context.resume, k));
  } else {
    system = await ParticleSystem.create(device, { capacity: count, ...variant });
    await system.writeParticles(0, particles);
  }
  let trail: TrailRecorder;
  try {
    trail = new TrailRecorder(device, system.particles.buffer, count, steps + 1, `Integrators.trail(${name})`);
    if (samples) {
      // The samples recorded before the snapshot, so the run's comparison still covers every step.
      device.queue.writeBuffer(trail.buffer, 0, samples.buffer, samples.byteOffset, samples.byteLength);
      trail.recorded = samples.length / (count * FLOATS_PER_PARTICLE);
    }
  } catch (error) {
    system.destroy();
    throw error;
  }
  const strips = referenceStrips(cpu, count, steps);
  const caption = document.createElement('div');
  caption.className = 'sw-caption';
  hud.overlay.append(caption);
  return {
    variant,
    system,
    trail,
    cpu,
    lines: passes.lines.bind(`Integrators.cpu(${name})`, strips),
    dots: passes.particles.bind(`Integrators.dots(${name})`, trail.buffer),
    live: new LookDraws(context, `Integrators.live(${name})`, look, system.particleStore, {
      count,
      base: liveLook,
    }),
    backdrop: passes.grid.bind(`Integrators.backdrop(${name})`),
    caption,
    worst: Number.NaN,
  };
}

/** Frees everything `lane` holds and removes its caption. */
export function disposeLane(lane: Lane): void {
  lane.caption.remove();
  lane.lines.destroy();
  lane.dots.destroy();
  lane.live.destroy();
  lane.backdrop.destroy();
  lane.trail.destroy();
  lane.system.destroy();
}
