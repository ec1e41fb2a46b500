/**
 * The step plan's builder: which passes one step of a system runs, in order,
 * for its configuration (field forces fused into the step or as a pass
 * before it, springs, colliders fused or as passes after it, the lifecycle),
 * rebuilt only when that configuration changes (src/gpu/step/stepPlan.ts).
 */
import type { ForceRegistry, SpringNetwork } from '../../core/forces/registry';
import type { GpuCollisions } from '../collisions/collisions';
import type { GpuForces, RecordForces } from '../forces/forces';
import type { FusedStep } from '../step/fusedPipelines';
import type { IntegratePass } from '../step/integratePass';
import type { GpuLifecycle } from '../lifecycle/lifecycle';
import { StepPlan, type Stage } from '../step/stepPlan';
import type { WrittenState } from './writtenState';

/** What the plan is built from: the system's parts, some of them made or replaced after it (hence functions). */
export interface StepParts {
  readonly capacity: number;
  readonly forces: ForceRegistry;
  readonly springs: SpringNetwork;
  readonly forcePasses: GpuForces;
  readonly integratePass: IntegratePass;
  written(): WrittenState;
  /** Whether the field forces and the colliders may be fused into the step (the system's options). */
  fusion(): { forces: boolean; colliders: boolean };
  collisions(): GpuCollisions | null;
  lifecycle(): GpuLifecycle | null;
}

export class StepPlanner {
  /** Set by the plan (stepPlan) for its configuration: whether the colliders are fused into the step. */
  private collidersFused = false;
  private plan: StepPlan | null = null;

  /** Whether the step reads the acceleration|radius lane: with emitters always, else where it may hold anything but +0. */
  get readsAccelerationLane(): boolean {
    if (this.parts.lifecycle()) return true;
    const lanes = this.parts.written().laneMayHold;
    return lanes.acceleration || (this.collidersFused && lanes.radius);
  }

  constructor(private readonly parts: StepParts) {}

  /** Records `steps` steps of the plan; once one is recorded, every movable particle's accumulator is clear. */
  encodeSteps(encoder: GPUCommandEncoder, dt: number, steps: number): void {
    this.current().encode(encoder, dt, steps);
    if (steps > 0) this.parts.written().stepped();
  }

  /** Records the registry's and the springs' forces for a step of `dt` (Cyclone's updateForces, without integrating). */
  encodeForces(encoder: GPUCommandEncoder, dt: number): void {
    const forces = this.parts.forcePasses.prepare(dt);
    if (!forces) return;
    this.parts.written().addedForces();
    const pass = encoder.beginComputePass({ label: 'ParticleSystem.forces' });
    forces(pass);
    pass.end();
  }

  /** The plan for the current configuration, rebuilt only when that changes. */
  current(): StepPlan {
    const collisions = this.parts.collisions()?.active ? this.parts.collisions() : null;
    const fields = this.parts.forces.size > 0;
    const pairs = this.parts.springs.size > 0;
    const fused = this.parts.fusion().forces && fields && !pairs;
    // The colliders fused into the step, when they are all the collisions there are.
    const fusedColliders = collisions !== null && this.parts.fusion().colliders && collisions.fused !== null;
    const key = [
      this.parts.lifecycle() ? 'live list' : 'every slot',
      fused ? 'fused forces' : fields ? 'force pass' : 'no field forces',
      pairs ? 'springs' : 'no springs',
      fusedColliders ? 'fused colliders' : collisions ? 'collisions' : 'no collisions',
    ].join(', ');
    if (this.plan?.key !== key) this.plan = this.build(key, fused, collisions, fusedColliders);
    this.collidersFused = fusedColliders;
    return this.plan;
  }

  /**
   * The step's stages for one configuration: over the live list with
   * emitters (the lifecycle after), the field forces fused
   * into the step or as passes before it, then the collisions: fused into
   * the step (`fusedColliders`) or as passes after it.
   *
   * Over every slot the step's pipeline is chosen when a call is recorded
   * (src/gpu/step/fusedPipelines.ts): the registry's composition, the collider
   * set's (setColliders may change it without changing the plan), and
   * whether any accumulator may hold forces.
   */
  private build(key: string, fused: boolean, collisions: GpuCollisions | null, fusedColliders: boolean): StepPlan {
    const stages: Stage[] = [];
    const lifecycle = this.parts.lifecycle();
    const forcePass = !fused && (this.parts.forces.size > 0 || this.parts.springs.size > 0);
    if (forcePass) {
      let forces: RecordForces | null = null;
      stages.push({
        name: 'forces',
        kind: 'compute',
        // With emitters, the field forces run over the live list.
        prepare: (dt) => (forces = this.parts.forcePasses.prepare(dt, lifecycle?.buffers.live ?? null)),
        record: (pass) => forces?.(pass),
      });
    }
    let step: FusedStep = { forces: null, colliders: null, accumulator: true };
    stages.push({
      name: ['integrate', ...(fused ? ['forces'] : []), ...(fusedColliders ? ['colliders'] : [])].join('+'),
      kind: 'compute',
      prepare: (dt) => {
        step = {
          forces: fused ? this.parts.forcePasses.prepareFused(dt) : null,
          colliders: fusedColliders ? (collisions?.fused ?? null) : null,
          // A force pass before the step fills the accumulators every step.
          accumulator: forcePass || this.parts.written().accumulatorsMayHoldForces,
          accelerationLane: this.readsAccelerationLane,
        };
      },
      record: (pass, dt, repeat) => {
        if (lifecycle && (step.forces || step.colliders)) lifecycle.recordIntegrateFused(pass, dt, step);
        else if (lifecycle) lifecycle.recordIntegrate(pass, dt, step.accumulator);
        else this.parts.integratePass.recordFused(pass, dt, this.parts.capacity, step, repeat);
      },
    });
    if (collisions && !fusedColliders) {
      // With emitters too, every slot (the free slots are parked with radius -1, "no particle").
      stages.push({
        name: 'collisions',
        kind: 'encoder',
        record: (encoder, dt) => collisions.encode(encoder, dt, this.parts.capacity),
      });
    }
    if (lifecycle) {
      const collided = collisions !== null;
      stages.push({
        name: 'lifecycle',
        kind: 'compute',
        record: (pass, dt) => lifecycle.recordAfterStep(pass, lifecycle.frameOffset(dt), collided),
      });
    }
    return new StepPlan(key, stages);
  }
}
