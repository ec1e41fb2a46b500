/**
 * Owns the field-force pass (shaders/forces/forces.wgsl): its pipelines (one per
 * registry composition, cached), the ring of generator tables they read, and
 * the index-list bitmasks.
 *
 * The table (every record, for one dt) lives in a ring of uniform slots
 * addressed by dynamic offset, one slot per (registry version, dt, count), so
 * steps of different dt, or with parameters changed between them, can be
 * recorded before one submit, and changing a parameter costs one
 * queue.writeBuffer, never a pipeline.
 *
 * Index-list targets are bitmasks (one bit a particle over the list's span)
 * rather than the list itself: membership is one load and a shift, the same
 * for every particle, and neighbouring invocations share the word; a sorted
 * list would need a search per particle. The price, span/8 bytes a list, is
 * 128 KiB for a list spanning 1M particles.
 */
import type { ForceRegistry } from '../../core/forces/registry';
import { TABLE_BYTES, compositionKey, encodeForceTable, type ForceComposition } from '../../core/forces/records';
import { Kernel, KernelCache, computeLayout } from '../shared/kernel';
import type { LiveDispatch } from '../lifecycle/lifeBuffers';
import type { ParticleBuffer } from '../shared/particleBuffer';
import { shaders } from '../../shaders';
import { UniformRing } from '../shared/uniformRing';

const MIN_MASK_BYTES = 16;
/** Pipelines kept per composition; the least recently used one goes first. */
const MAX_PIPELINES = 16;

/** What `record` needs: the kernel for the registry's composition and its table's offset. */
export interface PreparedForces {
  readonly kernel: Kernel;
  readonly offset: number;
}

/** The forces' bind group: the generator table (a ring slot), the target masks. */
export const FORCES_BINDINGS = ['uniform-dynamic', 'read-only-storage'] as const;

/**
 * What the step needs to run the registry's generators fused into it
 * (shaders/forces/integrateForces.wgsl, src/gpu/step/integratePass.ts): the composition,
 * and the table and masks as a bind group (`layout`) at a dynamic offset.
 */
export interface FusedForces {
  readonly composition: ForceComposition;
  readonly key: string;
  readonly layout: GPUBindGroupLayout;
  readonly bindGroup: GPUBindGroup;
  readonly offset: number;
  /** What `bindGroup` binds, in binding order: a step with no group to spare binds them in a group of its own. */
  readonly resources: readonly GPUBindingResource[];
}

