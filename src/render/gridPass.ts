/**
 * Owns the grid pipeline (shaders/render/grid.wgsl): a square of plane with a
 * grid, the ground or a backdrop the particles are depth-tested against. A
 * GridBinding holds one uniform block; `draw` records into the caller's pass.
 */
import { defineStruct } from '../core/schema';
import { createDrawPipeline, DrawBinding, DrawPass } from './drawPipeline';
import type { DrawView, Rgb } from './particleLook';
import { shaders } from '../shaders';

/** shaders/render/grid.wgsl's uniform block. */
export const GRID_PARAMS = defineStruct('GridParams', {
  viewProjection: 'mat4x4f',
  origin: { type: 'vec4f', doc: 'centre xyz, w: half the side' },
  axisU: { type: 'vec4f', doc: 'first in-plane axis (unit), w: line spacing' },
  axisV: { type: 'vec4f', doc: 'second in-plane axis (unit), w: a major line every n lines' },
  lineColor: 'vec4f',
  planeColor: 'vec4f',
  fadeColor: { type: 'vec4f', doc: 'the background the rim fades into' },
});

/** A grid to draw: a square of plane, its lines and colours. */
export interface GridSpec {
  /** The square's centre. */
  centre: readonly [number, number, number];
  /** Half the square's side. */
  halfSize: number;
  /** Two unit axes spanning the plane. Default: the ground (x and z). */
  axisU?: readonly [number, number, number];
  /** The second unit axis (see axisU). Default [0, 0, 1]. */
  axisV?: readonly [number, number, number];
  /** Distance between lines. */
  spacing: number;
  /** A major (brighter) line every this many lines. */
  majorEvery: number;
  /** The lines' colour. */
  lineColor: Rgb;
  /** The plane's colour between the lines. */
  planeColor: Rgb;
  /** The background the rim fades into. */
  fadeColor: Rgb;
}

/** A GridParams block. */
export class GridBinding extends DrawBinding<typeof GRID_PARAMS.fields> {
  constructor(device: GPUDevice, layout: GPUBindGroupLayout, label: string) {
    super(device, layout, label, GRID_PARAMS, []);
  }
}

/** Draws a grid plane (the ground or a backdrop) that writes depth, so particles are depth-tested against it. */
export class GridPass extends DrawPass {
  private readonly pipeline: GPURenderPipeline;

  constructor(device: GPUDevice, format: GPUTextureFormat, depthFormat: GPUTextureFormat) {
    super(device, {
      name: 'GridPass',
      file: 'render/grid.wgsl',
      code: shaders.renderGrid(GRID_PARAMS),
      storageBuffers: 0,
    });
    // Opaque, and written to the depth buffer: the particles are tested against it.
    this.pipeline = createDrawPipeline(device, this.shader, {
      vertexEntry: 'gridVertex',
      fragmentEntry: 'gridFragment',
      format,
      topology: 'triangle-strip',
      depthFormat,
      depthWriteEnabled: true,
      depthCompare: 'less',
    });
  }

  /** A binding the caller owns and destroys; drawn once per submitted command buffer. */
  bind(label: string): GridBinding {
    return new GridBinding(this.device, this.layout, label);
  }

  /** Records the grid into `pass` (the caller's render pass), with `binding`'s uniform block. */
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
    binding.record(pass, this.pipeline);
    pass.draw(4);
  }
}
