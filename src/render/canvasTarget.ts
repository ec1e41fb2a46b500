/**
 * The canvas as a render target: configures its WebGPU context, keeps the
 * drawing buffer at the element's size in device pixels (high-DPI correct,
 * through ResizeObserver's device-pixel-content-box where the browser has it),
 * and owns the depth texture that matches it. A resize is applied at the start
 * of the next frame, never mid-frame.
 */

export interface CanvasTargetOptions {
  /** Default: navigator.gpu.getPreferredCanvasFormat(). */
  format?: GPUTextureFormat;
  /** Caps the drawing buffer's pixel ratio (e.g. 1 to trade sharpness for speed). Default: none. */
  maxPixelRatio?: number;
}

/** The depth buffer's format: the passes' pipelines are created for it. */
export const DEPTH_FORMAT: GPUTextureFormat = 'depth24plus';

/** A rectangle in device pixels, origin top left. */
export interface PixelRect {
  /** Left edge, device pixels. */
  x: number;
  /** Top edge, device pixels. */
  y: number;
  /** Width, device pixels. */
  width: number;
  /** Height, device pixels. */
  height: number;
}

/**
 * A canvas as a render target: its WebGPU context, its drawing buffer kept at
 * the element's size in device pixels, and a depth texture to match.
 */
