/**
 * The particle state on the GPU: one storage buffer of packed records (see
 * src/core/layout.ts) and the bind group layout every pass shares for it.
 */
import { BYTES_PER_PARTICLE, FLOATS_PER_PARTICLE } from '../core/layout';
import { checkCapacity } from '../core/particles';
import { SubmitWindow } from './uniformRing';

export class ParticleBuffer {
  readonly buffer: GPUBuffer;
  /** Group 0 of every per-particle pass: the state, read-write. */
  readonly bindGroupLayout: GPUBindGroupLayout;
  readonly bindGroup: GPUBindGroup;
  /** The submits of the system that owns this state: every pass's uniform ring reclaims slots by it. */
  readonly submissions = new SubmitWindow();
  private destroyed = false;

  /** The most particles one storage binding on `device` can hold. */
  static maxParticles(device: GPUDevice): number {
    const bytes = Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize);
    return Math.floor(bytes / BYTES_PER_PARTICLE);
  }

  constructor(
    readonly device: GPUDevice,
    readonly capacity: number,
  ) {
    checkCapacity(
      capacity,
      ParticleBuffer.maxParticles(device),
      `this device (maxStorageBufferBindingSize ${device.limits.maxStorageBufferBindingSize} bytes, ` +
        `maxBufferSize ${device.limits.maxBufferSize} bytes, ${BYTES_PER_PARTICLE} bytes a particle)`,
    );
    this.buffer = device.createBuffer({
      label: 'ParticleBuffer.state',
      size: capacity * BYTES_PER_PARTICLE,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC | GPUBufferUsage.VERTEX,
    });
    this.bindGroupLayout = device.createBindGroupLayout({
      label: 'ParticleBuffer.layout',
      entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } }],
    });
    this.bindGroup = device.createBindGroup({
      label: 'ParticleBuffer.bindGroup',
      layout: this.bindGroupLayout,
      entries: [{ binding: 0, resource: { buffer: this.buffer } }],
    });
  }

  /** Writes whole packed records at particle `start`. */
  write(start: number, packed: Float32Array): void {
    this.device.queue.writeBuffer(this.buffer, start * BYTES_PER_PARTICLE, packed as Float32Array<ArrayBuffer>);
  }

  /** Copies particles [start, start + count) back to the host as packed records. */
  async read(start: number, count: number): Promise<Float32Array> {
    if (count === 0) return new Float32Array(0);
    const size = count * BYTES_PER_PARTICLE;
    const staging = this.device.createBuffer({
      label: 'ParticleBuffer.readback',
      size,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    try {
      const encoder = this.device.createCommandEncoder({ label: 'ParticleBuffer.read' });
      encoder.copyBufferToBuffer(this.buffer, start * BYTES_PER_PARTICLE, staging, 0, size);
      this.device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const out = new Float32Array(count * FLOATS_PER_PARTICLE);
      out.set(new Float32Array(staging.getMappedRange()));
      staging.unmap();
      return out;
    } finally {
      staging.destroy();
    }
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.buffer.destroy();
  }
}
