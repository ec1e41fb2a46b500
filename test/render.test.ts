/**
 * The renderer's host-side logic, no GPU needed: the fixed-step clock, the
 * uniform layouts against WGSL's alignment rules, the orbit camera, and the
 * demos' URL parameters. (The passes themselves run in test/browser.test.ts.)
 */
import { vec4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { OrbitCamera } from '../src/render/camera';
import { FixedStepClock } from '../src/render/fixedStep';
import { GRID_PARAMS } from '../src/render/gridPass';
import { LINE_PARAMS } from '../src/render/linePass';
import { DRAW_PARAMS } from '../src/render/particleLook';
import { UniformLayout } from '../src/render/uniforms';
import { defaultValues, param, queryFromValues, valuesFromQuery } from '../src/demos/shared/params';

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

describe('UniformLayout', () => {
  it('follows WGSL uniform alignment: vec4 and mat4 on 16 bytes, scalars packed after them', () => {
    const layout = new UniformLayout('Example', {
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
    const layout = new UniformLayout('P', { x: { type: 'f32' }, n: { type: 'u32' }, v: { type: 'vec4f' } });
    const data = layout.createData().set('x', 1.5).set('n', 7).set('v', [1, 2, 3]);
    expect(new Float32Array(data.bytes, 0, 1)[0]).toBe(1.5);
    expect(new Uint32Array(data.bytes, 4, 1)[0]).toBe(7);
    expect(Array.from(new Float32Array(data.bytes, 16, 3))).toEqual([1, 2, 3]);
  });

  it('gives every pass a block that is a multiple of 16 bytes', () => {
    for (const layout of [DRAW_PARAMS, GRID_PARAMS, LINE_PARAMS]) expect(layout.size % 16).toBe(0);
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
