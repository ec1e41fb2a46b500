/**
 * The blend states every pass shares, and the pipeline of the overlay passes
 * (LinePass, LinkPass): quads pulled in the vertex shader, premultiplied
 * "over", depth-tested against the scene but never written, so they neither
 * hide the particles nor each other.
 */

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

export interface OverlayPipelineOptions {
  /** The pass's name: labels the pipeline and its layout. */
  name: string;
  layout: GPUBindGroupLayout;
  module: GPUShaderModule;
  vertexEntry: string;
  fragmentEntry: string;
  format: GPUTextureFormat;
  depthFormat: GPUTextureFormat;
  depthCompare: GPUCompareFunction;
}

/** Created synchronously: the caller's error scopes catch any failure. */
export function createOverlayPipeline(device: GPUDevice, options: OverlayPipelineOptions): GPURenderPipeline {
  const { name, module } = options;
  return device.createRenderPipeline({
    label: `${name}.pipeline`,
    layout: device.createPipelineLayout({ label: `${name}.pipelineLayout`, bindGroupLayouts: [options.layout] }),
    vertex: { module, entryPoint: options.vertexEntry },
    fragment: {
      module,
      entryPoint: options.fragmentEntry,
      targets: [{ format: options.format, blend: PREMULTIPLIED_OVER }],
    },
    primitive: { topology: 'triangle-list' },
    depthStencil: { format: options.depthFormat, depthWriteEnabled: false, depthCompare: options.depthCompare },
  });
}
