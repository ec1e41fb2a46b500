/**
 * The step's pipelines with work fused in: a force composition
 * (shaders/integrateForces.wgsl), a collider composition
 * (shaders/fusedColliders.wgsl), either or both, one per combination, compiled on first use and kept, least recently used out
 * first. Owned by the step passes over every slot (IntegratePass) and over
 * the live list (LiveIntegratePass): they differ only in their leading bind
 * groups and code.
 */
import type { FusedColliders } from './collisions';
import type { FusedForces } from './forcesPass';
import { Kernel, KernelCache, type BoundGroup, type PerChunk } from './kernel';
import type { ParticleBuffer } from './particleBuffer';
import type { StepFusion } from '../shaders';

/** Fused pipelines kept per step pass. */
const MAX_FUSED_PIPELINES = 16;

/** What one step's pipeline has fused in, and the bind groups that go with it. */
export interface FusedStep {
  readonly forces: FusedForces | null;
  readonly colliders: FusedColliders | null;
  /** False when nothing wrote the force accumulator since the last step cleared it: neither read nor cleared (StepParams.forceAccumulator, not a pipeline). */
  readonly accumulator: boolean;
  /**
   * False when every movable particle's acceleration|radius lane holds what
   * the step would use as +0 (ACCELERATION_LANE of shaders/integrate.wgsl):
   * the lane is not read. A pipeline of its own; read when left out.
   */
  readonly accelerationLane?: boolean;
}

/** The key of `fusion`'s pipeline. */
export function fusedStepKey(fusion: FusedStep): string {
  return [
    fusion.forces ? `forces(${fusion.forces.key})` : '',
    fusion.colliders ? `colliders(${fusion.colliders.key})` : '',
    fusion.accelerationLane === false ? 'no acceleration lane' : '',
  ]
    .filter((part) => part !== '')
    .join(' + ');
}

export class FusedPipelineCache {
  private readonly kernels = new KernelCache(MAX_FUSED_PIPELINES);

  /**
   * `groups`: the step's own bind group layouts after the particle state's,
   * in order; the forces' group follows them, then the colliders', and `code`
   * gets their indices to declare.
   */
  constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly label: string,
    private readonly groups: readonly GPUBindGroupLayout[],
    private readonly code: (fusion: StepFusion) => string,
    private readonly constants: Record<string, number>,
    /** How the step runs over a chunked system (src/gpu/kernel.ts, PerChunk): over every slot by a count, chunk by chunk; over the live list, once per chunk. */
    private readonly perChunk: PerChunk = false,
  ) {}

  /** The bind group index of the forces' table and masks (when fused). */
  get forcesGroup(): number {
    return this.groups.length + 1;
  }

  /** The bind group index of the colliders' table: after the forces' when both are fused. */
  collidersGroup(fusion: FusedStep): number {
    return this.forcesGroup + (fusion.forces ? 1 : 0);
  }

  /** The kernel for `fusion` (created synchronously: the caller's error scopes catch failures). */
  get(fusion: FusedStep): Kernel {
    const key = fusedStepKey(fusion);
    const { forces, colliders } = fusion;
    return this.kernels.get(key, () =>
      Kernel.create(this.device, this.particles, {
        name: `${this.label}.fused(${key})`,
        file: `${this.label}: integrate.wgsl + ${key}`,
        code: this.code({
          forces: forces ? { composition: forces.composition, group: this.forcesGroup } : undefined,
          colliders: colliders ? { composition: colliders.composition, group: this.collidersGroup(fusion) } : undefined,
        }),
        constants: {
          ...this.constants,
          ...(colliders ? { SKIN: colliders.skin } : {}),
          ...(fusion.accelerationLane === false ? { ACCELERATION_LANE: 0 } : {}),
        },
        groups: [...this.groups, ...(forces ? [forces.layout] : []), ...(colliders ? [colliders.layout] : [])],
        perChunk: this.perChunk,
      }),
    );
  }

  /** The bind groups after the step's own for `fusion`. */
  static bindings(fusion: FusedStep): BoundGroup[] {
    return [
      ...(fusion.forces ? [{ group: fusion.forces.bindGroup, offsets: [fusion.forces.offset] }] : []),
      ...(fusion.colliders ? [fusion.colliders.bindGroup] : []),
    ];
  }
}