export class ForcesPass {
  private readonly tables: UniformRing;
  private masks: GPUBuffer;
  private bindGroup: GPUBindGroup;
  private readonly kernels = new KernelCache(MAX_PIPELINES);
  private masksVersion = -1;
  /**
   * Mask buffers outgrown while command buffers recorded with them may not
   * be submitted yet: freed with the pass.
   */
  private readonly retired: GPUBuffer[] = [];
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly layout: GPUBindGroupLayout,
    readonly workgroupSize: number,
  ) {
    this.tables = new UniformRing(device, 'ForcesPass.tables', TABLE_BYTES, particles.submissions);
    this.masks = this.createMasks(MIN_MASK_BYTES);
    this.bindGroup = this.createBindGroup();
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number): ForcesPass {
    const layout = computeLayout(device, 'ForcesPass.layout', FORCES_BINDINGS);
    return new ForcesPass(device, particles, layout, workgroupSize);
  }

  /**
   * The kernel for the registry's composition, compiled on first use (inside the caller's error scopes);
   * with `live`, its variant over the live list (shaders/lifecycle/liveDispatch.wgsl, src/gpu/lifecycle/lifecycle.ts).
   */
  private kernelFor(registry: ForceRegistry, live?: LiveDispatch): Kernel {
    const composition = registry.composition;
    const key = (live ? 'live:' : '') + compositionKey(composition);
    return this.kernels.get(key, () =>
      Kernel.create(this.device, this.particles, {
        name: `ForcesPass(${key})`,
        file: `forces.wgsl(${key})`,
        code: (store) => (live ? shaders.forcesLive(composition, store) : shaders.forces(composition, store)),
        constants: live
          ? { WORKGROUP_SIZE: this.workgroupSize, CAPACITY: live.capacity }
          : { WORKGROUP_SIZE: this.workgroupSize },
        groups: live ? [this.layout, live.layout] : [this.layout],
        // Over the live list each chunk's run keeps its own chunk's slots (shaders/lifecycle/liveDispatch.wgsl).
        perChunk: live ? 'owner' : true,
      }),
    );
  }

  private createMasks(bytes: number): GPUBuffer {
    return this.device.createBuffer({
      label: 'ForcesPass.masks',
      size: Math.max(MIN_MASK_BYTES, Math.ceil(bytes / 4) * 4),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
  }

  /** The table's ring and the masks, as `bindGroup` binds them (0, 1). */
  private resources(): GPUBindingResource[] {
    return [this.tables.binding, { buffer: this.masks }];
  }

  private createBindGroup(): GPUBindGroup {
    return this.device.createBindGroup({
      label: 'ForcesPass.bindGroup',
      layout: this.layout,
      entries: this.resources().map((resource, binding) => ({ binding, resource })),
    });
  }

  /**
   * Uploads what changed since the last call (the masks, a table slot) and
   * returns the kernel and the table's dynamic offset, to pass to `record`.
   */
  prepare(registry: ForceRegistry, dt: number, count: number, live?: LiveDispatch): PreparedForces {
    return { kernel: this.kernelFor(registry, live), offset: this.prepareTable(registry, dt, count) };
  }

  /** Uploads what changed, like `prepare`, for a step with the generators fused in: no pipeline of this pass. */
  prepareFused(registry: ForceRegistry, dt: number, count: number): FusedForces {
    const offset = this.prepareTable(registry, dt, count);
    const composition = registry.composition;
    return {
      composition,
      key: compositionKey(composition),
      layout: this.layout,
      bindGroup: this.bindGroup,
      offset,
      resources: this.resources(),
    };
  }

  /** Uploads the masks if they changed and the table for (registry version, dt, count) if new; returns its offset. */
  private prepareTable(registry: ForceRegistry, dt: number, count: number): number {
    if (registry.masksVersion !== this.masksVersion) {
      const words = registry.maskWords;
      if (words.byteLength > this.masks.size) {
        this.retired.push(this.masks);
        this.masks = this.createMasks(Math.max(words.byteLength, 2 * this.masks.size));
        this.bindGroup = this.createBindGroup();
      }
      if (words.length > 0) this.device.queue.writeBuffer(this.masks, 0, words as Uint32Array<ArrayBuffer>);
      this.masksVersion = registry.masksVersion;
    }
    // The step runs at float32 dt; the stiff spring's coefficients are computed for exactly that.
    const dt32 = Math.fround(dt);
    return this.tables.offsetForKey(`${registry.version}:${dt32}:${count}`, () =>
      encodeForceTable(registry.pack(dt32), count),
    );
  }

  /** Records one force pass over particles [0, count) into a compute pass the caller opened. */
  record(pass: GPUComputePassEncoder, prepared: PreparedForces, count: number): void {
    prepared.kernel.record(pass, [{ group: this.bindGroup, offsets: [prepared.offset] }], { count });
  }

  /**
   * Records one force pass over the live particles (a system with emitters),
   * dispatched over the capacity as LiveDispatch says; `prepared` must come from
   * `prepare(..., capacity, live)`.
   */
  recordLive(pass: GPUComputePassEncoder, prepared: PreparedForces, live: LiveDispatch): void {
    const table = { group: this.bindGroup, offsets: [prepared.offset] };
    prepared.kernel.record(pass, [table, live.bindGroup], live.dispatch);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.tables.destroy();
    this.masks.destroy();
    for (const buffer of this.retired) buffer.destroy();
  }
}
