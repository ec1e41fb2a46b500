/**
 * A frame of a system with emitters as its passes, named, each recordable on
 * its own (scripts/profile-lifecycle.ts times them): the step as the system
 * records it (its forces and colliders fused in, or a force pass before it),
 * then the lifecycle's passes one by one. Only where every stage is a
 * compute pass (colliders fused, no contacts).
 */
import { checkTimeStep } from '../core/particles';
import type { ParticleSystem } from '../gpu/particleSystem';

export interface ProfiledPass {
  name: string;
  record: (pass: GPUComputePassEncoder) => void;
}

export function profileFrame(system: ParticleSystem, dt: number): ProfiledPass[] {
  checkTimeStep(dt);
  const plan = system.stepPlan;
  const lifecycle = system.lifecycle;
  if (!lifecycle) throw new Error('profileFrame: only a system with emitters has a lifecycle to profile');
  for (const stage of plan.stages) stage.prepare?.(dt);
  const [, ...afterStep] = lifecycle.profilePasses(dt);
  return plan.stages.flatMap((stage) => {
    if (stage.kind !== 'compute') throw new Error(`profileFrame: the ${stage.name} stage opens passes of its own`);
    if (stage.name === 'lifecycle') return afterStep;
    const name =
      stage.name === 'integrate'
        ? 'step+age'
        : stage.name.startsWith('integrate')
          ? `step+age (${stage.name})`
          : stage.name;
    return [{ name, record: (pass: GPUComputePassEncoder) => stage.record(pass, dt, 1) }];
  });
}
