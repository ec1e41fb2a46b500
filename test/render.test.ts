/**
 * The renderer's host-side logic: the fixed-step clock, the uniform blocks
 * against WGSL's alignment rules, the orbit camera, and the demos' URL
 * parameters; and, on a real adapter, LinkPass drawing a link between two
 * particles of a simulation's buffer into an offscreen target read back pixel
 * by pixel; and ParticlePass drawing the same sprites and sparks instanced
 * and pulled, pixel for pixel the same. (The other passes run in
 * test/browser.test.ts and test/render.live.test.ts.)
 */
import { vec4 } from 'gl-matrix';
import { defineStruct } from '../src/core/schema';
import { describe, expect, it } from 'vitest';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { OrbitCamera } from '../src/render/camera';
import { FixedStepClock } from '../src/render/fixedStep';
import { GRID_PARAMS } from '../src/render/gridPass';
import { LINE_PARAMS } from '../src/render/linePass';
import { DEFAULT_LINK_STYLE, LINK_PARAMS, LinkPass, sceneLinkEnds, type LinkStyle } from '../src/render/linkPass';
import { ParticleRecords } from '../src/demos/shared/packing';
import { useDevice } from './support/gpu';
import { OffscreenTarget } from './support/offscreen';
import { QuadPaths, expectSamePixels } from './support/quadPaths';
import { DEFAULT_LOOK, DRAW_PARAMS, type ParticleLook } from '../src/render/particleLook';
import { ParticlePass, type QuadPath } from '../src/render/particlePass';
import { defaultValues, param, queryFromValues, valuesFromQuery } from '../src/demos/shared/params';

const gpu = useDevice();

describe('FixedStepClock', () => {
  it('takes whole steps from the accumulator and reports the rest as alpha', () => {
    const clock = new FixedStepClock({ dt: 0.01 });
    expect(clock.advance(0.025)).toEqual({ steps: 2, alpha: expect.closeTo(0.5, 9), dropped: 0 });
    expect(clock.advance(0.006).steps).toBe(1); // 0.005 + 0.006 = 0.011
    expect(clock.stepCount).toBe(3);
    expect(clock.time).toBeCloseTo(0.03, 12);
  });

  it('caps the steps of a slow frame and drops the backlog instead of spiralling', () => {
    const clock = new FixedStepClock({ dt: 0.01, maxStepsPerFrame: 4 });
    const plan = clock.advance(0.1);
    expect(plan.steps).toBe(4);
    expect(plan.dropped).toBeCloseTo(0.06, 9);
    expect(plan.alpha).toBeLessThan(1);
    // The next ordinary frame is ordinary again.
    expect(clock.advance(0.01).steps).toBeLessThanOrEqual(2);
  });

  it('clamps a huge frame (a background tab) to maxFrameSeconds', () => {
    const clock = new FixedStepClock({ dt: 0.01, maxStepsPerFrame: 1000, maxFrameSeconds: 0.25 });
    expect(clock.advance(30).steps).toBe(25);
  });

  it('scales time, pauses, and single-steps while paused', () => {
    const clock = new FixedStepClock({ dt: 0.01, timeScale: 2, maxStepsPerFrame: 16 });
    expect(clock.advance(0.05).steps).toBe(10);
    clock.paused = true;
    expect(clock.advance(1).steps).toBe(0);
    clock.requestStep();
    expect(clock.advance(1).steps).toBe(1);
    expect(clock.advance(1).steps).toBe(0);
    clock.paused = false;
    clock.requestStep(); // ignored while running
    expect(clock.advance(0).steps).toBe(0);
  });
});

