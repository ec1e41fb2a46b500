/**
 * Times a span of GPU work recorded into a command encoder: with the
 * `timestamp-query` feature, two empty compute passes write a timestamp at
 * the span's start and end and the pair is resolved and read back a few
 * frames later (never waited on); without it, the span is submitted on its own
 * and timed from submit to `onSubmittedWorkDone` on the host, which also
 * counts queue latency and is reported as approximate.
 */

export interface GpuTiming {
  /** Milliseconds, smoothed. NaN until a first measurement. */
  milliseconds: number;
  /** 'timestamp-query', or 'host' (submit to done: an upper bound). */
  source: 'timestamp-query' | 'host';
}

const READBACK_BUFFERS = 3;
const SMOOTHING = 0.1;

/** Times a span of GPU work each frame: by timestamp queries where the device has them, else on the host. */
export class GpuTimer {
  /** How it times: `timestamp-query` where the device has the feature, else `host`. */
  readonly source: GpuTiming['source'];
  private readonly querySet: GPUQuerySet | null = null;
  private readonly resolveBuffer: GPUBuffer | null = null;
  private readonly free: GPUBuffer[] = [];
  private readonly all: GPUBuffer[] = [];
  private pending: GPUBuffer | null = null;
  private hostInFlight = false;
  private smoothed = Number.NaN;
  private destroyed = false;

  constructor(private readonly device: GPUDevice) {
    this.source = device.features.has('timestamp-query') ? 'timestamp-query' : 'host';
    if (this.source === 'timestamp-query') {
      this.querySet = device.createQuerySet({ label: 'GpuTimer.querySet', type: 'timestamp', count: 2 });
      this.resolveBuffer = device.createBuffer({
        label: 'GpuTimer.resolve',
        size: 16,
        usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
      });
      for (let i = 0; i < READBACK_BUFFERS; i++) {
        const buffer = device.createBuffer({
          label: `GpuTimer.readback[${i}]`,
          size: 16,
          usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
        });
        this.free.push(buffer);
        this.all.push(buffer);
      }
    }
  }

  /** The latest smoothed time and how it was measured. */
  get timing(): GpuTiming {
    return { milliseconds: this.smoothed, source: this.source };
  }

  /**
   * Records `work` between two timestamps into `encoder`. Without timestamp
   * queries, `work` gets an encoder of its own that is submitted at once.
   */
  time(encoder: GPUCommandEncoder, work: (encoder: GPUCommandEncoder) => void): void {
    if (this.destroyed) {
      work(encoder);
      return;
    }
    if (!this.querySet || !this.resolveBuffer) {
      this.timeOnHost(work);
      return;
    }
    const querySet = this.querySet;
    encoder
      .beginComputePass({ label: 'GpuTimer.start', timestampWrites: { querySet, beginningOfPassWriteIndex: 0 } })
      .end();
    work(encoder);
    encoder.beginComputePass({ label: 'GpuTimer.end', timestampWrites: { querySet, endOfPassWriteIndex: 1 } }).end();
    const target = this.pending === null ? this.free.pop() : undefined;
    if (target) {
      encoder.resolveQuerySet(querySet, 0, 2, this.resolveBuffer, 0);
      encoder.copyBufferToBuffer(this.resolveBuffer, 0, target, 0, 16);
      this.pending = target;
    }
  }

  /** Call after submitting the encoder passed to `time`: starts reading the result back. */
  afterSubmit(): void {
    const buffer = this.pending;
    if (!buffer) return;
    this.pending = null;
    buffer.mapAsync(GPUMapMode.READ).then(
      () => {
        if (this.destroyed) return;
        const [start, end] = new BigInt64Array(buffer.getMappedRange());
        buffer.unmap();
        this.free.push(buffer);
        // Timestamps may be quantised or, across a power-state change, out of order: keep sane values only.
        if (start !== undefined && end !== undefined && end >= start) this.record(Number(end - start) / 1e6);
      },
      () => {
        // Mapping fails only when the device is lost or the timer destroyed: nothing to report.
      },
    );
  }

  private timeOnHost(work: (encoder: GPUCommandEncoder) => void): void {
    const encoder = this.device.createCommandEncoder({ label: 'GpuTimer.hostTimed' });
    work(encoder);
    this.device.queue.submit([encoder.finish()]);
    if (this.hostInFlight) return;
    this.hostInFlight = true;
    const started = performance.now();
    this.device.queue.onSubmittedWorkDone().then(
      () => {
        this.hostInFlight = false;
        this.record(performance.now() - started);
      },
      () => {
        this.hostInFlight = false;
      },
    );
  }

  private record(ms: number): void {
    this.smoothed = Number.isNaN(this.smoothed) ? ms : this.smoothed + (ms - this.smoothed) * SMOOTHING;
  }

  /** Frees its query set and buffers; later spans are recorded untimed. Safe twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.querySet?.destroy();
    this.resolveBuffer?.destroy();
    for (const buffer of this.all) buffer.destroy();
  }
}
