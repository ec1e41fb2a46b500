/**
 * The step's pipelines with a force composition fused in
 * (shaders/integrateForces.wgsl), one per composition, compiled on first use
 * and kept, least recently used out first. Owned by the step passes over
 * every slot (IntegratePass) and over the live list (LiveIntegratePass): they
 * differ only in their leading bind groups and code.
 */
import type { ForceComposition } from '../core/forces/records';
import type { FusedForces } from './forcesPass';

/** Fused pipelines kept per step pass. */
const MAX_FUSED_PIPELINES = 16;

export class FusedPipelineCache {
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  private layout: GPUPipelineLayout | null = null;

  /**
   * `groups`: the step's own bind group layouts, in order; the forces' group
   * follows them, and `code` gets its index to declare.
   */
  constructor(
    private readonly device: GPUDevice,
    private readonly label: string,
    private readonly groups: readonly GPUBindGroupLayout[],
    private readonly code: (composition: ForceComposition, forcesGroup: number) => string,
    private readonly constants: Record<string, number>,
  ) {}

  /** The bind group index of the forces' table and masks. */
  get forcesGroup(): number {
    return this.groups.length;
  }

  /** The pipeline for `forces`' composition (created synchronously: the caller's error scopes catch failures). */
  get(forces: FusedForces): GPUComputePipeline {
    let pipeline = this.pipelines.get(forces.key);
    if (pipeline) {
      this.pipelines.delete(forces.key);
    } else {
      this.layout ??= this.device.createPipelineLayout({
        label: `${this.label}.fusedPipelineLayout`,
        bindGroupLayouts: [...this.groups, forces.layout],
      });
      pipeline = this.device.createComputePipeline({
        label: `${this.label}.fusedPipeline(${forces.key})`,
        layout: this.layout,
        compute: {
          module: this.device.createShaderModule({
            label: `${this.label}: integrate.wgsl + forces(${forces.key})`,
            code: this.code(forces.composition, this.forcesGroup),
          }),
          entryPoint: 'main',
          constants: this.constants,
        },
      });
      if (this.pipelines.size >= MAX_FUSED_PIPELINES) {
        this.pipelines.delete(this.pipelines.keys().next().value as string);
      }
    }
    this.pipelines.set(forces.key, pipeline);
    return pipeline;
  }
}
