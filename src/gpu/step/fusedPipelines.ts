/**
 * The step's pipelines with work fused in: a force composition
 * (shaders/forces/integrateForces.wgsl), a collider composition
 * (shaders/collisions/fusedColliders.wgsl), either or both, one per combination, compiled on first use and kept, least recently used out
 * first. Owned by the step passes over every slot (IntegratePass) and over
 * the live list (LiveIntegratePass): they differ only in their leading bind
 * groups and code. The step over the live list has a group of its own more,
 * so with both fused the colliders' table joins the forces' group there.
 */
import { FUSED_COLLIDERS_BINDING, type FusedColliders } from '../collisions/collisions';
import { FORCES_BINDINGS, type FusedForces } from '../forces/forcesPass';
import { computeLayout, Kernel, KernelCache, type BoundGroup, type PerChunk } from '../shared/kernel';
import type { ParticleBuffer } from '../shared/particleBuffer';
import type { ParticleStoreChunks, StepFusion } from '../../shaders';

/** Fused pipelines kept per step pass. */
const MAX_FUSED_PIPELINES = 16;

/** The bind groups a pipeline may use on any device (WebGPU's default maxBindGroups; Dawn allows no more). */
const MAX_BIND_GROUPS = 4;

/** What one step's pipeline has fused in, and the bind groups that go with it. */
export interface FusedStep {
  readonly forces: FusedForces | null;
  readonly colliders: FusedColliders | null;
  /** False when nothing wrote the force accumulator since the last step cleared it: neither read nor cleared (StepParams.forceAccumulator, not a pipeline). */
  readonly accumulator: boolean;
  /**
   * False when every movable particle's acceleration|radius lane holds what
   * the step would use as +0 (ACCELERATION_LANE of shaders/step/integrate.wgsl):
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
   * Where the colliders' table has no group of its own (sharesGroup): the
   * forces' bindings and the table in one group, its layout, and the group
   * for the forces' and the colliders' current bind groups (made on first use).
   */
  private sharedLayout: GPUBindGroupLayout | null = null;
  private shared: { forces: GPUBindGroup; colliders: GPUBindGroup; group: GPUBindGroup } | null = null;

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
    private readonly code: (fusion: StepFusion, store: ParticleStoreChunks) => string,
    private readonly constants: Record<string, number>,
    /** How the step runs over a chunked system (src/gpu/shared/kernel.ts, PerChunk): over every slot by a count, chunk by chunk; over the live list, once per chunk. */
    private readonly perChunk: PerChunk = false,
  ) {}

  /** The bind group index of the forces' table and masks (when fused). */
  get forcesGroup(): number {
    return this.groups.length + 1;
  }

  /**
   * Whether `fusion`'s colliders' table is bound in the forces' group, after
   * their bindings: both are fused and a group after the forces' would pass
   * the limit (the step over the live list has a group of its own more).
   */
  private sharesGroup(fusion: FusedStep): boolean {
    return fusion.forces !== null && fusion.colliders !== null && this.forcesGroup + 1 >= MAX_BIND_GROUPS;
  }

  /** The bind group index of the colliders' table: after the forces' when both are fused (or the forces' own). */
  collidersGroup(fusion: FusedStep): number {
    return this.forcesGroup + (fusion.forces && !this.sharesGroup(fusion) ? 1 : 0);
  }

  private get layoutShared(): GPUBindGroupLayout {
    this.sharedLayout ??= computeLayout(this.device, `${this.label}.forces+colliders`, [
      ...FORCES_BINDINGS,
      FUSED_COLLIDERS_BINDING,
    ]);
    return this.sharedLayout;
  }

  /** The kernel for `fusion` (created synchronously: the caller's error scopes catch failures). */
  get(fusion: FusedStep): Kernel {
    const key = fusedStepKey(fusion);
    const { forces, colliders } = fusion;
    const shares = this.sharesGroup(fusion);
    const groups = [
      ...(forces ? [shares ? this.layoutShared : forces.layout] : []),
      ...(colliders && !shares ? [colliders.layout] : []),
    ];
    return this.kernels.get(key, () =>
      Kernel.create(this.device, this.particles, {
        name: `${this.label}.fused(${key})`,
        file: `${this.label}: integrate.wgsl + ${key}`,
        code: (store) =>
          this.code(
            {
              forces: forces ? { composition: forces.composition, group: this.forcesGroup } : undefined,
              colliders: colliders
                ? {
                    composition: colliders.composition,
                    group: this.collidersGroup(fusion),
                    binding: shares ? FORCES_BINDINGS.length : 0,
                  }
                : undefined,
            },
            store,
          ),
        constants: {
          ...this.constants,
          ...(colliders ? { SKIN: colliders.skin } : {}),
          ...(fusion.accelerationLane === false ? { ACCELERATION_LANE: 0 } : {}),
        },
        groups: [...this.groups, ...groups],
        perChunk: this.perChunk,
      }),
    );
  }

  /** The bind groups after the step's own for `fusion` (created inside the caller's error scopes). */
  bindings(fusion: FusedStep): BoundGroup[] {
    const { forces, colliders } = fusion;
    if (forces && colliders && this.sharesGroup(fusion)) {
      if (this.shared?.forces !== forces.bindGroup || this.shared.colliders !== colliders.bindGroup) {
        const resources = [...forces.resources, { buffer: colliders.table }];
        const group = this.device.createBindGroup({
          label: `${this.label}.forces+colliders`,
          layout: this.layoutShared,
          entries: resources.map((resource, binding) => ({ binding, resource })),
        });
        this.shared = { forces: forces.bindGroup, colliders: colliders.bindGroup, group };
      }
      return [{ group: this.shared.group, offsets: [forces.offset] }];
    }
    return [
      ...(forces ? [{ group: forces.bindGroup, offsets: [forces.offset] }] : []),
      ...(colliders ? [colliders.bindGroup] : []),
    ];
  }
}
