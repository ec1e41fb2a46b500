/**
 * The one kernel shape: a compute pass declared as data (its shader, its
 * bind groups binding by binding, its override constants), from which this
 * builds the bind group layouts and the pipeline, makes bind groups, and
 * records a dispatch sized by a count.
 *
 * Group 0 is the particle state (ParticleBuffer, shared by every pass) unless
 * the kernel says otherwise; the groups after it are the kernel's own. A pass
 * module then holds only what is its own: the WGSL it runs, the buffers it
 * binds, the parameters it writes, and when it runs.
 */
import { SparkworksInputError } from '../../core/errors';
import type { ParticleStoreChunks } from '../../shaders';
import { dispatchSize } from './dispatch';
import type { ParticleBuffer } from './particleBuffer';

/** How many storage buffers each layout made by `computeLayout` binds. */
const storageBuffersOf = new WeakMap<GPUBindGroupLayout, number>();

const isStorage = (kind: BindingKind) => kind === 'storage' || kind === 'read-only-storage';

/**
 * A bind group layout for compute, binding by binding, that more than one
 * kernel (or its owner's bind groups) share; kernels count its storage
 * buffers against the device's per-stage limit.
 */
export function computeLayout(device: GPUDevice, label: string, kinds: readonly BindingKind[]): GPUBindGroupLayout {
  const layout = device.createBindGroupLayout({ label, entries: bindGroupLayoutEntries(kinds) });
  storageBuffersOf.set(layout, kinds.filter(isStorage).length);
  return layout;
}

/** Storage buffers a kernel's own groups bind (the particle store's are counted apart). */
function storageBindings(groups: KernelSpec['groups']): number {
  return groups.reduce(
    (sum, group) => sum + (isKinds(group) ? group.filter(isStorage).length : (storageBuffersOf.get(group) ?? 0)),
    0,
  );
}

/** How a binding is read: a storage or uniform buffer, or a uniform block at a dynamic offset (a UniformRing slot). */
export type BindingKind = GPUBufferBindingType | 'uniform-dynamic';

export interface KernelSpec {
  /** The owning pass's name, for labels, e.g. 'CollidePass'. */
  readonly name: string;
  /** The shader module's label (its file) and code, composed for how the ParticleBuffer splits the store. */
  readonly file: string;
  readonly code: (store: ParticleStoreChunks) => string;
  /** Default 'main'. */
  readonly entryPoint?: string;
  readonly constants?: Record<string, number>;
  /**
   * The kernel's bind groups after the particle state's group 0: binding by
   * binding, or a layout another owner made (the step's uniforms, the live
   * list, the force table), whose bind groups that owner makes.
   */
  readonly groups: readonly (readonly BindingKind[] | GPUBindGroupLayout)[];
  /** False for kernels that do not touch the particle state: then the kernel's groups start at 0. */
  readonly particles?: boolean;
  /**
   * How the kernel runs over a chunked system (see PerChunk); default
   * false: once, every chunk bound, its accessors choosing the chunk at run
   * time.
   */
  readonly perChunk?: PerChunk;
}

/**
 * How a kernel runs over chunked particle state, where binding every chunk
 * would cost a storage binding a chunk and choosing one at run time costs a
 * software adapter every chunk's branch:
 * - false: once, every chunk bound (a kernel that reads any particle: pair
 *   springs, the contact resolver, the grid);
 * - true: invocation i touches only slot i (particleIndex): chunk by chunk,
 *   over that chunk's slots, binding only that chunk (OWN_CHUNK,
 *   OWN_CHUNK_BASE and OWN_CHUNK_SIZE set), dispatched by a count of slots;
 * - 'owner': an invocation touches the slots it names (a free slot, a slot
 *   from the live list): the whole dispatch once per chunk, binding only that
 *   chunk, and the shader skips the slots `ownsParticle` says are another
 *   chunk's and does what must happen once where `finalChunkRun` says;
 * - 'unread': the shader declares the store but its entry point never reads
 *   it: once, chunk 0 bound.
 * Each bound chunk is one of the device's maxStorageBuffersPerShaderStage,
 * so only `false` kernels limit how many chunks a system may have.
 */
export type PerChunk = boolean | 'owner' | 'unread';

/** What differs between kernels of one shader: the entry point, the override constants, the label. */
export interface KernelVariant {
  readonly name?: string;
  readonly entryPoint?: string;
  readonly constants?: Record<string, number>;
  /** See KernelSpec.perChunk; a variant always has its kernel's (it decided the bindings). */
  readonly perChunk?: PerChunk;
}