describe('render uniform blocks (the struct schema)', () => {
  it('follows WGSL uniform alignment: vec4 and mat4 on 16 bytes, scalars packed after them', () => {
    const layout = defineStruct('Example', {
      a: { type: 'f32' },
      b: { type: 'vec4f' },
      c: { type: 'u32' },
      d: { type: 'vec2f' },
      e: { type: 'mat4x4f' },
    });
    expect(layout.offsets).toEqual({ a: 0, b: 16, c: 32, d: 40, e: 48 });
    expect(layout.size).toBe(112);
    expect(layout.wgsl()).toContain('struct Example {');
    expect(layout.wgsl()).toContain('e: mat4x4f, // offset 48');
  });

  it('packs floats and unsigned integers where the struct expects them', () => {
    const layout = defineStruct('P', { x: { type: 'f32' }, n: { type: 'u32' }, v: { type: 'vec4f' } });
    const data = layout.value().set('x', 1.5).set('n', 7).set('v', [1, 2, 3]);
    expect(new Float32Array(data.buffer, 0, 1)[0]).toBe(1.5);
    expect(new Uint32Array(data.buffer, 4, 1)[0]).toBe(7);
    expect(Array.from(new Float32Array(data.buffer, 16, 3))).toEqual([1, 2, 3]);
  });

  it('gives every pass a block that is a multiple of 16 bytes', () => {
    for (const layout of [DRAW_PARAMS, GRID_PARAMS, LINE_PARAMS, LINK_PARAMS]) expect(layout.size % 16).toBe(0);
  });
});

describe('OrbitCamera', () => {
  const project = (camera: OrbitCamera, point: [number, number, number]) => {
    const clip = vec4.transformMat4(vec4.create(), [...point, 1], camera.viewProjection);
    return [clip[0] / clip[3], clip[1] / clip[3], clip[2] / clip[3]];
  };

  it('puts the target at the centre of the screen, inside the 0..1 depth range, in both projections', () => {
    for (const projection of ['perspective', 'orthographic'] as const) {
      const camera = new OrbitCamera({ target: [1, 2, 3], distance: 10, yaw: 0.7, pitch: 0.4 });
      camera.projection = projection;
      camera.update(16 / 9);
      const [x, y, z] = project(camera, [1, 2, 3]);
      expect(Math.abs(x!)).toBeLessThan(1e-6);
      expect(Math.abs(y!)).toBeLessThan(1e-6);
      expect(z!).toBeGreaterThan(0);
      expect(z!).toBeLessThan(1);
    }
  });

  it('shifts the picture, not the view, with shiftX and shiftY', () => {
    const camera = new OrbitCamera({ target: [0, 0, 0], distance: 5 });
    camera.shiftX = -0.25;
    camera.shiftY = 0.1;
    camera.update(1);
    const [x, y] = project(camera, [0, 0, 0]);
    expect(x).toBeCloseTo(-0.25, 6);
    expect(y).toBeCloseTo(0.1, 6);
  });

  it('keeps its pitch short of the poles and its distance in range', () => {
    const camera = new OrbitCamera({ distance: 10 });
    camera.orbit(0, 10);
    expect(camera.pitch).toBeLessThan(Math.PI / 2);
    camera.zoom(1e-9);
    expect(camera.distance).toBe(camera.minDistance);
  });

  it('pans so the target follows the drag in the view plane', () => {
    const camera = new OrbitCamera({ target: [0, 0, 0], distance: 10, yaw: 0, pitch: 0 });
    camera.update(1);
    camera.pan(100, 0, 500);
    // Looking down -z from +z, dragging right moves the scene right: the target moves left (-x).
    expect(camera.target[0]).toBeLessThan(0);
    expect(Math.abs(camera.target[1]!)).toBeLessThan(1e-9);
  });
});

