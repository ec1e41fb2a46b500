/**
 * A rendered frame from the read-back buffer to a PNG file: the rows' copy
 * padding dropped, alpha made opaque, the file named by the frame's number.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PNG } from 'pngjs';

/** rgba rows read back with copyTextureToBuffer's 256-byte row padding dropped, alpha set opaque. */
export function unpadRows(padded: Uint8Array, width: number, height: number, paddedRowBytes: number): Uint8Array {
  const rowBytes = width * 4;
  const pixels = new Uint8Array(rowBytes * height);
  for (let row = 0; row < height; row++) {
    pixels.set(padded.subarray(row * paddedRowBytes, row * paddedRowBytes + rowBytes), row * rowBytes);
  }
  // The frame is cleared opaque; blending may leave alpha below 1, which a PNG viewer would show through.
  for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
  return pixels;
}

/** Writes frame `frame`'s rgba pixels as `outDir/frame-0000.png` (numbered from 0); returns the path. */
export async function writeFramePng(
  outDir: string,
  frame: number,
  pixels: Uint8Array,
  width: number,
  height: number,
): Promise<string> {
  const png = new PNG({ width, height });
  png.data = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  const file = join(outDir, `frame-${String(frame).padStart(4, '0')}.png`);
  await writeFile(file, PNG.sync.write(png));
  return file;
}
