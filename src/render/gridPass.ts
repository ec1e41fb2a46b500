/**
 * Owns the grid pipeline (shaders/render/grid.wgsl): a square of plane with a
 * grid, the ground or a backdrop the particles are depth-tested against. A
 * GridBinding holds one uniform block; `draw` records into the caller's pass.
 */
import { UniformLayout, type UniformData } from './uniforms';
import type { DrawView, Rgb } from './particleLook';
import { shaders } from '../shaders';

export const GRID_PARAMS = new UniformLayout('GridParams', {
  viewProjection: { type: 'mat4x4f' },
  origin: { type: 'vec4f', doc: 'centre xyz, w: half the side' },
  axisU: { type: 'vec4f', doc: 'first in-plane axis (unit), w: line spacing' },
  axisV: { type: 'vec4f', doc: 'second in-plane axis (unit), w: a major line every n lines' },
  lineColor: { type: 'vec4f' },
  planeColor: { type: 'vec4f' },
  fadeColor: { type: 'vec4f', doc: 'the background the rim fades into' },
});

export interface GridSpec {
  centre: readonly [number, number, number];
  halfSize: number;
  /** Two unit axes spanning the plane. Default: the ground (x and z). */
  axisU?: readonly [number, number, number];
  axisV?: readonly [number, number, number];
  spacing: number;
  majorEvery: number;
  lineColor: Rgb;
  planeColor: Rgb;
  fadeColor: Rgb;
}

export class GridBinding {
  readonly uniform: GPUBuffer;
  readonly bindGroup: GPUBindGroup;
  readonly data: UniformData<typeof GRID_PARAMS.fields> = GRID_PARAMS.createData();
  private destroyed = false;

  constructor(device: GPUDevice, layout: GPUBindGroupLayout, label: string) {
    this.uniform = device.createBuffer({
      label: `${label}.gridParams`,
      size: GRID_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.bindGroup = device.createBindGroup({
      label: `${label}.bindGroup`,
      layout,
      entries: [{ binding: 0, resource: { buffer: this.uniform } }],
    });
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.uniform.destroy();
  }
}

export class GridPass {
  private readonly layout: GPUBindGroupLayout;
  private readonly pipeline: GPURenderPipeline;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    format: GPUTextureFormat,
    depthFormat: GPUTextureFormat,
  ) {
    this.layout = device.createBindGroupLayout({
      label: 'GridPass.layout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: 'uniform' } },
      ],
    });
    const module = device.createShaderModule({ label: 'render/grid.wgsl', code: shaders.renderGrid(GRID_PARAMS) });
    this.pipeline = device.createRenderPipeline({
      label: 'GridPass.pipeline',
      layout: device.createPipelineLayout({ label: 'GridPass.pipelineLayout', bindGroupLayouts: [this.layout] }),
      vertex: { module, entryPoint: 'gridVertex' },
      fragment: { module, entryPoint: 'gridFragment', targets: [{ format }] },
      primitive: { topology: 'triangle-strip' },
      depthStencil: { format: depthFormat, depthWriteEnabled: true, depthCompare: 'less' },
    });
  }

  /** A binding the caller owns and destroys; drawn once per submitted command buffer. */
  bind(label: string): GridBinding {
    return new GridBinding(this.device, this.layout, label);
  }

  draw(pass: GPURenderPassEncoder, binding: GridBinding, grid: GridSpec, view: DrawView): void {
    if (this.destroyed) return;
    const u = grid.axisU ?? [1, 0, 0];
    const v = grid.axisV ?? [0, 0, 1];
    binding.data
      .set('viewProjection', view.viewProjection)
      .set('origin', [...grid.centre, grid.halfSize])
      .set('axisU', [...u, grid.spacing])
      .set('axisV', [...v, grid.majorEvery])
      .set('lineColor', [...grid.lineColor, 1])
      .set('planeColor', [...grid.planeColor, 1])
      .set('fadeColor', [...grid.fadeColor, 1]);
    this.device.queue.writeBuffer(binding.uniform, 0, binding.data.bytes);
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, binding.bindGroup);
    pass.draw(4);
  }

  destroy(): void {
    this.destroyed = true;
  }
}