describe('demo parameters in the URL', () => {
  const defs = {
    count: param.integer(1024, 1, 4096, { rebuild: true }),
    size: param.number(0.5, 0, 1),
    mode: param.choice('sprites', ['sprites', 'points'] as const),
    grid: param.boolean(true),
    paused: param.boolean(false, { transient: true }),
  };

  it('writes only what differs from the defaults, and reads it back', () => {
    const values = defaultValues(defs);
    expect(queryFromValues(defs, values)).toBe('');
    values.count = 2048;
    values.mode = 'points';
    values.grid = false;
    values.paused = true;
    const query = queryFromValues(defs, values);
    expect(query).toBe('?count=2048&mode=points&grid=0');
    const { values: read, problems } = valuesFromQuery(defs, query);
    expect(problems).toEqual([]);
    expect(read).toEqual({ ...values, paused: false });
  });

  it('refuses bad values by name and keeps the defaults', () => {
    const { values, problems } = valuesFromQuery(defs, '?count=1.5&size=2&mode=lines&grid=maybe&what=1');
    expect(values).toEqual(defaultValues(defs));
    expect(problems).toEqual([
      '?count=1.5: not an integer; using 1024',
      '?size=2: outside [0, 1]; using 0.5',
      '?mode=lines: not one of sprites, points; using sprites',
      '?grid=maybe: not true or false; using true',
      '?what: no such parameter',
    ]);
  });
});

describe('sceneLinkEnds', () => {
  it("draws a scene's cables and rods, anchored or between particles, and its pair springs, with rest lengths", () => {
    const links = [
      { type: 'cable', a: 0, b: 2, maxLength: 1.9, restitution: 0.3 },
      { type: 'rod', a: 1, anchor: [0, 4, 0], length: 2 },
      { type: 'cable', a: 3, anchor: [1, 2, 3], maxLength: 0.5 },
    ];
    expect(
      sceneLinkEnds(links, [
        { a: 4, b: 5, restLength: 0.25 },
        { a: 5, b: 6 },
      ]),
    ).toEqual([
      { a: 0, b: 2, restLength: 1.9 },
      { a: 1, anchor: [0, 4, 0], restLength: 2 },
      { a: 3, anchor: [1, 2, 3], restLength: 0.5 },
      { a: 4, b: 5, restLength: 0.25 },
      { a: 5, b: 6, restLength: 0 },
    ]);
    expect(sceneLinkEnds(undefined, [])).toEqual([]);
  });
});

