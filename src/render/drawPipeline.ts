/**
 * What every render pass shares (GridPass, LinePass, LinkPass, ParticlePass),
 * so that each declares only what differs: the blend states; the shader and
 * bind group 0 (the pass's uniform block at binding 0, then read-only storage
 * buffers read in the vertex shader), which DrawPass makes for a pass with
 * one shader; the pipeline (entry points, blending, topology, depth test); and
 * DrawBinding, a binding's uniform block (a StructValue of the pass's schema
 * struct, src/core/schema.ts) and bind group, written and bound before each
 * draw call.
 */
import type { FieldSpecs, StructDef, StructValue } from '../core/schema';

/** Premultiplied "over": the shaders output colour times alpha. */
export const PREMULTIPLIED_OVER: GPUBlendState = {
  color: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha', operation: 'add' },
  alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha', operation: 'add' },
};

/** Light adds up: where sparks overlap, it gets brighter. */
export const ADDITIVE: GPUBlendState = {
  color: { srcFactor: 'one', dstFactor: 'one', operation: 'add' },
  alpha: { srcFactor: 'one', dstFactor: 'one', operation: 'add' },
};

/** A render pass's shader and bind group 0: what all its pipelines and bindings share. */
export interface DrawShader {
  /** Labels its pipelines: `${name}.pipeline`. */
  readonly name: string;
  readonly layout: GPUBindGroupLayout;
  readonly pipelineLayout: GPUPipelineLayout;
  readonly module: GPUShaderModule;
}

export interface DrawShaderOptions {
  /** Labels the layouts: `${name}.layout`, `${name}.pipelineLayout`. */
  name: string;
  /** Labels the shader module (its WGSL files). */
  file: string;
  code: string;
  /** Read-only storage buffers at bindings 1, 2, ..., read in the vertex shader. */
  storageBuffers: number;
  /** Which stages read the uniform block at binding 0. Default: vertex and fragment. */
  uniformVisibility?: GPUShaderStageFlags;
  /** Bind groups 1, 2, ... of the pipelines (e.g. the particles' look), after group 0. */
  moreGroups?: readonly GPUBindGroupLayout[];
}

/** The module and bind group 0 of a pass: its uniform block, then its storage buffers. */
export function createDrawShader(device: GPUDevice, options: DrawShaderOptions): DrawShader {
  const { name, storageBuffers } = options;
  const layout = device.createBindGroupLayout({
    label: `${name}.layout`,
    entries: [
      {
        binding: 0,
        visibility: options.uniformVisibility ?? GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT,
        buffer: { type: 'uniform' },
      },
      ...Array.from({ length: storageBuffers }, (_, i) => ({
        binding: i + 1,
        visibility: GPUShaderStage.VERTEX,
        buffer: { type: 'read-only-storage' as const },
      })),
    ],
  });
  return {
    name,
    layout,
    pipelineLayout: device.createPipelineLayout({
      label: `${name}.pipelineLayout`,
      bindGroupLayouts: [layout, ...(options.moreGroups ?? [])],
    }),
    module: device.createShaderModule({ label: options.file, code: options.code }),
  };
}

/**
 * A render pass with one shader: its module and bind group 0, made from
 * `shader`; the subclass creates its pipeline from `this.shader` and its
 * bindings with `this.layout`. Pipelines need no freeing and bindings are
 * their owners', so `destroy()` only stops further draws. Safe twice.
 */
export class DrawPass {
  protected readonly shader: DrawShader;
  protected destroyed = false;

  constructor(
    protected readonly device: GPUDevice,
    shader: DrawShaderOptions,
  ) {
    this.shader = createDrawShader(device, shader);
  }

  protected get layout(): GPUBindGroupLayout {
    return this.shader.layout;
  }

  /** Stops further draws (pipelines need no freeing; bindings are their owners'). Safe twice. */
  destroy(): void {
    this.destroyed = true;
  }
}

export interface DrawPipelineOptions {
  /** Default: `${shader.name}.pipeline`. */
  label?: string;
  vertexEntry: string;
  fragmentEntry: string;
  /** Override constants of the vertex stage. */
  constants?: Record<string, number>;
  /** Override constants of the fragment stage. */
  fragmentConstants?: Record<string, number>;
  format: GPUTextureFormat;
  /** None: the colour replaces what is there. */
  blend?: GPUBlendState;
  topology: GPUPrimitiveTopology;
  depthFormat: GPUTextureFormat;
  depthWriteEnabled: boolean;
  depthCompare: GPUCompareFunction;
}

