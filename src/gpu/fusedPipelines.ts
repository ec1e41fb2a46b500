/**
 * The step's pipelines with a force composition fused in
 * (shaders/integrateForces.wgsl), one per composition, compiled on first use
 * and kept, least recently used out first. Owned by the step passes over
 * every slot (IntegratePass) and over the live list (LiveIntegratePass): they
 * differ only in their leading bind groups and code.
 */
import type { ForceComposition } from '../core/forces/records';
import type { FusedForces } from './forcesPass';
import { Kernel, KernelCache } from './kernel';
import type { ParticleBuffer } from './particleBuffer';

/** Fused pipelines kept per step pass. */
const MAX_FUSED_PIPELINES = 16;

export class FusedPipelineCache {
  private readonly kernels = new KernelCache(MAX_FUSED_PIPELINES);

  /**
   * `groups`: the step's own bind group layouts after the particle state's,
   * in order; the forces' group follows them, and `code` gets its index to declare.
   */
  constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly label: string,
    private readonly groups: readonly GPUBindGroupLayout[],
    private readonly code: (composition: ForceComposition, forcesGroup: number) => string,
    private readonly constants: Record<string, number>,
  ) {}

  /** The bind group index of the forces' table and masks. */
  get forcesGroup(): number {
    return this.groups.length + 1;
  }

  /** The kernel for `forces`' composition (created synchronously: the caller's error scopes catch failures). */
  get(forces: FusedForces): Kernel {
    return this.kernels.get(forces.key, () =>
      Kernel.create(this.device, this.particles, {
        name: `${this.label}.fused(${forces.key})`,
        file: `${this.label}: integrate.wgsl + forces(${forces.key})`,
        code: this.code(forces.composition, this.forcesGroup),
        constants: this.constants,
        groups: [...this.groups, forces.layout],
      }),
    );
  }
}