export class CanvasTarget {
  /** The canvas's WebGPU context, configured for the device. */
  readonly context: GPUCanvasContext;
  /** The colour format the context is configured with (and the passes' pipelines must use). */
  readonly format: GPUTextureFormat;
  /** The depth texture's format (DEPTH_FORMAT). */
  readonly depthFormat = DEPTH_FORMAT;
  /** Drawing buffer width in device pixels. */
  width = 1;
  /** Drawing buffer height in device pixels. */
  height = 1;
  /** Device pixels per CSS pixel actually used. */
  pixelRatio = 1;
  private pending: { width: number; height: number } | null = null;
  private depth: GPUTexture | null = null;
  private depthView: GPUTextureView | null = null;
  private readonly observer: ResizeObserver | null;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    /** The canvas it draws into. */
    readonly canvas: HTMLCanvasElement,
    private readonly options: CanvasTargetOptions = {},
  ) {
    const context = canvas.getContext('webgpu');
    if (!context) throw new Error('this canvas has no WebGPU context (it may already have a 2D or WebGL one)');
    this.context = context;
    this.format = options.format ?? navigator.gpu.getPreferredCanvasFormat();
    context.configure({ device, format: this.format, alphaMode: 'opaque' });
    this.measure(canvas.clientWidth * devicePixelRatio, canvas.clientHeight * devicePixelRatio);
    this.observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver((entries) => {
            for (const entry of entries) {
              const css = entry.contentBoxSize?.[0];
              if (!css) continue;
              let width = css.inlineSize * devicePixelRatio;
              let height = css.blockSize * devicePixelRatio;
              // Exact device pixels where the browser has them (Chromium), when they agree with the
              // ratio to the pixel's snapping: an emulated ratio (DevTools, headless) leaves them in CSS pixels.
              const exact = entry.devicePixelContentBoxSize?.[0];
              if (exact && Math.abs(exact.inlineSize - width) <= 1 && Math.abs(exact.blockSize - height) <= 1) {
                width = exact.inlineSize;
                height = exact.blockSize;
              }
              this.measure(width, height);
            }
          });
    try {
      this.observer?.observe(canvas, { box: 'device-pixel-content-box' });
    } catch {
      this.observer?.observe(canvas);
    }
    this.watchPixelRatio();
    this.applyResize();
  }

  /**
   * A new pixel ratio (the window moved to another screen, the page was
   * zoomed) without a new CSS size notifies no ResizeObserver in some
   * browsers: a media query on the current ratio does.
   */
  private watchPixelRatio(): void {
    if (this.destroyed || typeof matchMedia === 'undefined') return;
    const query = matchMedia(`(resolution: ${devicePixelRatio}dppx)`);
    const changed = () => {
      query.removeEventListener('change', changed);
      this.measure(this.canvas.clientWidth * devicePixelRatio, this.canvas.clientHeight * devicePixelRatio);
      this.watchPixelRatio();
    };
    query.addEventListener('change', changed);
    this.unwatchPixelRatio = () => query.removeEventListener('change', changed);
  }
  private unwatchPixelRatio: () => void = () => undefined;

  private measure(width: number, height: number): void {
    const cap = this.options.maxPixelRatio;
    let scale = 1;
    if (cap !== undefined && devicePixelRatio > cap) scale = cap / devicePixelRatio;
    const max = this.device.limits.maxTextureDimension2D;
    const w = Math.max(1, Math.min(max, Math.round(width * scale)));
    const h = Math.max(1, Math.min(max, Math.round(height * scale)));
    this.pending = { width: w, height: h };
  }

  /** Applies a pending size change; returns true when the size changed. Call once at the start of a frame. */
  applyResize(): boolean {
    const next = this.pending;
    this.pending = null;
    const changed = next !== null && (next.width !== this.width || next.height !== this.height || !this.depth);
    if (next && changed) {
      this.width = next.width;
      this.height = next.height;
      this.canvas.width = next.width;
      this.canvas.height = next.height;
    }
    const cssWidth = this.canvas.clientWidth;
    this.pixelRatio = cssWidth > 0 ? this.width / cssWidth : devicePixelRatio;
    if (changed || !this.depth) {
      this.depth?.destroy();
      this.depth = this.device.createTexture({
        label: `CanvasTarget.depth(${this.width}x${this.height})`,
        size: [this.width, this.height],
        format: this.depthFormat,
        usage: GPUTextureUsage.RENDER_ATTACHMENT,
      });
      this.depthView = this.depth.createView({ label: 'CanvasTarget.depthView' });
    }
    return changed;
  }

  /** Begins a render pass on the canvas's current texture, cleared, with the depth buffer cleared to 1. */
  beginPass(
    encoder: GPUCommandEncoder,
    clear: [number, number, number],
    label = 'CanvasTarget.pass',
  ): GPURenderPassEncoder {
    if (this.destroyed) throw new Error('this CanvasTarget has been destroyed');
    return encoder.beginRenderPass({
      label,
      colorAttachments: [
        {
          view: this.context.getCurrentTexture().createView({ label: 'CanvasTarget.colorView' }),
          clearValue: { r: clear[0], g: clear[1], b: clear[2], a: 1 },
          loadOp: 'clear',
          storeOp: 'store',
        },
      ],
      depthStencilAttachment: {
        view: this.depthView as GPUTextureView,
        depthClearValue: 1,
        depthLoadOp: 'clear',
        depthStoreOp: 'store',
      },
    });
  }

  /** The whole drawing buffer. */
  fullRect(): PixelRect {
    return { x: 0, y: 0, width: this.width, height: this.height };
  }

  /**
   * Splits the drawing buffer into a grid of `rows` x `columns` cells with
   * `gapCss` CSS pixels between them, row by row.
   */
  grid(rows: number, columns: number, gapCss = 4): PixelRect[] {
    const gap = Math.round(gapCss * this.pixelRatio);
    const cellW = Math.max(1, Math.floor((this.width - gap * (columns - 1)) / columns));
    const cellH = Math.max(1, Math.floor((this.height - gap * (rows - 1)) / rows));
    const rects: PixelRect[] = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++)
        rects.push({ x: c * (cellW + gap), y: r * (cellH + gap), width: cellW, height: cellH });
    }
    return rects;
  }

  /** Stops watching the size, frees the depth texture and unconfigures the context. Safe twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.observer?.disconnect();
    this.unwatchPixelRatio();
    this.depth?.destroy();
    this.depth = null;
    this.depthView = null;
    this.context.unconfigure();
  }
}
