/**
 * The draw follows the live list: drawIndirect with the arguments planEmit
 * wrote draws exactly the live particles, each once, through the live list
 * (a real render pass; the fragment shader marks each slot it draws). And the
 * lifecycle's GPU objects are freed safely twice.
 */
import { describe, expect, it } from 'vitest';
import { prepareLifecycle } from '../src/core/emitters/options';
import { withErrorScopes } from '../src/gpu/device/errors';
import { GpuLifecycle } from '../src/gpu/lifecycle/lifecycle';
import { INDIRECT_ARGS } from '../src/shaders/indirectArgs';
import { ParticleBuffer } from '../src/gpu/shared/particleBuffer';
import { DEFAULT_VARIANT } from '../src/core/variants';
import { useDevice } from './support/gpu';

const gpu = useDevice();

const CAPACITY = 1000;

// One point a live particle, at the centre of a 1x1 target: one fragment each.
const DRAW_LIVE = `
override CAPACITY: u32;
struct Counters { live: u32, free: u32, parity: u32 }
@group(0) @binding(0) var<storage, read> liveLists: array<u32>;
@group(0) @binding(1) var<storage, read> counters: Counters;
@group(0) @binding(2) var<storage, read_write> drawn: array<atomic<u32>>;
struct Out { @builtin(position) clip: vec4f, @location(0) @interpolate(flat) slot: u32 }
@vertex fn vertexMain(@builtin(vertex_index) k: u32) -> Out {
  return Out(vec4f(0.0, 0.0, 0.0, 1.0), liveLists[counters.parity * CAPACITY + k]);
}
@fragment fn fragmentMain(in: Out) -> @location(0) vec4f {
  atomicAdd(&drawn[in.slot], 1u);
  return vec4f(1.0);
}`;

describe('drawing the live particles', () => {
  it('drawIndirect with the lifecycle’s point arguments draws each live particle exactly once', async () => {
    const { device } = gpu.get();
    const prepared = prepareLifecycle({ emitters: [{ rate: 3000, burst: 100, lifetime: [0.05, 0.2] }] }, CAPACITY);
    const particles = new ParticleBuffer(device, CAPACITY);
    const lifecycle = await withErrorScopes(device, 'lifecycle', () =>
      GpuLifecycle.create(device, particles, prepared!, DEFAULT_VARIANT, 64),
    );
    const drawn = device.createBuffer({
      label: 'test.drawn',
      size: CAPACITY * 4,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    const read = device.createBuffer({
      label: 'test.read',
      size: CAPACITY * 4,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const target = device.createTexture({
      label: 'test.target',
      size: [1, 1],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.RENDER_ATTACHMENT,
    });
    try {
      const module = device.createShaderModule({ label: 'drawLive', code: DRAW_LIVE });
      const pipeline = await withErrorScopes(device, 'pipeline', () =>
        device.createRenderPipeline({
          label: 'test.drawLive',
          layout: 'auto',
          vertex: { module, entryPoint: 'vertexMain', constants: { CAPACITY } },
          fragment: {
            module,
            entryPoint: 'fragmentMain',
            targets: [{ format: 'rgba8unorm' }],
            constants: { CAPACITY },
          },
          primitive: { topology: 'point-list' },
        }),
      );
      const bindGroup = device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: lifecycle.buffers.lists } },
          { binding: 1, resource: { buffer: lifecycle.buffers.counters } },
          { binding: 2, resource: { buffer: drawn } },
        ],
      });
      for (const frames of [1, 7, 30]) {
        await withErrorScopes(device, 'frame and draw', () => {
          device.queue.writeBuffer(drawn, 0, new Uint32Array(CAPACITY));
          const encoder = device.createCommandEncoder();
          for (let f = 0; f < frames; f++) lifecycle.encodeStep(encoder, 1 / 60);
          const pass = encoder.beginRenderPass({
            colorAttachments: [
              { view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] },
            ],
          });
          pass.setPipeline(pipeline);
          pass.setBindGroup(0, bindGroup);
          pass.drawIndirect(lifecycle.buffers.args, INDIRECT_ARGS.offsets.drawPoints);
          pass.end();
          encoder.copyBufferToBuffer(drawn, 0, read, 0, CAPACITY * 4);
          device.queue.submit([encoder.finish()]);
        });
        await read.mapAsync(GPUMapMode.READ);
        const counts = new Uint32Array(read.getMappedRange().slice(0));
        read.unmap();
        const { live } = await lifecycle.readState();
        const liveSet = new Set(live);
        expect(live.length).toBeGreaterThan(0);
        for (let slot = 0; slot < CAPACITY; slot++) {
          const want = liveSet.has(slot) ? 1 : 0;
          if (counts[slot] !== want)
            expect.fail(`after ${frames} more frames: slot ${slot} drawn ${counts[slot]} times, live: ${want === 1}`);
        }
      }
    } finally {
      lifecycle.destroy();
      particles.destroy();
      for (const b of [drawn, read]) b.destroy();
      target.destroy();
    }
  });

  it('destroy() is safe twice, and the stats read back asynchronously', async () => {
    const { device } = gpu.get();
    const prepared = prepareLifecycle({ emitters: [{ burst: 5 }] }, 64);
    const particles = new ParticleBuffer(device, 64);
    const lifecycle = await withErrorScopes(device, 'lifecycle', () =>
      GpuLifecycle.create(device, particles, prepared!, DEFAULT_VARIANT, 64),
    );
    await withErrorScopes(device, 'step', () => {
      const encoder = device.createCommandEncoder();
      lifecycle.encodeStep(encoder, 0.01);
      device.queue.submit([encoder.finish()]);
    });
    // Two readbacks in flight at once, neither awaited before the other is asked for.
    const [a, b] = await Promise.all([lifecycle.readStats(), lifecycle.readStats()]);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ live: 5, free: 59, emitted: 5, killed: 0, shortfall: 0, steps: 1 });
    lifecycle.destroy();
    lifecycle.destroy();
    particles.destroy();
    await expect(lifecycle.readStats()).rejects.toThrow(/destroyed/);
  });
});
