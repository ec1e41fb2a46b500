/**
 * The particle state on the GPU: one storage buffer of packed records (see
 * src/core/layout.ts) and the bind group layout every pass shares for it.
 */
import { GpuHealth } from './health';
import { BYTES_PER_PARTICLE, FLOATS_PER_PARTICLE } from '../core/layout';
import { checkCapacity } from '../core/particles';
import { SubmitWindow } from './uniformRing';

/** Particles a host chunk of a bulk write holds (4 MiB of records): small enough to stay in cache while it is packed. */
export const WRITE_CHUNK = 1 << 16;

const MIB = 2 ** 20;

/** The device limits that cap the capacity, with what each one caps. */
const CAPACITY_LIMITS = ['maxStorageBufferBindingSize', 'maxBufferSize'] as const;

/**
 * Refuses a capacity whose state (BYTES_PER_PARTICLE bytes a particle) this
 * device's limits cannot hold, naming the limit, its value here, the largest
 * capacity it allows, and how to raise it: WebGPU gives a device its
 * defaults (128 MiB a storage binding, 256 MiB a buffer) unless it is
 * requested with `requiredLimits`, up to the adapter's own limits.
 */
export function checkDeviceCapacity(device: GPUDevice, capacity: number): void {
  const maxParticles = ParticleBuffer.maxParticles(device);
  const bytes = capacity * BYTES_PER_PARTICLE;
  const exceeded = CAPACITY_LIMITS.filter((limit) => bytes > device.limits[limit]);
  const named = (exceeded.length > 0 ? exceeded : CAPACITY_LIMITS)
    .map((limit) => {
      const value = device.limits[limit];
      return `${limit} of ${value} bytes (${Number((value / MIB).toFixed(2))} MiB)`;
    })
    .join(' and ');
  checkCapacity(
    capacity,
    maxParticles,
    `this device's ${named} at ${BYTES_PER_PARTICLE} bytes a particle (${bytes} bytes asked for)`,
    '; to raise it, request the device with requiredLimits: { maxStorageBufferBindingSize: ' +
      'adapter.limits.maxStorageBufferBindingSize, maxBufferSize: adapter.limits.maxBufferSize } ' +
      "(the adapter's limits are the most a device can be given; acquireDevice asks for them), or lower the capacity",
  );
}

export class ParticleBuffer {
  readonly buffer: GPUBuffer;
  /** Group 0 of every per-particle pass: the state, read-write. */
  readonly bindGroupLayout: GPUBindGroupLayout;
  readonly bindGroup: GPUBindGroup;
  /** Particles gone non-finite and the policy for them: bound by the step and the colliders pass. */
  readonly health: GpuHealth;
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
    checkDeviceCapacity(device, capacity);
    this.buffer = device.createBuffer({
      label: 'ParticleBuffer.state',
      size: capacity * BYTES_PER_PARTICLE,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC | GPUBufferUsage.VERTEX,
    });
    this.health = new GpuHealth(device);
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

  /**
   * Writes the records of particles [start, start + count), packed by
   * `pack(chunk, first, n)` (records [first, first + n) of the write, into
   * `chunk` from float 0) WRITE_CHUNK particles at a time into one reused
   * host array: writeBuffer copies at once, so no host array of the whole
   * range is ever made (at 2^20 particles that array's 64 MiB of fresh pages
   * cost more than the upload).
   */
  writeChunked(start: number, count: number, pack: (chunk: Float32Array, first: number, n: number) => void): void {
    const chunk = new Float32Array(Math.min(count, WRITE_CHUNK) * FLOATS_PER_PARTICLE);
    for (let first = 0; first < count; first += WRITE_CHUNK) {
      const n = Math.min(WRITE_CHUNK, count - first);
      pack(chunk, first, n);
      this.write(start + first, chunk.subarray(0, n * FLOATS_PER_PARTICLE));
    }
  }

  /** Writes `record` (one particle's FLOATS_PER_PARTICLE floats) into every slot of [start, start + count). */
  writeRepeated(start: number, count: number, record: Float32Array): void {
    const chunk = new Float32Array(Math.min(count, WRITE_CHUNK) * FLOATS_PER_PARTICLE);
    if (chunk.length === 0) return;
    chunk.set(record);
    for (let filled = FLOATS_PER_PARTICLE; filled < chunk.length; filled *= 2) chunk.copyWithin(filled, 0, filled);
    for (let first = 0; first < count; first += WRITE_CHUNK) {
      const n = Math.min(WRITE_CHUNK, count - first);
      this.write(start + first, chunk.subarray(0, n * FLOATS_PER_PARTICLE));
    }
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
    this.health.destroy();
  }
}
