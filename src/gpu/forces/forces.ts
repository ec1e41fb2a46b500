/**
 * The force passes of a GPU system: the registry's field forces
 * (ForcesPass: as a pass of their own, or the table the fused step binds)
 * and the pair springs (SpringsPass), each created on first use inside the
 * caller's error scopes. Owns both and destroys them.
 */
import type { ForceRegistry, SpringNetwork } from '../../core/forces/registry';
import { ForcesPass, type FusedForces, type PreparedForces } from './forcesPass';
import type { LiveDispatch } from '../lifecycle/lifeBuffers';
import type { ParticleBuffer } from '../shared/particleBuffer';
import { SpringsPass } from './springsPass';

/** Records the force passes of one step into a compute pass. */
export type RecordForces = (pass: GPUComputePassEncoder) => void;

export class GpuForces {
  private forcesPass: ForcesPass | null = null;
  private springsPass: SpringsPass | null = null;

  constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly registry: ForceRegistry,
    private readonly springs: SpringNetwork,
    private readonly workgroupSize: number,
  ) {}

  private fields(): ForcesPass {
    this.forcesPass ??= ForcesPass.create(this.device, this.particles, this.workgroupSize);
    return this.forcesPass;
  }

  /** Uploads what changed in the registry and returns what the fused step binds. */
  prepareFused(dt: number): FusedForces {
    return this.fields().prepareFused(this.registry, dt, this.particles.capacity);
  }

  /**
   * Uploads what changed in the registry and the links and returns what
   * records the force passes of one step, or null when there are none. With
   * `live` (a system with emitters), the field forces run over the live list.
   */
  prepare(dt: number, live: LiveDispatch | null = null): RecordForces | null {
    const fields = this.registry.size > 0;
    const pairs = this.springs.size > 0;
    if (!fields && !pairs) return null;
    const capacity = this.particles.capacity;
    const prepared: PreparedForces | null = fields
      ? this.fields().prepare(this.registry, dt, capacity, live ?? undefined)
      : null;
    if (pairs) {
      this.springsPass ??= SpringsPass.create(this.device, this.particles, this.workgroupSize);
      this.springsPass.prepare(this.springs);
    }
    return (pass) => {
      if (prepared && live) this.forcesPass?.recordLive(pass, prepared, live);
      else if (prepared) this.forcesPass?.record(pass, prepared, capacity);
      if (pairs) this.springsPass?.record(pass);
    };
  }

  /** Frees the passes it created. Safe twice. */
  destroy(): void {
    this.forcesPass?.destroy();
    this.springsPass?.destroy();
    this.forcesPass = null;
    this.springsPass = null;
  }
}
