/**
 * Owns the polyline pipeline (shaders/render/lines.wgsl): strips of constant
 * pixel width, coloured per strip with the particles' `index` palette. A
 * LineBinding owns its points (uploaded once) and a uniform block; `draw`
 * records into the caller's pass.
 */
import { createOverlayPipeline } from './overlayPipeline';
import type { DrawView } from './particleLook';
import { UniformLayout, type UniformData } from './uniforms';
import { shaders } from '../shaders';

export const LINE_PARAMS = new UniformLayout('LineParams', {
  viewProjection: { type: 'mat4x4f' },
  viewport: { type: 'vec4f', doc: 'width, height (device px), unused, unused' },
  width: { type: 'f32', doc: 'device pixels' },
  alpha: { type: 'f32' },
  hueOffset: { type: 'f32' },
  hueSpan: { type: 'f32' },
  saturation: { type: 'f32' },
  brightness: { type: 'f32' },
  strips: { type: 'u32' },
});

export interface LineStyle {
  /** Device pixels. */
  width: number;
  alpha: number;
  hueOffset: number;
  hueSpan: number;
  saturation: number;
  brightness: number;
}

/**
 * Packs strips of xyz points (one Float32Array per strip) into the buffer
 * layout lines.wgsl reads: vec4 per point, w the strip's index.
 */
export function packStrips(strips: readonly ArrayLike<number>[]): Float32Array<ArrayBuffer> {
  const total = strips.reduce((n, s) => n + s.length / 3, 0);
  const out = new Float32Array(Math.max(total, 2) * 4);
  let at = 0;
  strips.forEach((strip, index) => {
    for (let i = 0; i < strip.length; i += 3) {
      out.set([strip[i] as number, strip[i + 1] as number, strip[i + 2] as number, index], at);
      at += 4;
    }
  });
  return out;
}

export class LineBinding {
  readonly uniform: GPUBuffer;
  readonly points: GPUBuffer;
  readonly bindGroup: GPUBindGroup;
  readonly data: UniformData<typeof LINE_PARAMS.fields> = LINE_PARAMS.createData();
  readonly segments: number;
  private destroyed = false;

  constructor(
    device: GPUDevice,
    layout: GPUBindGroupLayout,
    label: string,
    packed: Float32Array<ArrayBuffer>,
    readonly strips: number,
  ) {
    this.segments = packed.length / 4 - 1;
    this.points = device.createBuffer({
      label: `${label}.points`,
      size: packed.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(this.points, 0, packed);
    this.uniform = device.createBuffer({
      label: `${label}.lineParams`,
      size: LINE_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.bindGroup = device.createBindGroup({
      label: `${label}.bindGroup`,
      layout,
      entries: [
        { binding: 0, resource: { buffer: this.uniform } },
        { binding: 1, resource: { buffer: this.points } },
      ],
    });
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.uniform.destroy();
    this.points.destroy();
  }
}

export class LinePass {
  private readonly layout: GPUBindGroupLayout;
  private readonly pipeline: GPURenderPipeline;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    format: GPUTextureFormat,
    depthFormat: GPUTextureFormat,
  ) {
    this.layout = device.createBindGroupLayout({
      label: 'LinePass.layout',
      entries: [
        { binding: 0, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: 'uniform' } },
        { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
      ],
    });
    const module = device.createShaderModule({ label: 'render/lines.wgsl', code: shaders.renderLines(LINE_PARAMS) });
    this.pipeline = createOverlayPipeline(device, {
      name: 'LinePass',
      layout: this.layout,
      module,
      vertexEntry: 'lineVertex',
      fragmentEntry: 'lineFragment',
      format,
      depthFormat,
      depthCompare: 'less-equal',
    });
  }

  /** Uploads `strips` (xyz points each) once; the caller owns the binding and destroys it. */
  bind(label: string, strips: readonly ArrayLike<number>[]): LineBinding {
    return new LineBinding(this.device, this.layout, label, packStrips(strips), strips.length);
  }

  draw(pass: GPURenderPassEncoder, binding: LineBinding, style: LineStyle, view: DrawView): void {
    if (this.destroyed || binding.segments < 1) return;
    binding.data
      .set('viewProjection', view.viewProjection)
      .set('viewport', [view.width, view.height, 0, 0])
      .set('width', style.width)
      .set('alpha', style.alpha)
      .set('hueOffset', style.hueOffset)
      .set('hueSpan', style.hueSpan)
      .set('saturation', style.saturation)
      .set('brightness', style.brightness)
      .set('strips', binding.strips);
    this.device.queue.writeBuffer(binding.uniform, 0, binding.data.bytes);
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, binding.bindGroup);
    pass.draw(6 * binding.segments);
  }

  destroy(): void {
    this.destroyed = true;
  }
}
