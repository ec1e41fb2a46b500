/**
 * Runs a test's compute shader: `main` over `workgroups` workgroups, with
 * `buffers` bound at group 0 in order (each uploaded from its initial words,
 * or zeroed), inside error scopes; returns every buffer's words afterwards.
 * Staging buffers are unmapped and every buffer destroyed.
 */
import { withErrorScopes } from '../../src/gpu/device/errors';

export async function runKernel(
  device: GPUDevice,
  code: string,
  buffers: readonly (ArrayBufferView<ArrayBuffer> | { readonly bytes: number })[],
  workgroups: number,
): Promise<Uint32Array[]> {
  const sizes = buffers.map((b) => Math.max(16, 'bytes' in b ? b.bytes : b.byteLength));
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const storage = sizes.map((size) => device.createBuffer({ size, usage }));
  const staging = sizes.map((size) =>
    device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
  );
  try {
    await withErrorScopes(device, 'test kernel', () => {
      buffers.forEach((b, k) => {
        if (!('bytes' in b)) device.queue.writeBuffer(storage[k] as GPUBuffer, 0, b);
      });
      const pipeline = device.createComputePipeline({
        layout: 'auto',
        compute: { module: device.createShaderModule({ code }), entryPoint: 'main' },
      });
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(
        0,
        device.createBindGroup({
          layout: pipeline.getBindGroupLayout(0),
          entries: storage.map((buffer, binding) => ({ binding, resource: { buffer } })),
        }),
      );
      pass.dispatchWorkgroups(workgroups);
      pass.end();
      storage.forEach((buffer, k) =>
        encoder.copyBufferToBuffer(buffer, 0, staging[k] as GPUBuffer, 0, sizes[k] as number),
      );
      device.queue.submit([encoder.finish()]);
    });
    await Promise.all(staging.map((b) => b.mapAsync(GPUMapMode.READ)));
    return staging.map((b) => {
      const words = new Uint32Array(b.getMappedRange().slice(0));
      b.unmap();
      return words;
    });
  } finally {
    for (const b of [...storage, ...staging]) b.destroy();
  }
}
