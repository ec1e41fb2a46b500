/**
 * ParticlePass's live draw (bindLive) on a real adapter: the draw is
 * indirect over the lifecycle's live list, so after any number of steps it
 * draws exactly the live particles (free slots, parked, are never drawn) and
 * the host never reads the count. Every point is sent to the one pixel of a
 * float target and added to it: its alpha counts the points drawn, and with
 * the speed colours made binary its red counts the moving ones, so a free
 * slot drawn (parked at rest) would show. A clipped draw checks which live
 * particles are drawn against the live list read back. Quads drawn from the
 * live list, instanced (arguments 6, live) and pulled (6 * live, 1), are
 * counted the same way, and give the same pixels in a view of the sky.
 */
import { describe, expect, it } from 'vitest';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { DEFAULT_LOOK, type DrawView, type ParticleLook } from '../src/render/particleLook';
import { OrbitCamera } from '../src/render/camera';
import { ParticlePass, type QuadPath } from '../src/render/particlePass';
import { fireworkRules } from '../src/demos/fireworks/fireworks';
import { cycloneLaunchers } from '../src/core/emitters/cyclone';
import { useDevice } from './support/gpu';
import { OffscreenTarget } from './support/offscreen';
import { QuadPaths, expectSamePixels } from './support/quadPaths';

const gpu = useDevice();

/** Column-major: every position to clip (0, 0, 0.5, 1), the centre of the target. */
const TO_CENTRE = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5, 1];

/** Cyclone's rules, payloads doubled: a few hundred live at once, well inside float16's exact integers. */
const fireworksSystem = (device: GPUDevice) =>
  ParticleSystem.create(device, {
    capacity: 2048,
    emitters: cycloneLaunchers(2, 5),
    fireworks: fireworkRules(2, 9.81, 5),
  });

describe('ParticlePass.bindLive', () => {
  it('draws exactly the live particles of a fireworks system, in every colour mode', async () => {
    const { device } = gpu.get();
    const system = await fireworksSystem(device);
    const pass = new ParticlePass(device, 'rgba16float', 'depth24plus');
    const binding = pass.bindLive('test.live', system.particles.buffer, system.lifecycle!.buffers);
    const target = new OffscreenTarget(device, 1, 'rgba16float');
    const view = { viewProjection: TO_CENTRE, width: 1, height: 1, focalPixels: 1 };
    /**
     * One live draw into the pixel: its alpha counts the points drawn (each adds
     * its alpha, 1 but in the last 0.1% of a life in the 'life' mode), its red
     * the moving ones in the binary 'speed' mode below. Float16 counts are
     * exact below 2048.
     */
    const drawInto = async (look: Partial<ParticleLook>): Promise<{ red: number; alpha: number }> => {
      const bits = new Uint16Array(
        await target.render(`a live draw (${look.colorMode})`, (render) =>
          pass.draw(render, binding, { ...DEFAULT_LOOK, mode: 'points', intensity: 1, ...look }, view, {
            extrapolate: 0,
            time: 0,
          }),
        ),
      );
      return { red: float16(bits[0] as number), alpha: float16(bits[3] as number) };
    };
    try {
      const seen = new Set<number>();
      for (const steps of [0, 1, 30, 60, 90, 120, 150]) {
        if (steps > 0) await system.stepMany(1 / 60, steps);
        const lifecycle = (await system.readLifecycle())!;
        const { position } = await system.read();
        const live = lifecycle.live.length;
        const after = `after ${steps} more steps`;
        // 'speed' made binary: any motion is white (red 1), a parked slot (at rest) black.
        const speed = await drawInto({ colorMode: 'speed', colorA: [0, 0, 0], colorB: [1, 1, 1], speedRange: 1e-9 });
        expect(speed.alpha, `points drawn ${after}`).toBe(live);
        expect(speed.red, `moving points drawn ${after}: a parked (free) slot was drawn`).toBe(live);
        // Which particles: those of the live list above 3 m.
        const above = lifecycle.live.filter((slot) => (position[slot * 3 + 1] as number) >= 3).length;
        expect((await drawInto({ colorMode: 'index', clipBelow: 3 })).alpha, `points above 3 m ${after}`).toBe(above);
        const lifeDrawn = (await drawInto({ colorMode: 'life', fadeStart: 1 })).alpha;
        expect(lifeDrawn, `points drawn in the life colours ${after}`).toBeLessThanOrEqual(live);
        expect(lifeDrawn, `points drawn in the life colours ${after}`).toBeGreaterThanOrEqual(live * 0.95);
        seen.add(live);
      }
      // The live count went up and down: rockets were launched, burst and died.
      expect(Math.max(...seen)).toBeGreaterThan(100);
      expect(seen.size).toBeGreaterThan(3);
      const records = pass.bind('test.records', system.particles.buffer);
      expect(() =>
        pass.draw({} as GPURenderPassEncoder, records, DEFAULT_LOOK, view, { extrapolate: 0, time: 0 }),
      ).toThrow(/needs a range/);
      records.destroy();
    } finally {
      // The binding twice: its second destroy does nothing.
      for (const owned of [binding, binding, pass, system, target]) owned.destroy();
    }
  });
});

