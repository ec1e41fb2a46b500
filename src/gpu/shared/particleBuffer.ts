/**
 * The particle state on the GPU: packed records (see src/core/layout.ts) in
 * one storage buffer, or in chunks when one binding cannot hold them, and
 * the bind group layout every pass shares for them.
 */
import { GpuHealth } from './health';
import { BYTES_PER_PARTICLE, FLOATS_PER_PARTICLE, type ParticleChunking } from '../../core/layout';
import { SparkworksInputError } from '../../core/errors';
import { checkCapacity } from '../../core/particles';
import { SubmitWindow } from './uniformRing';

/** Particles a host chunk of a bulk write holds (4 MiB of records): small enough to stay in cache while it is packed. */
export const WRITE_CHUNK = 1 << 16;

/**
 * Storage buffers a pass that binds every chunk binds besides them, at
 * most, by what a system runs. Pair springs and the render passes bind up
 * to 3 (spring tables; look, sort and trail buffers); the contact resolver
 * (particle contacts, links) up to 7 (candidates, cells, corrections ...).
 * Passes that touch only slots of one chunk at a time (the step, forces and
 * colliders over every slot or the live list, and the lifecycle's ageing,
 * compaction and emission) run chunk by chunk and bind one
 * (src/gpu/shared/kernel.ts, PerChunk), so emitters add nothing here. What is left
 * of the device's maxStorageBuffersPerShaderStage caps the chunks;
 * src/gpu/shared/kernel.ts checks every kernel against it.
 */
export const STORAGE_BESIDE_PARTICLES = {
  /** Without particle contacts or links: the step, forces, springs, colliders, emitters, the render passes. */
  step: 3,
  /** With particle contacts or links (the contact resolver). */
  contacts: 7,
  /**
   * Kept for code written against it: what `contacts` says. Emitters and
   * fireworks used to need it too; they now need no more than `step`.
   */
  lifecycleOrContacts: 7,
} as const;

/** The fewest particles a forced chunk may hold (256 bytes of records): small enough to test many chunks. */
const MIN_CHUNK_PARTICLES = 4;

/**
 * How `capacity` particles are split across storage bindings on `device`:
 * null (one binding) when one binding holds them and no chunk size is
 * forced; otherwise chunks of the largest power of two of particles one
 * binding holds (or `chunkParticles`, a power of two, to test chunking at
 * small sizes). Refuses, naming the limits, a capacity that needs more
 * chunks than the device's storage bindings per pass allow.
 */
export function particleChunking(
  device: GPUDevice,
  capacity: number,
  {
    chunkParticles,
    besideParticles = STORAGE_BESIDE_PARTICLES.contacts,
    slotBytes,
    slotRecords = 'its per-slot records',
  }: ChunkingOptions = {},
): ParticleChunking | null {
  const perBinding = ParticleBuffer.maxPerBinding(device);
  const allowed = ParticleBuffer.maxChunks(device, besideParticles);
  const bindingBytes = Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize);
  const slotLimit = slotBytes ? Math.floor(bindingBytes / slotBytes) : Infinity;
  if (slotLimit < ParticleBuffer.maxParticles(device, besideParticles)) {
    checkCapacity(
      capacity,
      slotLimit,
      `one storage binding of ${bindingBytes} bytes (this device's maxStorageBufferBindingSize and maxBufferSize) for ${slotRecords} at ${slotBytes} bytes a slot`,
      "; request the device with the adapter's limits (acquireDevice does), or lower the capacity",
    );
  }
  const most = ParticleBuffer.maxParticles(device, besideParticles);
  const limit = device.limits.maxStorageBuffersPerShaderStage;
  const limits = `this device's maxStorageBufferBindingSize of ${device.limits.maxStorageBufferBindingSize} bytes and maxBufferSize of ${device.limits.maxBufferSize} bytes (${perBinding} particles a storage binding at ${BYTES_PER_PARTICLE} bytes a particle), in at most ${allowed} chunk${allowed === 1 ? '' : 's'}: its maxStorageBuffersPerShaderStage of ${limit} less the ${besideParticles} storage buffers a pass of this system binds besides the particles`;
  const raise =
    '; to raise it, request the device with requiredLimits: { maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize, ' +
    'maxBufferSize: adapter.limits.maxBufferSize, maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage } ' +
    "(the adapter's limits are the most a device can be given; acquireDevice asks for them), or lower the capacity";
  checkCapacity(capacity, most, limits, raise);
  if (chunkParticles === undefined && capacity <= perBinding) return null;
  if (chunkParticles !== undefined) {
    const valid =
      Number.isInteger(chunkParticles) &&
      chunkParticles >= MIN_CHUNK_PARTICLES &&
      chunkParticles <= perBinding &&
      (chunkParticles & (chunkParticles - 1)) === 0;
    if (!valid)
      throw new SparkworksInputError(
        `chunkParticles must be a power of two in [${MIN_CHUNK_PARTICLES}, ${perBinding}] (what one storage binding of this device holds); got ${chunkParticles}`,
        'chunkParticles',
        chunkParticles,
      );
  }
  const chunk = chunkParticles ?? 2 ** Math.floor(Math.log2(perBinding));
  const shift = Math.log2(chunk);
  const chunks = Math.max(1, Math.ceil(capacity / chunk));
  // Only a forced chunk size can ask for more chunks than `most` allowed.
  if (chunks > allowed)
    checkCapacity(capacity, allowed * chunk, `${allowed} chunks of chunkParticles = ${chunk}: ${limits}`, raise);
  return chunks === 1 && chunkParticles === undefined ? null : { chunks, shift };
}