/** A bind group, with its dynamic offsets where it has any. */
export type BoundGroup = GPUBindGroup | { readonly group: GPUBindGroup; readonly offsets: readonly number[] };

/**
 * How many invocations: a count (2D past the per-dimension limit), or (a
 * kernel that does not read the particles) a number of workgroups along x.
 */
export type Dispatch = { readonly count: number } | { readonly workgroups: number };

export function bindGroupLayoutEntries(kinds: readonly BindingKind[]): GPUBindGroupLayoutEntry[] {
  return kinds.map((kind, binding) => ({
    binding,
    visibility: GPUShaderStage.COMPUTE,
    buffer: kind === 'uniform-dynamic' ? { type: 'uniform', hasDynamicOffset: true } : { type: kind },
  }));
}

function isKinds(group: readonly BindingKind[] | GPUBindGroupLayout): group is readonly BindingKind[] {
  return Array.isArray(group);
}

/**
 * Kernels built on demand by key (a force composition, say) and kept, least
 * recently used out first: compiling one costs far more than looking it up.
 */
export class KernelCache {
  private readonly kernels = new Map<string, Kernel>();
  constructor(private readonly limit: number) {}

  get(key: string, build: () => Kernel): Kernel {
    let kernel = this.kernels.get(key);
    if (kernel) {
      this.kernels.delete(key); // most recently used goes last
    } else {
      kernel = build();
      if (this.kernels.size >= this.limit) this.kernels.delete(this.kernels.keys().next().value as string);
    }
    this.kernels.set(key, kernel);
    return kernel;
  }
}

export class Kernel {
  readonly pipeline: GPUComputePipeline;
  /** Over a chunked system, a perChunk kernel's pipeline per chunk (see KernelSpec.perChunk); else empty. */
  private readonly chunkPipelines: readonly GPUComputePipeline[];
  private readonly workgroupSize: number;
  private readonly perChunk: PerChunk;

  private constructor(
    private readonly device: GPUDevice,
    readonly name: string,
    private readonly module: GPUShaderModule,
    private readonly pipelineLayout: GPUPipelineLayout,
    /** The kernel's own groups' layouts (group index = first + position). */
    readonly layouts: readonly GPUBindGroupLayout[],
    private readonly particles: ParticleBuffer | null,
    variant: KernelVariant,
  ) {
    this.workgroupSize = variant.constants?.['WORKGROUP_SIZE'] ?? 1;
    this.perChunk = variant.perChunk ?? false;
    const pipeline = (label: string, constants: Record<string, number>) =>
      device.createComputePipeline({
        label: `${label}${variant.entryPoint ? `(${variant.entryPoint})` : ''}`,
        layout: pipelineLayout,
        compute: { module, entryPoint: variant.entryPoint ?? 'main', constants },
      });
    this.pipeline = pipeline(`${name}.pipeline`, variant.constants ?? {});
    const chunking = particles?.chunking;
    const slots = (k: number): Record<string, number> =>
      this.perChunk === true && chunking
        ? { OWN_CHUNK_BASE: k * 2 ** chunking.shift, OWN_CHUNK_SIZE: 2 ** chunking.shift }
        : {};
    this.chunkPipelines =
      (this.perChunk === true || this.perChunk === 'owner') && chunking
        ? Array.from({ length: chunking.chunks }, (_, k) =>
            pipeline(`${name}.pipeline[chunk ${k}]`, { ...variant.constants, OWN_CHUNK: k, ...slots(k) }),
          )
        : [];
  }

  /** Group 0 over the particles: every chunk, or (perChunk) chunk `k` alone. */
  private particleGroup(k: number): GPUBindGroup | null {
    if (!this.particles) return null;
    if (!this.particles.chunking || this.perChunk === false) return this.particles.bindGroup;
    return this.particles.chunkBindGroups[k] as GPUBindGroup;
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, particles: ParticleBuffer | null, spec: KernelSpec): Kernel {
    const layouts = spec.groups.map((group, k) =>
      isKinds(group)
        ? device.createBindGroupLayout({ label: `${spec.name}.layout${k}`, entries: bindGroupLayoutEntries(group) })
        : group,
    );
    const usesParticles = spec.particles ?? true;
    if (usesParticles && !particles)
      throw new Error(`${spec.name}: a kernel over the particles needs the ParticleBuffer`);
    const ownChunk = (spec.perChunk ?? false) !== false && Boolean(particles?.chunkBindGroupLayout);
    const particleLayout = ownChunk ? particles?.chunkBindGroupLayout : particles?.bindGroupLayout;
    const pipelineLayout = device.createPipelineLayout({
      label: `${spec.name}.pipelineLayout`,
      bindGroupLayouts: [...(usesParticles && particleLayout ? [particleLayout] : []), ...layouts],
    });
    const chunks = usesParticles && !ownChunk ? (particles?.chunking?.chunks ?? 1) : 0;
    const beside = storageBindings(spec.groups);
    const limit = device.limits.maxStorageBuffersPerShaderStage;
    if (chunks > 1 && beside + chunks > limit)
      throw new SparkworksInputError(
        `${spec.name} binds ${beside} storage buffers besides the particles' ${chunks} chunks, more than this device's maxStorageBuffersPerShaderStage of ${limit}: ` +
          'a system that needs this pass (particle contacts, links) holds fewer chunks; lower its capacity or request a device with more storage buffers per stage',
        'capacity',
        particles?.capacity,
      );
    const chunking = usesParticles ? (particles?.chunking ?? null) : null;
    const code = spec.code({ chunking, ownChunk });
    const module = device.createShaderModule({ label: spec.file, code });
    return new Kernel(device, spec.name, module, pipelineLayout, layouts, usesParticles ? particles : null, spec);
  }