describe('ParticlePass.bindLive, quads', () => {
  /** The view's side in pixels; rgba16float rows of 96 * 8 = 768 bytes, a multiple of 256. */
  const SIZE = 96;

  it('draws the live list instanced and pulled: exactly the live particles, the same pixels', async () => {
    const { device } = gpu.get();
    const system = await fireworksSystem(device);
    const paths = new QuadPaths(device, (pass, quads) =>
      pass.bindLive(`test.${quads}`, system.particles.buffer, system.lifecycle!.buffers),
    );
    const { passes, bindings } = paths;
    const targets = [1, SIZE].map((size) => new OffscreenTarget(device, size, 'rgba16float'));
    const [pixel, sky] = targets as [OffscreenTarget, OffscreenTarget];
    const camera = new OrbitCamera({ target: [0, 12, 0], distance: 45, yaw: 0.3, pitch: 0.1 });
    camera.update(1);
    const views: Record<'pixel' | 'sky', DrawView> = {
      pixel: { viewProjection: TO_CENTRE, width: 1, height: 1, focalPixels: 1 },
      sky: camera.drawView(SIZE, SIZE),
    };
    /** One live draw into a cleared target; its pixels, rgba16float bits row by row. */
    const drawInto = async (
      target: OffscreenTarget,
      quads: QuadPath,
      look: Partial<ParticleLook>,
      view: DrawView,
    ): Promise<Uint16Array> =>
      new Uint16Array(
        await target.render(`a live ${quads} draw (${look.mode})`, (render) =>
          passes[quads].draw(render, bindings[quads], { ...DEFAULT_LOOK, ...look }, view, {
            extrapolate: 1 / 120,
            time: 0,
          }),
        ),
      );
    try {
      let lastLive = 0;
      for (const steps of [30, 60, 60]) {
        await system.stepMany(1 / 60, steps);
        const live = (await system.readLifecycle())!.live.length;
        lastLive = live;
        for (const quads of ['instanced', 'pulled'] as const) {
          // A sprite 2 px in radius centred on the one pixel: its centre adds alpha 1, so alpha counts the sprites drawn.
          const counted = await drawInto(
            pixel,
            quads,
            { mode: 'sprites', pixelSize: 2, colorMode: 'index' },
            views.pixel,
          );
          expect(float16(counted[3] as number), `${quads} sprites drawn after ${steps} more steps`).toBe(live);
        }
        for (const look of [
          { mode: 'sparks', blend: 'alpha', colorMode: 'life', stretch: 0.05 },
          { mode: 'sprites', blend: 'additive', colorMode: 'life', size: 0.15 },
        ] as const) {
          const instanced = await drawInto(sky, 'instanced', look, views.sky);
          const pulled = await drawInto(sky, 'pulled', look, views.sky);
          expectSamePixels(instanced, pulled, SIZE, 20, `${look.mode} after ${steps} more steps`);
        }
      }
      expect(lastLive).toBeGreaterThan(100);
    } finally {
      paths.destroy();
      system.destroy();
      for (const target of targets) target.destroy();
    }
  });
});

function float16(bits: number): number {
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  const sign = bits >> 15 ? -1 : 1;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? Number.NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}
