/**
 * Chunked particle state (src/gpu/shared/particleBuffer.ts, the particle store of
 * src/core/layout.ts): a system whose records are split across several
 * storage buffers steps exactly as the same system in one buffer. Every
 * gallery scene runs with chunks forced small (four or more chunks, so
 * springs, links and contacts join particles of different chunks, and
 * emitters recycle slots across them), through every pass: the step, field
 * forces fused and separate, pair springs, colliders fused and separate,
 * links, particle contacts, the lifecycle (ageing, deaths, compaction,
 * emission), bulk writes and adds, reads and snapshots.
 *
 * No tolerance: chunking changes where a record is stored, not one
 * operation on it, so the two systems' snapshots must be equal byte for byte.
 */
import { mat4, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { DepthSort } from '../src/render/depthSort';
import { DEFAULT_LINK_STYLE, LinkPass } from '../src/render/linkPass';
import { DEFAULT_LOOK, type DrawView, type ParticleLook } from '../src/render/particleLook';
import { ParticlePass } from '../src/render/particlePass';
import { DEFAULT_TRAIL_LOOK, TrailPass, type TrailBinding } from '../src/render/trailPass';
import { OffscreenTarget } from './support/offscreen';
import { BYTES_PER_PARTICLE } from '../src/core/layout';
import { ALL_VARIANTS, DEFAULT_VARIANT } from '../src/core/variants';
import { ParticleBuffer, STORAGE_BESIDE_PARTICLES } from '../src/gpu/shared/particleBuffer';
import { contactSlotBytes } from '../src/gpu/collisions/contactPass';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { sceneCapacity } from '../src/scene/scene';
import { useDevice, withFreshDevice } from './support/gpu';
import { expectSameBytes, GALLERY_SCENES, GALLERY_STEPS, galleryScene } from './support/galleryScenes';
import { gpuSystemFor } from './support/sceneSystems';
import { LARGE } from './support/tiers';

const gpu = useDevice();
const DT = 1 / 60;
const STEPS = GALLERY_STEPS;
const SCENES = GALLERY_SCENES;
const scene = galleryScene;

/** The chunk that splits `capacity` slots into four or more chunks (at least 4 particles a chunk). */
const smallChunk = (capacity: number) => Math.max(4, 2 ** Math.floor(Math.log2(Math.max(1, capacity / 4))));

/** Both systems stepped alike, snapshots compared after every phase. */
async function expectSameRun(
  name: string,
  gpuOptions: { fuseForces?: boolean; fuseColliders?: boolean },
  variant = DEFAULT_VARIANT,
  device = gpu.get().device,
  chunkParticles = smallChunk(sceneCapacity(scene(name))),
) {
  const parsed = scene(name);
  const one = await gpuSystemFor(device, parsed, variant, gpuOptions);
  const chunked = await gpuSystemFor(device, parsed, variant, { ...gpuOptions, chunkParticles });
  try {
    const chunks = Math.ceil(chunked.capacity / chunkParticles);
    expect(chunked.particleStore.buffers.length, 'chunks').toBe(chunks);
    expect(chunks, 'chunks').toBeGreaterThanOrEqual(Math.min(3, Math.ceil(chunked.capacity / 4)));
    for (const system of [one, chunked]) {
      await system.stepMany(DT, STEPS / 2);
      // A bulk add across a chunk boundary (the scatter pass), then more steps; with emitters
      // the lifecycle owns every slot but the scene's own, and its passes write across chunks instead.
      const count = Math.min(system.capacity, chunkParticles + 3);
      if (!parsed.emitters && !parsed.fireworks) await system.addForces(0, new Float32Array(count * 3).fill(0.5));
      await system.stepMany(DT, STEPS / 2);
    }
    const [a, b] = [await one.snapshot(), await chunked.snapshot()];
    expectSameBytes(b, a, `${name} in ${chunks} chunks of ${chunkParticles}`);
    // Reads across chunk boundaries equal too.
    const start = Math.max(0, chunkParticles - 2);
    const n = Math.min(chunked.capacity - start, chunkParticles + 4);
    expect(await chunked.readPacked(start, n)).toEqual(await one.readPacked(start, n));
  } finally {
    one.destroy();
    chunked.destroy();
  }
}

/**
 * Large: the gallery's pools (8,192 and 16,384 slots, emitters recycling them) and its contact-resolver scenes
 * (the bridge's 32 and the cradle's 8 iterations a step, each a round of passes); the other scenes are small.
 */
const sized = (name: string) => (sceneCapacity(scene(name)) >= 8192 || hasContacts(name) ? LARGE : {});

describe.each(SCENES)('scene %s in chunks equals one buffer, bit for bit', (name) => {
  it('fused passes (the default)', sized(name), () => expectSameRun(name, {}));
  it('separate force and collider passes', sized(name), () =>
    expectSameRun(name, { fuseForces: false, fuseColliders: false }),
  );
});

/** Whether a scene runs the contact resolver (particle contacts or links), whose passes bind every chunk and 7 more buffers. */
function hasContacts(name: string): boolean {
  const parsed = scene(name);
  return parsed.collisions?.particleCollisions === true || (parsed.links?.length ?? 0) > 0;
}

describe('on a device with WebGPU default limits (8 storage buffers a pass, as a three.js renderer has)', () => {
  // The lifecycle's passes, the step, forces and colliders bind only the chunk they run for, springs and the
  // render passes every chunk and up to 3 more: 5 chunks. Chunks of a quarter of the capacity, rounded up to a
  // power of two: 3 or 4 of them.
  const quarterChunk = (name: string) => 2 ** Math.ceil(Math.log2(Math.max(4, sceneCapacity(scene(name)) / 4)));
  // The gallery again, on a second device: large.
  it.each(SCENES.filter((name) => !hasContacts(name)))('%s in chunks equals one buffer, bit for bit', LARGE, (name) =>
    withFreshDevice(gpu, {}, async (device) => {
      expect(device.limits.maxStorageBuffersPerShaderStage).toBe(8);
      await expectSameRun(name, {}, DEFAULT_VARIANT, device, quarterChunk(name));
    }),
  );
  it.each(SCENES.filter(hasContacts))(
    '%s (the contact resolver) is refused in chunks, naming the limit; in one chunk it runs',
    (name) =>
      withFreshDevice(gpu, {}, async (device) => {
        await expect(
          gpuSystemFor(device, scene(name), DEFAULT_VARIANT, { chunkParticles: quarterChunk(name) }),
        ).rejects.toThrow(/in at most 1 chunk: its maxStorageBuffersPerShaderStage of 8 less the 7/);
        const one = await gpuSystemFor(device, scene(name), DEFAULT_VARIANT);
        await one.stepMany(DT, 2);
        one.destroy();
      }),
  );
});

describe('integrator variants in chunks', () => {
  it.each(ALL_VARIANTS.map((variant) => [`${variant.integrator}, ${variant.damping}`, variant] as const))(
    '%s: forces scene',
    (_, variant) => expectSameRun('forces', {}, variant),
  );
});

describe('chunking', () => {
  it('a snapshot of a chunked system restores unchunked and back, and steps on alike', async () => {
    const { device } = gpu.get();
    const parsed = scene('fireworks');
    const chunkParticles = smallChunk(sceneCapacity(parsed));
    const chunked = await gpuSystemFor(device, parsed, DEFAULT_VARIANT, { chunkParticles });
    const systems: ParticleSystem[] = [chunked];
    try {
      await chunked.stepMany(DT, 30);
      const one = await ParticleSystem.restore(device, await chunked.snapshot());
      systems.push(one);
      const again = await ParticleSystem.restore(device, await one.snapshot(), { chunkParticles });
      systems.push(again);
      for (const system of systems) await system.stepMany(DT, 30);
      const bytes = await Promise.all(systems.map((system) => system.snapshot()));
      expectSameBytes(bytes[1] as Uint8Array, bytes[0] as Uint8Array, 'restored unchunked');
      expectSameBytes(bytes[2] as Uint8Array, bytes[0] as Uint8Array, 'restored chunked again');
    } finally {
      for (const system of systems) system.destroy();
    }
  });

  it('refuses a chunk size that is not a power of two or more than one binding holds, building nothing', async () => {
    const { device } = gpu.get();
    const perBinding = ParticleBuffer.maxPerBinding(device);
    for (const chunkParticles of [3, 6, 0, 2.5, Number.NaN, 2 ** Math.ceil(Math.log2(perBinding + 1))]) {
      await expect(ParticleSystem.create(device, { capacity: 64, chunkParticles })).rejects.toThrow(
        new RegExp(`chunkParticles must be a power of two in \\[4, ${perBinding}\\].*got ${chunkParticles}`),
      );
    }
  });

  it('refuses more chunks than the storage bindings allow, naming the limit', async () => {
    const { device } = gpu.get();
    // A system without emitters or contacts: its passes bind up to 3 storage buffers beside the chunks.
    const chunks = ParticleBuffer.maxChunks(device, STORAGE_BESIDE_PARTICLES.step);
    await expect(ParticleSystem.create(device, { capacity: 4 * chunks + 1, chunkParticles: 4 })).rejects.toThrow(
      new RegExp(
        `capacity = ${4 * chunks + 1} .*exceeds ${4 * chunks} particles.*${chunks} chunks of chunkParticles = 4.*maxStorageBuffersPerShaderStage of ${device.limits.maxStorageBuffersPerShaderStage} less the 3`,
      ),
    );
  });

  it('refuses past what one binding holds of the per-slot records kept beside the particles, naming them', async () => {
    const { device } = gpu.get();
    const binding = Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize);
    // The contact resolver keeps 64 bytes a slot in one binding with the grid (its corrections and position
    // copy): on SwiftShader's 1 GiB bindings, 16,777,216 slots, fewer than its chunks hold. Emitters' 32-byte
    // life records: 2^25 slots.
    expect(contactSlotBytes(true)).toBe(64);
    const contactLimit = Math.floor(binding / contactSlotBytes(true));
    expect(contactLimit).toBeLessThan(ParticleBuffer.maxParticles(device));
    await expect(
      ParticleSystem.create(device, { capacity: contactLimit + 1, collisions: { particleCollisions: true } }),
    ).rejects.toThrow(new RegExp(`exceeds ${contactLimit} particles.*contact resolver's records at 64 bytes a slot`));
    const lifeLimit = Math.floor(binding / 32);
    expect(lifeLimit).toBeLessThan(ParticleBuffer.maxParticles(device, STORAGE_BESIDE_PARTICLES.step));
    await expect(ParticleSystem.create(device, { capacity: lifeLimit + 1, emitters: [{ rate: 10 }] })).rejects.toThrow(
      new RegExp(`exceeds ${lifeLimit} particles.*emitters' life records at 32 bytes a slot`),
    );
  });

  it('runs emitters past 2^24 slots (the lifecycle cap before its sums saturated)', LARGE, async () => {
    const { device } = gpu.get();
    // 2^24 + 1 slots in chunks of 2^22 (SwiftShader backs 256 MiB allocations more readily than 1 GiB), a
    // 512 MiB binding of life records.
    const capacity = 2 ** 24 + 1;
    const system = await ParticleSystem.create(device, {
      capacity,
      chunkParticles: 2 ** 22,
      emitters: [{ rate: 600, lifetime: [1, 1] }],
    });
    try {
      expect(system.particleStore.buffers.length).toBe(5);
      // One step: every lifecycle pass walks all 2^24 + 1 slots (a fixed dispatch over the capacity), and one
      // step already reaches every slot's sums.
      await system.step(DT);
      // 600 a second for a step of float32(1/60) (a hair above 1/60): 10.
      const stats = await system.readStats();
      expect([stats.emitted, stats.live, stats.free]).toEqual([10, 10, capacity - 10]);
    } finally {
      system.destroy();
    }
    // About two minutes on SwiftShader, which pays for every one of the fixed dispatches' invocations.
  });

  it('a chunked system has no one buffer to bind: its buffer getter says why', async () => {
    const { device } = gpu.get();
    const system = await ParticleSystem.create(device, { capacity: 16, chunkParticles: 4 });
    try {
      expect(() => system.buffer).toThrow(/16 particles are in 4 buffers of 4/);
      expect(system.particles.buffers.map((buffer) => buffer.size)).toEqual(
        [1, 2, 3, 4].map(() => 4 * BYTES_PER_PARTICLE),
      );
    } finally {
      system.destroy();
    }
  });
});

