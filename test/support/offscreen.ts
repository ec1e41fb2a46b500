/**
 * An offscreen colour and depth target with a readback buffer, for the render
 * tests: one call clears it, records the caller's draw, copies the colour out
 * and returns the pixels, rows tightly packed (copyTextureToBuffer's rows are
 * padded to 256 bytes; the padding is dropped here).
 */
import { withErrorScopes } from '../../src/gpu/device/errors';

const BYTES_PER_PIXEL = { rgba8unorm: 4, rgba16float: 8 } as const;

export class OffscreenTarget {
  readonly color: GPUTexture;
  readonly depth: GPUTexture;
  private readonly read: GPUBuffer;
  private readonly rowBytes: number;
  private readonly paddedRowBytes: number;

  constructor(
    private readonly device: GPUDevice,
    readonly size: number,
    readonly format: keyof typeof BYTES_PER_PIXEL,
    readonly depthFormat: GPUTextureFormat = 'depth24plus',
  ) {
    this.rowBytes = size * BYTES_PER_PIXEL[format];
    this.paddedRowBytes = Math.ceil(this.rowBytes / 256) * 256;
    this.color = device.createTexture({
      label: `test.color${size}`,
      size: [size, size],
      format,
      usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
    });
    this.depth = device.createTexture({
      label: `test.depth${size}`,
      size: [size, size],
      format: depthFormat,
      usage: GPUTextureUsage.RENDER_ATTACHMENT,
    });
    this.read = device.createBuffer({
      label: `test.read${size}`,
      size: this.paddedRowBytes * size,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
  }

  /** Clears colour to 0 and depth to `depthClear`, records `draw`, and returns the pixels' bytes. */
  async render(operation: string, draw: (pass: GPURenderPassEncoder) => void, depthClear = 1): Promise<ArrayBuffer> {
    await withErrorScopes(this.device, operation, () => {
      const encoder = this.device.createCommandEncoder();
      const pass = encoder.beginRenderPass({
        colorAttachments: [
          { view: this.color.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] },
        ],
        depthStencilAttachment: {
          view: this.depth.createView(),
          depthLoadOp: 'clear',
          depthStoreOp: 'store',
          depthClearValue: depthClear,
        },
      });
      draw(pass);
      pass.end();
      encoder.copyTextureToBuffer({ texture: this.color }, { buffer: this.read, bytesPerRow: this.paddedRowBytes }, [
        this.size,
        this.size,
      ]);
      this.device.queue.submit([encoder.finish()]);
    });
    await this.read.mapAsync(GPUMapMode.READ);
    const padded = new Uint8Array(this.read.getMappedRange());
    const pixels = new Uint8Array(this.rowBytes * this.size);
    for (let row = 0; row < this.size; row++) {
      pixels.set(
        padded.subarray(row * this.paddedRowBytes, row * this.paddedRowBytes + this.rowBytes),
        row * this.rowBytes,
      );
    }
    this.read.unmap();
    return pixels.buffer;
  }

  destroy(): void {
    this.color.destroy();
    this.depth.destroy();
    this.read.destroy();
  }
}
