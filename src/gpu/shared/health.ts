/**
 * The GPU's health record (src/core/nonFinite.ts): HEALTH.words atomics that
 * the step and the colliders pass (shaders/shared/health.wgsl) bump when a
 * particle's state goes non-finite, and the policy word they read when one
 * does. Owned by the ParticleBuffer of a system.
 */
import { NO_PARTICLE } from '../../core/collisions/links';
import { HEALTH, NON_FINITE_POLICIES, type NonFinitePolicy } from '../../core/nonFinite';

export class GpuHealth {
  readonly buffer: GPUBuffer;
  private destroyed = false;
  /** The policy written; passes created after it compile the test in or out (healthConstants). */
  private policy: NonFinitePolicy = 'report';

  constructor(private readonly device: GPUDevice) {
    this.buffer = device.createBuffer({
      label: 'ParticleBuffer.health',
      size: HEALTH.words * 4,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    this.write('report');
  }

  /** Sets the policy (and clears the counts): before the passes are created, which compile the test by it. */
  write(policy: NonFinitePolicy): void {
    this.policy = policy;
    const words = new Uint32Array(HEALTH.words);
    words[HEALTH.firstIndex] = NO_PARTICLE;
    words[HEALTH.policy] = NON_FINITE_POLICIES.indexOf(policy);
    this.device.queue.writeBuffer(this.buffer, 0, words);
  }

  /** Records a copy of the counts into `staging` (at `offset` bytes) on `encoder`. */
  copyTo(encoder: GPUCommandEncoder, staging: GPUBuffer, offset = 0): void {
    encoder.copyBufferToBuffer(this.buffer, 0, staging, offset, HEALTH.words * 4);
  }

  /** The counts now: particles gone non-finite, and the first one seen. */
  async read(): Promise<{ nonFinite: number; firstIndex: number }> {
    const staging = this.device.createBuffer({
      label: 'ParticleBuffer.health.readback',
      size: HEALTH.words * 4,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    try {
      const encoder = this.device.createCommandEncoder({ label: 'ParticleBuffer.health.read' });
      this.copyTo(encoder, staging);
      this.device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const words = new Uint32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      return { nonFinite: words[HEALTH.nonFinite] as number, firstIndex: words[HEALTH.firstIndex] as number };
    } finally {
      staging.destroy();
    }
  }

  /** The CHECK_FINITE override of shaders/shared/health.wgsl: the test compiled out under policy `off`. */
  get constants(): Record<string, number> {
    return { CHECK_FINITE: this.policy === 'off' ? 0 : 1 };
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.buffer.destroy();
  }
}