describe('LinkPass', () => {
  /** The target's side in pixels; a row is 64 * 4 = 256 bytes, copyTextureToBuffer's row alignment. */
  const SIZE = 64;
  /** Column-major identity: a particle's position is its clip position (w = 1). */
  const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

  it('draws a link between two particles straight from their buffer, depth-tested, coloured by stretch', async () => {
    const { device } = gpu.get();
    // Two particles at clip (-0.5, -0.5) and (0.5, 0.5), depth 0.5: pixels (16, 48) and (48, 16), y down.
    // The second moves, so extrapolation is exercised: drawn `extrapolate` seconds along its velocity.
    const system = await ParticleSystem.create(device, { capacity: 2 });
    const records = new ParticleRecords(2);
    records.set(0, -0.5, -0.5, 0.5, 0, 0, 0, 0, 0, 0, 1, 1);
    records.set(1, 0.5, 0.5, 0.5, 0, -1, 0, 0, 0, 0, 1, 1);
    records.writeTo(system, 0);
    const pass = new LinkPass(device, 'rgba8unorm', 'depth24plus');
    // As index pairs: no rest length, so the link keeps its colour.
    const binding = pass.bind('test.links', system.particles.buffer, [0, 1]);
    const target = new OffscreenTarget(device, SIZE, 'rgba8unorm');
    const view = { viewProjection: IDENTITY, width: SIZE, height: SIZE, focalPixels: 1 };
    // Green at rest length or shorter, red from 20% stretch; opaque, 3 px wide.
    const style: LinkStyle = {
      ...DEFAULT_LINK_STYLE,
      width: 3,
      color: [0, 1, 0],
      stretchColor: [1, 0, 0],
      stretchRange: 0.2,
      opacity: 1,
    };
    /** One draw into a cleared target (depth cleared to `groundDepth`); the pixels, rgba8 row by row. */
    const drawInto = async (groundDepth = 1, extrapolate = 0): Promise<Uint8Array> =>
      new Uint8Array(
        await target.render(
          'a link draw',
          (render) => pass.draw(render, binding, style, view, { extrapolate, time: 0 }),
          groundDepth,
        ),
      );
    const pixel = (pixels: Uint8Array, x: number, y: number) =>
      Array.from(pixels.subarray((y * SIZE + x) * 4, (y * SIZE + x + 1) * 4));
    // Pixel (x, 63 - x) has its centre on the segment (x + y = 64 in pixel coordinates) for x in 16..48.
    const along = Array.from({ length: 25 }, (_, i) => [20 + i, 43 - i] as const);
    // Off the segment: 5.7 px to either side, beyond either end, and the far corners.
    const away = [
      [24, 31],
      [40, 31],
      [28, 27],
      [36, 35],
      [8, 55],
      [55, 8],
      [4, 4],
      [60, 60],
    ] as const;
    const expectLink = (pixels: Uint8Array, rgba: readonly number[], what: string) => {
      for (const [x, y] of along) expect(pixel(pixels, x, y), `${what}: pixel (${x}, ${y}) on the link`).toEqual(rgba);
      for (const [x, y] of away)
        expect(pixel(pixels, x, y), `${what}: pixel (${x}, ${y}) off the link`).toEqual([0, 0, 0, 0]);
    };
    try {
      expectLink(await drawInto(), [0, 255, 0, 255], 'index pairs, no rest length');
      // The link is sqrt(2) long: stretched 41% from a rest length of 1 (all red), compressed from 2 (green).
      binding.setLinks([{ a: 0, b: 1, restLength: 1 }]);
      expectLink(await drawInto(), [255, 0, 0, 255], 'stretched');
      binding.setLinks([{ a: 1, b: 0, restLength: 2 }]);
      expectLink(await drawInto(), [0, 255, 0, 255], 'compressed, ends swapped');
      // The ground in front of the link (depth 0.25 < 0.5): nothing is drawn.
      expect(
        (await drawInto(0.25)).every((value) => value === 0),
        'a link behind the ground was drawn',
      ).toBe(true);
      // Half a second on, the moving end is drawn at (0.5, 0): the old segment's far half is dark.
      const moved = await drawInto(1, 0.5);
      expect(pixel(moved, 44, 19), 'the old segment, after extrapolation').toEqual([0, 0, 0, 0]);
      // Pixel (32, 40) lies on the new segment, from (16, 48) to (48, 32): y = 48 - (x - 16) / 2, centres at +0.5.
      expect(pixel(moved, 32, 39)[3], 'the extrapolated segment').toBeGreaterThan(0);
      // More links than the buffer held: it is replaced, and both are drawn.
      binding.setLinks([
        { a: 0, b: 1 },
        { a: 1, b: 0 },
      ]);
      expect(binding.count).toBe(2);
      expectLink(await drawInto(), [0, 255, 0, 255], 'two links, the buffer replaced');
      // An anchored link (a cable to a fixed point) from particle 0 to the second particle's place, as a point:
      // the same segment. Its anchor is where it is, not extrapolated; from a rest length of 1 it is stretched.
      binding.setLinks([{ a: 0, anchor: [0.5, 0.5, 0.5], restLength: 1 }]);
      expectLink(await drawInto(1, 0.5), [255, 0, 0, 255], 'anchored to a point, stretched');
      expect(() => binding.setLinks([{ a: 0, anchor: [0, Number.NaN, 0] }])).toThrow(
        /links\[0\]\.anchor = \[0,null,0\]: not three finite numbers/,
      );
      expect(() => binding.setLinks([0, 2])).toThrow(/links\[0\]\.b = 2: not a particle index below 2/);
      expect(() => binding.setLinks([0, 1, 1])).toThrow(/not a list of pairs/);
    } finally {
      binding.destroy();
      binding.destroy();
      pass.destroy();
      system.destroy();
      target.destroy();
    }
  });
});

