/**
 * A history of particle states on the GPU: after each step the caller asks
 * for, the first `count` particle records are copied (copyBufferToBuffer, no
 * shader, no readback) into the next sample of a buffer of Particle records,
 * sample after sample. The particle pass draws it like any particle buffer
 * (every n-th sample with `sampleStride`), and `read` brings it back for a
 * check against the CPU reference. Meant for small counts: it is the
 * trajectory, not the rendering path.
 */
import { BYTES_PER_PARTICLE, FLOATS_PER_PARTICLE } from '../core/layout';

/**
 * A history of particle states on the GPU: each `record` copies the first
 * `count` particle records into the next sample (no shader, no readback).
 */
export class TrailRecorder {
  /** The samples, one after another, as Particle records (draw it with ParticlePass, `sampleStride`). */
  readonly buffer: GPUBuffer;
  /** Samples recorded so far. */
  recorded = 0;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    private readonly source: GPUBuffer,
    /** Particle records copied a sample: the first `count` of the source. */
    readonly count: number,
    /** Samples it holds; `record` does nothing once full. */
    readonly capacity: number,
    /** Labels its buffers: `${label}.samples`, `${label}.readback`. */
    readonly label = 'TrailRecorder',
  ) {
    this.buffer = device.createBuffer({
      label: `${label}.samples`,
      size: Math.max(1, count * capacity) * BYTES_PER_PARTICLE,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
  }

  /** Whether `capacity` samples are recorded. */
  get full(): boolean {
    return this.recorded >= this.capacity;
  }

  /** Records the source's current state as the next sample into `encoder` (nothing once full). */
  record(encoder: GPUCommandEncoder): void {
    if (this.destroyed || this.full) return;
    const bytes = this.count * BYTES_PER_PARTICLE;
    encoder.copyBufferToBuffer(this.source, 0, this.buffer, this.recorded * bytes, bytes);
    this.recorded++;
  }

  /** Starts over: the next `record` writes sample 0. */
  reset(): void {
    this.recorded = 0;
  }

  /** The recorded samples as packed Particle records (sample-major), read back through a staging buffer. */
  async read(): Promise<Float32Array> {
    const bytes = this.recorded * this.count * BYTES_PER_PARTICLE;
    if (bytes === 0) return new Float32Array(0);
    const staging = this.device.createBuffer({
      label: `${this.label}.readback`,
      size: bytes,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    try {
      const encoder = this.device.createCommandEncoder({ label: `${this.label}.read` });
      encoder.copyBufferToBuffer(this.buffer, 0, staging, 0, bytes);
      this.device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const out = new Float32Array(bytes / 4);
      out.set(new Float32Array(staging.getMappedRange()));
      staging.unmap();
      return out;
    } finally {
      staging.destroy();
    }
  }

  /** Positions only, xyz per particle per sample. */
  static positions(records: Float32Array): Float32Array {
    const n = records.length / FLOATS_PER_PARTICLE;
    const out = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) out.set(records.subarray(i * FLOATS_PER_PARTICLE, i * FLOATS_PER_PARTICLE + 3), i * 3);
    return out;
  }

  /** Frees the samples' buffer. Safe twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.buffer.destroy();
  }
}