/**
 * Where a system's particle records are, for passes of its own and for the
 * renderer: its buffers in slot order and how they are split (null: one
 * buffer). A ParticleBuffer is one; so is a plain buffer of records
 * (`storeOf`).
 */
export interface ParticleStore {
  /** The buffers of records, one a chunk, in slot order (one buffer unchunked). */
  readonly buffers: readonly GPUBuffer[];
  /** How the records are split across `buffers`; null: one buffer. */
  readonly chunking: ParticleChunking | null;
  /** Records the buffers hold in all. */
  readonly capacity: number;
}

/** `particles` as a store: a plain buffer of records is one unchunked buffer of as many records as fit. */
export function storeOf(particles: GPUBuffer | ParticleStore): ParticleStore {
  if ('buffers' in particles) return particles;
  return { buffers: [particles], chunking: null, capacity: Math.floor(particles.size / BYTES_PER_PARTICLE) };
}

/** `chunking` as a cache key: 'one', or chunks x 2^shift. */
export function chunkingKey(chunking: ParticleChunking | null): string {
  return chunking ? `${chunking.chunks}x2^${chunking.shift}` : 'one';
}

/** How a system's records may be split: a forced chunk size, and the storage buffers its passes bind besides. */
export interface ChunkingOptions {
  /** Particles a chunk, a power of two (tests); default: the largest power of two one binding holds. */
  chunkParticles?: number;
  /** See STORAGE_BESIDE_PARTICLES; default the most. */
  besideParticles?: number;
  /**
   * The largest per-slot record the system keeps in one binding beside the
   * particles (32-byte life records with emitters, the contact resolver's
   * records), which caps the capacity at what one binding holds of it; and
   * what it is, for the refusal.
   */
  slotBytes?: number;
  slotRecords?: string;
}

/**
 * The particle records of one system: one storage buffer, or, beyond what
 * one binding holds, one buffer per chunk (src/core/layout.ts,
 * wgslParticleStore). Every pass binds them all as group 0 and its shader
 * reaches a slot through the store's accessors, so the passes are the same
 * for one chunk and many.
 */
export class ParticleBuffer implements ParticleStore {
  /** The buffers, one per chunk (one for an unchunked system), in slot order. */
  readonly buffers: readonly GPUBuffer[];
  /** How the records are split; null: one binding. */
  readonly chunking: ParticleChunking | null;
  /** Particles a chunk holds (the capacity, unchunked). */
  readonly chunkParticles: number;
  /** Group 0 of every per-particle pass: the state, read-write. */
  readonly bindGroupLayout: GPUBindGroupLayout;
  readonly bindGroup: GPUBindGroup;
  /**
   * Chunked: group 0 of a kernel run chunk by chunk that binds only the
   * chunk it runs for (src/gpu/shared/kernel.ts, perChunk), and each chunk's bind
   * group; null and empty unchunked.
   */
  readonly chunkBindGroupLayout: GPUBindGroupLayout | null;
  readonly chunkBindGroups: readonly GPUBindGroup[];
  /** Particles gone non-finite and the policy for them: bound by the step and the colliders pass. */
  readonly health: GpuHealth;
  /** The submits of the system that owns this state: every pass's uniform ring reclaims slots by it. */
  readonly submissions = new SubmitWindow();
  private destroyed = false;