describe('ParticlePass quads', () => {
  /** The target's side in pixels; rgba16float rows of 96 * 8 = 768 bytes, a multiple of copyTextureToBuffer's 256. */
  const SIZE = 96;
  const COUNT = 400;

  it('draws the same pixels instanced and pulled: sprites and sparks, every blend, a partial range', async () => {
    const { device, adapterInfo } = gpu.get();
    // 400 particles in a cube of side 2, moving every which way (sparks need a velocity), one immovable.
    const system = await ParticleSystem.create(device, { capacity: COUNT });
    const records = new ParticleRecords(COUNT);
    let seed = 12345;
    const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (let i = 0; i < COUNT; i++) {
      const [x, y, z, vx, vy, vz] = Array.from({ length: 6 }, () => random() * 2 - 1) as number[];
      records.set(i, x!, y!, z!, 4 * vx!, 4 * vy!, 4 * vz!, 0, 0, 0, i === 0 ? 0 : 1, 1);
    }
    records.writeTo(system, 0);
    const paths = new QuadPaths(device, (pass, quads) => pass.bind(`test.${quads}`, system.particles.buffer));
    const { passes, bindings } = paths;
    const auto = new ParticlePass(device, 'rgba16float', 'depth24plus');
    const target = new OffscreenTarget(device, SIZE, 'rgba16float');
    const camera = new OrbitCamera({ target: [0, 0, 0], distance: 4, yaw: 0.6, pitch: 0.3 });
    camera.update(1);
    const view = camera.drawView(SIZE, SIZE);
    /** One draw into a cleared target; its pixels, rgba16float bits row by row. */
    const drawInto = async (quads: QuadPath, look: ParticleLook, drawn: number): Promise<Uint16Array> =>
      new Uint16Array(
        await target.render(`a ${quads} draw (${look.mode}, ${look.blend})`, (render) =>
          passes[quads].draw(
            render,
            bindings[quads],
            look,
            view,
            { extrapolate: 0.01, time: 0 },
            { count: COUNT, drawn },
          ),
        ),
      );
    const cases: [string, Partial<ParticleLook>, number][] = [
      ['sprites, additive, index colours', { mode: 'sprites', blend: 'additive', colorMode: 'index' }, COUNT],
      ['sparks, alpha, speed colours', { mode: 'sparks', blend: 'alpha', colorMode: 'speed', stretch: 0.05 }, COUNT],
      ['sprites, alpha, dimmed below minPixels', { mode: 'sprites', blend: 'alpha', size: 0.01, minPixels: 3 }, COUNT],
      ['sparks, additive, the first 250', { mode: 'sparks', blend: 'additive', stretch: 0.1 }, 250],
    ];
    try {
      expect(auto.quads, `'auto' on ${adapterInfo.description}`).toBe(adapterInfo.software ? 'pulled' : 'instanced');
      for (const software of [true, false]) {
        const told = new ParticlePass(device, 'rgba16float', 'depth24plus', { software });
        expect(told.quads, `'auto' told software: ${software}`).toBe(software ? 'pulled' : 'instanced');
        told.destroy();
      }
      expect(() => new ParticlePass(device, 'rgba16float', 'depth24plus', { quads: 'both' as QuadPath })).toThrow(
        /quads 'both' is not one of auto, instanced, pulled/,
      );
      for (const [what, change, drawn] of cases) {
        const look: ParticleLook = { ...DEFAULT_LOOK, size: 0.04, ...change };
        const instanced = await drawInto('instanced', look, drawn);
        const pulled = await drawInto('pulled', look, drawn);
        // Enough of the target lit that the comparison means something: alpha > 0 in a few hundred pixels.
        expectSamePixels(instanced, pulled, SIZE, 300, what);
      }
    } finally {
      paths.destroy();
      auto.destroy();
      system.destroy();
      target.destroy();
    }
  });
});
