/**
 * A step plan: the ordered passes of one step, built when the system's
 * configuration changes (forces registered, springs, colliders, emitters),
 * not chosen among stepping paths on every call.
 *
 * A stage either records into a compute pass (consecutive compute stages
 * share one) or needs the encoder itself (the collision passes open their
 * own). Each call prepares every stage once for its dt (uploads, uniform
 * slots), then records the steps. A plan of one compute stage records all
 * the steps in one pass with the pipeline and bind groups set once (measured
 * faster on the software adapter than setting them once a step).
 */

export interface ComputeStage {
  readonly name: string;
  readonly kind: 'compute';
  /** Once a call, before any step is recorded: upload what this dt needs. */
  prepare?(dt: number): void;
  /** `repeat` steps of this stage (1 unless the plan is this stage alone). */
  record(pass: GPUComputePassEncoder, dt: number, repeat: number): void;
}

export interface EncoderStage {
  readonly name: string;
  readonly kind: 'encoder';
  prepare?(dt: number): void;
  record(encoder: GPUCommandEncoder, dt: number): void;
}

export type Stage = ComputeStage | EncoderStage;

export class StepPlan {
  constructor(
    /** Names the configuration it was built for, so the system knows when to build another. */
    readonly key: string,
    readonly stages: readonly Stage[],
  ) {}

  /** The stages' names in order, e.g. ['integrate+forces', 'collisions']. */
  get passes(): string[] {
    return this.stages.map((stage) => stage.name);
  }

  /** Records `steps` steps of `dt` (already checked by the caller) into `encoder`. */
  encode(encoder: GPUCommandEncoder, dt: number, steps: number): void {
    if (steps === 0 || this.stages.length === 0) return;
    for (const stage of this.stages) stage.prepare?.(dt);
    const only = this.stages.length === 1 ? this.stages[0] : undefined;
    if (only?.kind === 'compute') {
      const pass = encoder.beginComputePass({ label: `step: ${only.name}` });
      only.record(pass, dt, steps);
      pass.end();
      return;
    }
    let pass: GPUComputePassEncoder | null = null;
    for (let s = 0; s < steps; s++) {
      for (const stage of this.stages) {
        if (stage.kind === 'compute') {
          pass ??= encoder.beginComputePass({ label: `step: ${this.key}` });
          stage.record(pass, dt, 1);
        } else {
          pass?.end();
          pass = null;
          stage.record(encoder, dt);
        }
      }
    }
    pass?.end();
  }
}
