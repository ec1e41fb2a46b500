/**
 * `npx vite-node scripts/bench-trails.ts [-- --sizes 16,18] [--length 8] [--rounds 5] [--target 256]`:
 * what trails cost against the plain step, timed in one run on one device,
 * alternating every round so each ratio compares timings taken moments apart:
 * the plain step; the record pass alone (each slot's position into its ring);
 * the draw alone (the ribbons into a target of `--target` pixels a side);
 * and a frame of one step + record + draw. Each is one command buffer,
 * submit to onSubmittedWorkDone; the ratios are the median over rounds of
 * (case / the same round's step). The bench state (src/bench/state.ts): no
 * emitters, every slot a particle, every ring full before timing.
 */
import { benchState } from '../src/bench/state';
import { withHeldErrorScopes } from '../src/gpu/device/errors';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { acquireDevice } from '../src/node/device';
import { OrbitCamera } from '../src/render/camera';
import { DEFAULT_TRAIL_LOOK, TrailPass, type TrailBinding } from '../src/render/trailPass';

const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const sizes = (flag('--sizes') ?? '16,18').split(',').map(Number);
const length = Number(flag('--length') ?? 8);
const rounds = Number(flag('--rounds') ?? 5);
const side = Number(flag('--target') ?? 256);
const dt = 1 / 60;
const FORMAT = 'rgba8unorm';
const DEPTH = 'depth24plus';

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const { device, adapterInfo } = await acquireDevice();
const color = device.createTexture({
  label: 'bench.trails.color',
  size: [side, side],
  format: FORMAT,
  usage: GPUTextureUsage.RENDER_ATTACHMENT,
});
const depth = device.createTexture({
  label: 'bench.trails.depth',
  size: [side, side],
  format: DEPTH,
  usage: GPUTextureUsage.RENDER_ATTACHMENT,
});
const trails = new TrailPass(device, FORMAT, DEPTH);
// The bench state fills a cube of side 20 about the origin.
const camera = new OrbitCamera({ target: [0, 0, 0], distance: 40, yaw: 0.6, pitch: 0.4 });
camera.update(1);
const view = camera.drawView(side, side);
const look = { ...DEFAULT_TRAIL_LOOK, width: 0.05 };

/** Milliseconds of one command buffer recorded by `record`, submit to done. */
async function timed(record: (encoder: GPUCommandEncoder) => void, system: ParticleSystem): Promise<number> {
  return withHeldErrorScopes(device, 'bench-trails', async () => {
    const encoder = device.createCommandEncoder({ label: 'bench-trails' });
    record(encoder);
    const commands = encoder.finish();
    const started = performance.now();
    device.queue.submit([commands]);
    system.submitted();
    await device.queue.onSubmittedWorkDone();
    return performance.now() - started;
  });
}

function drawInto(encoder: GPUCommandEncoder, binding: TrailBinding): void {
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: color.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }],
    depthStencilAttachment: {
      view: depth.createView(),
      depthLoadOp: 'clear',
      depthStoreOp: 'store',
      depthClearValue: 1,
    },
  });
  trails.draw(pass, binding, look, view);
  pass.end();
}

try {
  process.stdout.write(
    `adapter: ${adapterInfo.description} (${adapterInfo.source}); trail length ${length}, target ${side}x${side}, ${rounds} rounds\n`,
  );
  for (const log2 of sizes) {
    const count = 2 ** log2;
    const system = await ParticleSystem.create(device, { capacity: count });
    system.particles.write(0, benchState(count));
    const binding = trails.bind('bench.trails', system.buffer, { count, length });
    try {
      const cases = {
        step: (e: GPUCommandEncoder) => system.encodeSteps(e, dt, 1),
        record: (e: GPUCommandEncoder) => trails.record(e, binding),
        draw: (e: GPUCommandEncoder) => drawInto(e, binding),
        'step+record+draw': (e: GPUCommandEncoder) => {
          system.encodeSteps(e, dt, 1);
          trails.record(e, binding);
          drawInto(e, binding);
        },
      };
      // Fill every ring, so every segment is drawn.
      for (let k = 0; k < length; k++) {
        await timed((e) => {
          cases.step(e);
          cases.record(e);
        }, system);
      }
      const names = Object.keys(cases) as (keyof typeof cases)[];
      const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<keyof typeof cases, number[]>;
      // Round 0 warms up (pipelines, the driver's first draws) and is not counted.
      for (let round = 0; round <= rounds; round++) {
        for (const name of names) {
          const time = await timed(cases[name], system);
          if (round > 0) times[name].push(time);
        }
      }
      process.stdout.write(`2^${log2}: step ${median(times.step).toFixed(2)} ms\n`);
      for (const name of names.slice(1)) {
        const ratios = times[name].map((t, r) => t / times.step[r]!);
        process.stdout.write(
          `  ${name}: ${median(times[name]).toFixed(2)} ms = ${median(ratios).toFixed(2)}x step  [${ratios.map((r) => r.toFixed(2)).join(' ')}]\n`,
        );
      }
    } finally {
      binding.destroy();
      system.destroy();
    }
  }
} finally {
  trails.destroy();
  color.destroy();
  depth.destroy();
  device.destroy();
}
