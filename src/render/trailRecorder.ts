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

export class TrailRecorder {
  readonly buffer: GPUBuffer;
  /** Samples recorded so far. */
  recorded = 0;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    private readonly source: GPUBuffer,
    readonly count: number,
    readonly capacity: number,
    readonly label = 'TrailRecorder',
  ) {
    this.buffer = device.createBuffer({
      label: `${label}.samples`,
      size: Math.max(1, count * capacity) * BYTES_PER_PARTICLE,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
  }

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

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.buffer.destroy();
  }
}