  /** Another entry point or constants of the same shader and bindings: its bind groups serve both. */
  variant(variant: KernelVariant): Kernel {
    const name = variant.name ?? `${this.name}(${variant.entryPoint ?? 'main'})`;
    // The kernel's perChunk decided its bindings: every variant keeps it.
    return new Kernel(this.device, name, this.module, this.pipelineLayout, this.layouts, this.particles, {
      ...variant,
      perChunk: this.perChunk,
    });
  }

  /** A bind group for the kernel's own group `k` (0 = the first after the particle state). */
  bindGroup(
    k: number,
    resources: readonly (GPUBuffer | GPUBufferBinding)[],
    label = `${this.name}.group${k}`,
  ): GPUBindGroup {
    const layout = this.layouts[k];
    if (!layout) throw new RangeError(`${this.name} has ${this.layouts.length} groups of its own, not ${k + 1}`);
    return this.device.createBindGroup({
      label,
      layout,
      entries: resources.map((resource, binding) => ({
        binding,
        resource: 'buffer' in resource ? resource : { buffer: resource },
      })),
    });
  }

  /** Sets the pipeline and every group, then dispatches `repeat` times (ordered for storage writes). */
  record(pass: GPUComputePassEncoder, groups: readonly BoundGroup[], dispatch: Dispatch, repeat = 1): void {
    const bind = (pipeline: GPUComputePipeline, chunk = 0) => {
      pass.setPipeline(pipeline);
      let index = 0;
      const particles = this.particleGroup(chunk);
      if (particles) pass.setBindGroup(index++, particles);
      for (const bound of groups) {
        if ('offsets' in bound) pass.setBindGroup(index++, bound.group, bound.offsets);
        else pass.setBindGroup(index++, bound);
      }
    };
    if ('workgroups' in dispatch) {
      if (this.chunkPipelines.length > 0) {
        throw new Error(`${this.name}: a dispatch in workgroups is for kernels that do not read the particles`);
      }
      bind(this.pipeline);
      for (let r = 0; r < repeat; r++) pass.dispatchWorkgroups(dispatch.workgroups);
      return;
    }
    const limit = this.device.limits.maxComputeWorkgroupsPerDimension;
    if (this.perChunk === 'owner' && this.chunkPipelines.length > 0) {
      // The whole dispatch for each chunk in turn; the shader keeps its own chunk's slots.
      const [x, y] = dispatchSize(dispatch.count, this.workgroupSize, limit);
      for (let r = 0; r < repeat; r++) {
        this.chunkPipelines.forEach((pipeline, k) => {
          bind(pipeline, k);
          pass.dispatchWorkgroups(x, y);
        });
      }
      return;
    }
    if (this.chunkPipelines.length === 0 || !this.particles) {
      bind(this.pipeline);
      const [x, y] = dispatchSize(dispatch.count, this.workgroupSize, limit);
      for (let r = 0; r < repeat; r++) pass.dispatchWorkgroups(x, y);
      return;
    }
    // Chunk by chunk, each repeat over every chunk before the next (a step depends on the last).
    const chunkParticles = this.particles.chunkParticles;
    for (let r = 0; r < repeat; r++) {
      this.chunkPipelines.forEach((pipeline, k) => {
        const count = Math.min(dispatch.count - k * chunkParticles, chunkParticles);
        if (count <= 0) return;
        bind(pipeline, k);
        const [x, y] = dispatchSize(count, this.workgroupSize, limit);
        pass.dispatchWorkgroups(x, y);
      });
    }
  }
}
