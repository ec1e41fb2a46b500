/**
 * `npx vite-node scripts/bench-look.ts [-- --count 65536] [--rounds 5]`
 *
 * What the look costs a draw (src/render/lookBinding.ts, shaders/render/particles.wgsl):
 * `count` live particles (life records written directly, every slot live) drawn
 * as sprites into a 256 x 256 rgba8unorm target, a few pixels each, with the
 * default look, with curves over life (colour, size, opacity, 4 stops each),
 * and with curves plus a textured flipbook (4 x 4, blended, turning). Each
 * round draws every look once, `draws` times in one command buffer, submit to
 * onSubmittedWorkDone, in alternation, so each ratio compares timings taken
 * moments apart. Prints the median ratio of each look to the default.
 */
import { FLOATS_PER_PARTICLE, LIFE, OFFSET } from '../src/core/layout';
import { LIFE_COUNTERS } from '../src/core/emitters/gpuRecords';
import { INDIRECT_ARGS } from '../src/shaders/indirectArgs';
import { acquireDevice } from '../src/node/device';
import { DEFAULT_LOOK, type ParticleLook } from '../src/render/particleLook';
import { ParticlePass } from '../src/render/particlePass';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be an integer >= 1`);
  return value;
}
const count = flag('--count', 65536);
const rounds = flag('--rounds', 5);
const draws = 3;
const SIZE = 256;

const { device } = await acquireDevice();
const records = new Float32Array(count * FLOATS_PER_PARTICLE);
const life = LIFE.array(count);
let seed = 1;
const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
for (let i = 0; i < count; i++) {
  records.set([random() * 2 - 1, random() * 2 - 1, 0.5, 1], i * FLOATS_PER_PARTICLE + OFFSET.POSITION);
  records.set([random() - 0.5, random() - 0.5, 0], i * FLOATS_PER_PARTICLE + OFFSET.VELOCITY);
  life.set(i, 'age', random()).set(i, 'lifetime', 1).set(i, 'size', 1).set(i, 'alive', 1).set(i, 'generation', i);
}
const buffer = (data: ArrayBufferView<ArrayBuffer>, usage: number) => {
  const b = device.createBuffer({ size: data.byteLength, usage: usage | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(b, 0, data);
  return b;
};
const { STORAGE, INDIRECT } = GPUBufferUsage;
const live = {
  life: buffer(life.bytes, STORAGE),
  lists: buffer(
    new Uint32Array(2 * count).map((_, k) => k % count),
    STORAGE,
  ),
  counters: buffer(LIFE_COUNTERS.value().set('live', count).bytes, STORAGE),
  args: buffer(
    INDIRECT_ARGS.value()
      .set('drawPoints', [count, 1, 0, 0])
      .set('drawQuads', [6 * count, 1, 0, 0])
      .set('drawInstanced', [6, count, 0, 0]).bytes,
    INDIRECT | STORAGE,
  ),
  capacity: count,
};
const particles = buffer(records, STORAGE);
const pass = new ParticlePass(device, 'rgba8unorm', 'depth24plus');
const color = device.createTexture({
  size: [SIZE, SIZE],
  format: 'rgba8unorm',
  usage: GPUTextureUsage.RENDER_ATTACHMENT,
});
const depth = device.createTexture({
  size: [SIZE, SIZE],
  format: 'depth24plus',
  usage: GPUTextureUsage.RENDER_ATTACHMENT,
});
const stops = [0, 0.3, 0.6, 1];
const base: ParticleLook = { ...DEFAULT_LOOK, mode: 'sprites', blend: 'additive', size: 0.01 };
const looks: Record<string, ParticleLook> = {
  default: base,
  curves: {
    ...base,
    curves: {
      color: stops.map((at) => ({ at, color: [1 - at, at, 0.5, 1] as [number, number, number, number] })),
      size: stops.map((at) => ({ at, value: 1 + at })),
      opacity: stops.map((at) => ({ at, value: 1 - at / 2 })),
    },
  },
  flipbook: {
    ...base,
    curves: { color: [{ at: 0, color: [1, 0.5, 0.2, 1] }] },
    sprite: { shape: 'smoke', flipbook: { rows: 4, columns: 4, blend: true }, rotation: [0, 6], spin: [-2, 2] },
  },
};
const bindings = Object.fromEntries(
  Object.keys(looks).map((name) => [
    name,
    Array.from({ length: draws }, (_, k) => pass.bindLive(`bench.${name}${k}`, particles, live)),
  ]),
);
const view = {
  viewProjection: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  width: SIZE,
  height: SIZE,
  focalPixels: SIZE / 2,
};

async function time(name: string): Promise<number> {
  const encoder = device.createCommandEncoder();
  const render = encoder.beginRenderPass({
    colorAttachments: [{ view: color.createView(), loadOp: 'clear', storeOp: 'store' }],
    depthStencilAttachment: {
      view: depth.createView(),
      depthLoadOp: 'clear',
      depthStoreOp: 'store',
      depthClearValue: 1,
    },
  });
  for (const binding of bindings[name]!) pass.draw(render, binding, looks[name]!, view, { extrapolate: 0, time: 0 });
  render.end();
  await device.queue.onSubmittedWorkDone();
  const start = performance.now();
  device.queue.submit([encoder.finish()]);
  await device.queue.onSubmittedWorkDone();
  return performance.now() - start;
}

for (const name of Object.keys(looks)) await time(name); // pipelines made, textures uploaded
const ratios: Record<string, number[]> = { curves: [], flipbook: [] };
for (let r = 0; r < rounds; r++) {
  const plain = await time('default');
  for (const name of Object.keys(ratios)) ratios[name]!.push((await time(name)) / plain);
  process.stdout.write(`round ${r + 1}: default ${plain.toFixed(1)} ms for ${draws} draws\n`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, xs] of Object.entries(ratios)) {
  process.stdout.write(
    `${name} / default at ${count} sprites: ${median(xs).toFixed(2)}x (median of ${rounds} rounds)\n`,
  );
}
pass.destroy();
device.destroy();
