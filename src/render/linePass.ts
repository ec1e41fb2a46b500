/**
 * Owns the polyline pipeline (shaders/render/lines.wgsl): strips of constant
 * pixel width, coloured per strip with the particles' `index` palette. A
 * LineBinding owns its points (uploaded once) and a uniform block; `draw`
 * records into the caller's pass.
 */
import { defineStruct } from '../core/schema';
import { createOverlayPipeline, DrawBinding, DrawPass } from './drawPipeline';
import type { DrawView } from './particleLook';
import { shaders } from '../shaders';

/** shaders/render/lines.wgsl's uniform block. */
export const LINE_PARAMS = defineStruct('LineParams', {
  viewProjection: 'mat4x4f',
  viewport: { type: 'vec4f', doc: 'width, height (device px), unused, unused' },
  width: { type: 'f32', doc: 'device pixels' },
  alpha: 'f32',
  hueOffset: 'f32',
  hueSpan: 'f32',
  saturation: 'f32',
  brightness: 'f32',
  strips: 'u32',
});

/** How LinePass draws its strips: width, opacity, and the hue palette strips are coloured from. */
export interface LineStyle {
  /** Device pixels. */
  width: number;
  /** Opacity in [0, 1]. */
  alpha: number;
  /** Hue of the first strip, in [0, 1). */
  hueOffset: number;
  /** Hue range the strips spread over, in turns (1: the whole wheel). */
  hueSpan: number;
  /** HSV saturation in [0, 1]. */
  saturation: number;
  /** HSV value in [0, 1]. */
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

/** Strips' points (uploaded once, owned here) and a LineParams block. */
export class LineBinding extends DrawBinding<typeof LINE_PARAMS.fields> {
  /** The strips' points, vec4 each (w: the strip's index); owned and freed by this binding. */
  readonly points: GPUBuffer;
  /** Segments drawn: points - 1, joins between strips included (the shader hides those). */
  readonly segments: number;

  constructor(
    device: GPUDevice,
    layout: GPUBindGroupLayout,
    label: string,
    packed: Float32Array<ArrayBuffer>,
    /** Number of strips. */
    readonly strips: number,
  ) {
    const points = device.createBuffer({
      label: `${label}.points`,
      size: packed.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(points, 0, packed);
    super(device, layout, label, LINE_PARAMS, [points]);
    this.points = points;
    this.segments = packed.length / 4 - 1;
  }

  protected override release(): void {
    this.points.destroy();
  }
}

/** Draws polylines of constant pixel width (trails, orbits), depth-tested against the scene but never written. */
export class LinePass extends DrawPass {
  private readonly pipeline: GPURenderPipeline;

  constructor(device: GPUDevice, format: GPUTextureFormat, depthFormat: GPUTextureFormat) {
    super(device, {
      name: 'LinePass',
      file: 'render/lines.wgsl',
      code: shaders.renderLines(LINE_PARAMS),
      storageBuffers: 1,
    });
    this.pipeline = createOverlayPipeline(device, this.shader, {
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

  /** Records the binding's strips into `pass` (the caller's render pass) in `style`. */
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
    binding.record(pass, this.pipeline);
    pass.draw(6 * binding.segments);
  }
}