/** Created synchronously: the caller's error scopes catch any failure. */
export function createDrawPipeline(
  device: GPUDevice,
  shader: DrawShader,
  options: DrawPipelineOptions,
): GPURenderPipeline {
  const { module } = shader;
  const { format, blend, constants, fragmentConstants } = options;
  return device.createRenderPipeline({
    label: options.label ?? `${shader.name}.pipeline`,
    layout: shader.pipelineLayout,
    vertex: { module, entryPoint: options.vertexEntry, ...(constants && { constants }) },
    fragment: {
      module,
      entryPoint: options.fragmentEntry,
      targets: [blend ? { format, blend } : { format }],
      ...(fragmentConstants && { constants: fragmentConstants }),
    },
    primitive: { topology: options.topology },
    depthStencil: {
      format: options.depthFormat,
      depthWriteEnabled: options.depthWriteEnabled,
      depthCompare: options.depthCompare,
    },
  });
}

export interface OverlayPipelineOptions {
  vertexEntry: string;
  fragmentEntry: string;
  format: GPUTextureFormat;
  depthFormat: GPUTextureFormat;
  depthCompare: GPUCompareFunction;
}

/**
 * The pipeline of the overlay passes (LinePass, LinkPass): quads pulled in
 * the vertex shader, premultiplied "over", depth-tested against the scene but
 * never written, so they neither hide the particles nor each other.
 */
export function createOverlayPipeline(
  device: GPUDevice,
  shader: DrawShader,
  options: OverlayPipelineOptions,
): GPURenderPipeline {
  return createDrawPipeline(device, shader, {
    ...options,
    blend: PREMULTIPLIED_OVER,
    topology: 'triangle-list',
    depthWriteEnabled: false,
  });
}

/**
 * A binding of a render pass: its uniform block (`data`, the pass's schema
 * struct on the host, and `uniform`, its buffer) and bind group 0 over the
 * block and the pass's storage buffers. One binding holds one block, so it
 * can be drawn once per submitted command buffer. The storage buffers are
 * their owners'; a subclass frees what it creates in `release`.
 */
export class DrawBinding<F extends FieldSpecs> {
  /** The uniform buffer the block is uploaded to before each draw. */
  readonly uniform: GPUBuffer;
  /**
   * The uniform block on the host, written by the pass's `draw`.
   * @internal
   */
  readonly data: StructValue<F>;
  private group: GPUBindGroup;
  private freed = false;

  constructor(
    protected readonly device: GPUDevice,
    private readonly layout: GPUBindGroupLayout,
    /** Labels its GPU objects: `${label}.bindGroup`, `${label}.gridParams`, ... */
    readonly label: string,
    struct: StructDef<F>,
    storage: readonly GPUBuffer[],
  ) {
    this.data = struct.value();
    this.uniform = device.createBuffer({
      // `${label}.lineParams` for a LineParams block.
      label: `${label}.${struct.name.charAt(0).toLowerCase()}${struct.name.slice(1)}`,
      size: struct.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.group = this.createBindGroup(storage);
  }

  /** Bind group 0: the uniform block, then the pass's storage buffers. */
  get bindGroup(): GPUBindGroup {
    return this.group;
  }

  /** Uploads `data` and sets `pipeline` and this bind group on `pass`: what comes before each draw call. */
  record(pass: GPURenderPassEncoder, pipeline: GPURenderPipeline): void {
    this.device.queue.writeBuffer(this.uniform, 0, this.data.bytes);
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, this.group);
  }

  /** Frees the uniform buffer and what `release` frees. Safe twice. */
  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    this.uniform.destroy();
    this.release();
  }

  protected get destroyed(): boolean {
    return this.freed;
  }

  /** Binds `storage` (bindings 1, 2, ...) anew, after one was replaced. */
  protected rebind(storage: readonly GPUBuffer[]): void {
    this.group = this.createBindGroup(storage);
  }

  /** What a subclass frees besides the uniform buffer: the buffers it created. */
  protected release(): void {}

  private createBindGroup(storage: readonly GPUBuffer[]): GPUBindGroup {
    return this.device.createBindGroup({
      label: `${this.label}.bindGroup`,
      layout: this.layout,
      entries: [
        { binding: 0, resource: { buffer: this.uniform } },
        ...storage.map((buffer, i) => ({ binding: i + 1, resource: { buffer } })),
      ],
    });
  }
}
