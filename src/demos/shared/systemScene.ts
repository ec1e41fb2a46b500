/**
 * What every demo of one ParticleSystem does alike: its system made with the
 * panel's variant, or restored after a lost device; its lifecycle where it
 * has emitters; and the parts of its scene that are the system's (its steps
 * and submits; its snapshot, with what the demo keeps beside it taken first,
 * as DemoScene asks; disposing it stops its live counts' reads, frees what it
 * bound in order, then the system). A demo spreads those into its DemoScene.
 */
import type { DampingMode, IntegrationOrder } from '../../core/variants';
import { ParticleSystem, type GpuParticleSystemOptions } from '../../gpu/particleSystem';
import type { DemoContext, DemoScene } from './demo';
import type { LiveStatsPoller } from './liveStats';
import { resumedSystem } from './recovery';

/**
 * The demo's system: on a new device after a loss, restored from the kept
 * snapshot (`context.resume`); otherwise made with `options` and the panel's
 * integrator and damping.
 */
export function demoSystem(
  context: DemoContext<{ integrator: IntegrationOrder; damping: DampingMode }>,
  options: Omit<GpuParticleSystemOptions, 'integrator' | 'damping'>,
): Promise<ParticleSystem> {
  const { device, params, resume } = context;
  if (resume) return ParticleSystem.restore(device, resumedSystem(resume, 0));
  return ParticleSystem.create(device, { ...options, integrator: params.integrator, damping: params.damping });
}

/** The lifecycle and emitters of `system`, made with emitters; without them it is destroyed and `name`'s page fails. */
export function lifecycleOf(system: ParticleSystem, name: string) {
  const { lifecycle, emitters } = system;
  if (!lifecycle || !emitters) {
    system.destroy();
    throw new Error(`the ${name} system has no lifecycle`);
  }
  return { lifecycle, emitters };
}

export function systemSceneParts(
  system: ParticleSystem,
  kept: {
    /** What the demo keeps outside the system (DemoSnapshot.host). */
    host: () => unknown;
    /** What the scene bound over the system, freed before it. */
    owned: readonly { destroy(): void }[];
    live?: LiveStatsPoller;
  },
): Pick<DemoScene, 'encodeSteps' | 'submitted' | 'snapshot' | 'dispose'> {
  return {
    encodeSteps(encoder, dt, steps) {
      system.encodeSteps(encoder, dt, steps);
    },
    submitted() {
      system.submitted();
    },
    snapshot() {
      const host = kept.host();
      return system.snapshot().then((bytes) => ({ systems: [bytes], host }));
    },
    dispose() {
      kept.live?.stop();
      for (const owned of kept.owned) owned.destroy();
      system.destroy();
    },
  };
}