/**
 * Drawing a chunked system: the renderer reads records through the same
 * store accessors (shaders/render/*.wgsl), so a chunked system draws the
 * very pixels the same system in one buffer draws: records by index, the
 * live list, a depth-sorted draw, trails, and links between particles of
 * different chunks.
 */
describe('drawing a chunked system', () => {
  const SIZE = 96;

  /** A camera on the live particles' centre (dead slots have a negative radius), far enough back to see them all; their extent. */
  async function viewOf(system: ParticleSystem): Promise<{ view: DrawView; extent: number }> {
    const { position, radius } = await system.read();
    const points: vec3[] = [];
    for (let i = 0; i < radius.length; i++) {
      if (radius[i]! >= 0) points.push(vec3.fromValues(position[3 * i]!, position[3 * i + 1]!, position[3 * i + 2]!));
    }
    const centre = vec3.create();
    for (const point of points) vec3.add(centre, centre, point);
    vec3.scale(centre, centre, 1 / points.length);
    const extent = Math.max(0.5, ...points.map((point) => vec3.distance(centre, point)));
    const projection = mat4.perspective(mat4.create(), Math.PI / 3, 1, 0.1, 100 * extent);
    const eye = vec3.add(vec3.create(), centre, [0, 0, 2.5 * extent]);
    const viewMatrix = mat4.lookAt(mat4.create(), eye, centre, [0, 1, 0]);
    const viewProjection = mat4.multiply(mat4.create(), projection, viewMatrix);
    return {
      view: { viewProjection, width: SIZE, height: SIZE, focalPixels: SIZE / 2 / Math.tan(Math.PI / 6) },
      extent,
    };
  }

  /** The pixels `draw` makes of `system` into a fresh target. */
  async function pixelsOf(
    device: GPUDevice,
    what: string,
    draw: (encoder: GPUCommandEncoder | null, pass: GPURenderPassEncoder | null) => void,
  ): Promise<Uint8Array> {
    const target = new OffscreenTarget(device, SIZE, 'rgba8unorm');
    try {
      // Anything recorded before the render pass (a depth sort) goes in its own submission first.
      const encoder = device.createCommandEncoder();
      draw(encoder, null);
      device.queue.submit([encoder.finish()]);
      return new Uint8Array(await target.render(what, (pass) => draw(null, pass)));
    } finally {
      target.destroy();
    }
  }

  const lit = (pixels: Uint8Array) => pixels.filter((value, i) => i % 4 === 3 && value > 0).length;

  it.each(['fireworks', 'bridge'])(
    '%s: every draw of the chunked system equals the one-buffer draw, pixel for pixel',
    LARGE,
    async (name) => {
      const { device } = gpu.get();
      const parsed = scene(name);
      const chunkParticles = smallChunk(sceneCapacity(parsed));
      const one = await gpuSystemFor(device, parsed, DEFAULT_VARIANT);
      const chunked = await gpuSystemFor(device, parsed, DEFAULT_VARIANT, { chunkParticles });
      const particles = new ParticlePass(device, 'rgba8unorm', 'depth24plus');
      const links = new LinkPass(device, 'rgba8unorm', 'depth24plus');
      const trails = new TrailPass(device, 'rgba8unorm', 'depth24plus');
      const rings: TrailBinding[] = [];
      try {
        // 40 steps, trails recorded after each of the last 8.
        for (const system of [one, chunked]) {
          const ring = trails.bind(`${name}.trails`, system.particleStore, {
            count: system.capacity,
            length: 8,
            live: system.liveBuffers,
          });
          rings.push(ring);
          await system.stepMany(DT, 32);
          for (let k = 0; k < 8; k++) {
            await system.step(DT);
            const encoder = device.createCommandEncoder();
            trails.record(encoder, ring);
            device.queue.submit([encoder.finish()]);
          }
        }
        const { view, extent } = await viewOf(one);
        const time = { extrapolate: 0, time: one.time };
        const live = one.liveBuffers !== null;
        const looks: [string, ParticleLook][] = [
          ['sprites', { ...DEFAULT_LOOK, size: extent / 8, colorMode: live ? 'life' : 'speed' }],
          [
            'alpha sprites sorted back to front',
            { ...DEFAULT_LOOK, size: extent / 8, blend: 'alpha', sort: 'back-to-front' },
          ],
        ];
        const images: Uint8Array[][] = [];
        for (const system of [one, chunked]) {
          const store = system.particleStore;
          const sources = system.liveBuffers;
          const images_: Uint8Array[] = [];
          for (const [what, look] of looks) {
            const sorted = look.sort === 'back-to-front';
            const sort = sorted
              ? new DepthSort(device, {
                  label: `${what}.sort`,
                  particles: store,
                  count: system.capacity,
                  live: sources ?? undefined,
                })
              : null;
            const binding = sort
              ? particles.bindSorted(what, store, sort)
              : sources
                ? particles.bindLive(what, store, sources)
                : particles.bind(what, store);
            try {
              const range = sources ? undefined : { count: system.capacity };
              images_.push(
                await pixelsOf(device, what, (encoder, pass) => {
                  if (encoder) particles.sortFor(encoder, binding, look, view, time);
                  if (pass) particles.draw(pass, binding, look, view, time, range);
                }),
              );
            } finally {
              binding.destroy();
              sort?.destroy();
            }
          }
          const ring = rings[images.length] as TrailBinding;
          images_.push(
            await pixelsOf(device, 'trails', (_, pass) => {
              if (pass) trails.draw(pass, ring, { ...DEFAULT_TRAIL_LOOK, width: extent / 8 }, view);
            }),
          );
          if (parsed.links) {
            // The scene's links between two particles (an anchored one has no `b`).
            const pairs = (parsed.links as { a: number; b?: number }[]).filter(
              (link): link is { a: number; b: number } => typeof link.b === 'number',
            );
            const linkBinding = links.bind('links', store, pairs);
            try {
              images_.push(
                await pixelsOf(device, 'links', (_, pass) => {
                  if (pass) links.draw(pass, linkBinding, { ...DEFAULT_LINK_STYLE, width: 2, opacity: 1 }, view, time);
                }),
              );
            } finally {
              linkBinding.destroy();
            }
          }
          images.push(images_);
        }
        const [reference, fromChunks] = images as [Uint8Array[], Uint8Array[]];
        reference.forEach((image, k) => {
          // Something is drawn (else equal images would prove nothing), and the chunked draw is the same.
          expect(lit(image), `${name} draw ${k}: lit pixels`).toBeGreaterThan(20);
          expect(Buffer.from(fromChunks[k]!).equals(Buffer.from(image)), `${name} draw ${k}: same pixels`).toBe(true);
        });
      } finally {
        for (const ring of rings) ring.destroy();
        particles.destroy();
        links.destroy();
        trails.destroy();
        one.destroy();
        chunked.destroy();
      }
    },
  );
});