  /** The most particles one storage binding on `device` can hold. */
  static maxPerBinding(device: GPUDevice): number {
    const bytes = Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize);
    return Math.floor(bytes / BYTES_PER_PARTICLE);
  }

  /** The most chunks a pass that binds `besideParticles` other storage buffers can bind on `device`. */
  static maxChunks(device: GPUDevice, besideParticles: number = STORAGE_BESIDE_PARTICLES.contacts): number {
    return Math.max(1, device.limits.maxStorageBuffersPerShaderStage - besideParticles);
  }

  /**
   * The most particles a system on `device` can hold: one binding's worth,
   * or every chunk its passes' storage bindings allow (see
   * STORAGE_BESIDE_PARTICLES), each the largest power of two one binding holds.
   */
  static maxParticles(device: GPUDevice, besideParticles: number = STORAGE_BESIDE_PARTICLES.contacts): number {
    const perBinding = ParticleBuffer.maxPerBinding(device);
    const chunks = ParticleBuffer.maxChunks(device, besideParticles);
    return Math.max(perBinding, chunks * 2 ** Math.floor(Math.log2(perBinding)));
  }

  constructor(
    readonly device: GPUDevice,
    readonly capacity: number,
    options: ChunkingOptions = {},
  ) {
    this.chunking = particleChunking(device, capacity, options);
    this.chunkParticles = this.chunking ? 2 ** this.chunking.shift : capacity;
    const chunks = this.chunking?.chunks ?? 1;
    this.buffers = Array.from({ length: chunks }, (_, k) =>
      device.createBuffer({
        label: this.chunking ? `ParticleBuffer.state[${k}]` : 'ParticleBuffer.state',
        size: Math.max(this.chunkSize(k), 1) * BYTES_PER_PARTICLE,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC | GPUBufferUsage.VERTEX,
      }),
    );
    this.health = new GpuHealth(device);
    this.bindGroupLayout = device.createBindGroupLayout({
      label: 'ParticleBuffer.layout',
      entries: this.buffers.map((_, binding) => ({
        binding,
        visibility: GPUShaderStage.COMPUTE,
        buffer: { type: 'storage' as const },
      })),
    });
    this.bindGroup = device.createBindGroup({
      label: 'ParticleBuffer.bindGroup',
      layout: this.bindGroupLayout,
      entries: this.buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    const chunkLayout = this.chunking
      ? device.createBindGroupLayout({
          label: 'ParticleBuffer.chunkLayout',
          entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' as const } }],
        })
      : null;
    this.chunkBindGroupLayout = chunkLayout;
    this.chunkBindGroups = chunkLayout
      ? this.buffers.map((buffer, k) =>
          device.createBindGroup({
            label: `ParticleBuffer.chunkBindGroup[${k}]`,
            layout: chunkLayout,
            entries: [{ binding: 0, resource: { buffer } }],
          }),
        )
      : [];
  }

  /** Particles chunk `k` holds: whole chunks, and the rest of the capacity in the last. */
  chunkSize(k: number): number {
    return Math.min(this.chunkParticles, this.capacity - k * this.chunkParticles);
  }

  /**
   * The one buffer of an unchunked system (what the renderer and passes of
   * your own bind). A chunked system has several: see `buffers`.
   */
  get buffer(): GPUBuffer {
    if (this.chunking)
      throw new RangeError(
        `this system's ${this.capacity} particles are in ${this.buffers.length} buffers of ${this.chunkParticles} (more than one storage binding holds): bind \`buffers\` through the particle store's chunked accessors, not one buffer`,
      );
    return this.buffers[0] as GPUBuffer;
  }

  /** `visit(buffer, offset in its chunk, first particle of the range there, count)` for each chunk's part of [start, start + count). */
  forEachChunk(
    start: number,
    count: number,
    visit: (buffer: GPUBuffer, at: number, first: number, n: number) => void,
  ): void {
    let first = 0;
    while (first < count) {
      const slot = start + first;
      const k = Math.floor(slot / this.chunkParticles);
      const at = slot - k * this.chunkParticles;
      const n = Math.min(count - first, this.chunkParticles - at);
      visit(this.buffers[k] as GPUBuffer, at, first, n);
      first += n;
    }
  }

  /** Writes whole packed records at particle `start`. */
  write(start: number, packed: Float32Array): void {
    this.forEachChunk(start, packed.length / FLOATS_PER_PARTICLE, (buffer, at, first, n) => {
      const records = packed.subarray(first * FLOATS_PER_PARTICLE, (first + n) * FLOATS_PER_PARTICLE);
      this.device.queue.writeBuffer(buffer, at * BYTES_PER_PARTICLE, records as Float32Array<ArrayBuffer>);
    });
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
      this.forEachChunk(start, count, (buffer, at, first, n) =>
        encoder.copyBufferToBuffer(
          buffer,
          at * BYTES_PER_PARTICLE,
          staging,
          first * BYTES_PER_PARTICLE,
          n * BYTES_PER_PARTICLE,
        ),
      );
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
    for (const buffer of this.buffers) buffer.destroy();
    this.health.destroy();
  }
}
