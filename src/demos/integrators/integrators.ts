/**
 * Integrators: one scene (Cyclone's ballistic demo, or the damping scene) run
 * side by side under every variant, explicit and semi-implicit order (the
 * columns) times the three damping modes (the rows), on the GPU, with the CPU
 * reference's trajectory drawn over the GPU's so a user sees that they agree.
 *
 * Per variant: a ParticleSystem steps on the GPU, and after every step its
 * state is copied into a TrailRecorder (a history on the GPU, drawn as dots);
 * the CPU reference (src/core, float32) runs the same steps up front and is
 * drawn as lines. At the end of a run the trails are read back once and
 * compared with the reference at every step: the largest |GPU - CPU| per
 * variant is shown, and the browser test checks it against the carried
 * float32 bound of test/support/errorBound.ts.
 *
 * The GPU's current state is drawn with the scene file's `look` where it has
 * one (src/demos/shared/sceneLook.ts: its draws, sorts and trails over each
 * variant's system), over the page's bright dots.
 *
 * Its snapshot (kept for a lost device, src/demos/shared/recovery.ts) is
 * every variant's system, the run's progress and each trail's samples so far:
 * continued on a new device, the run goes on from that step and its
 * comparison still covers every step (the look's trails start empty).
 */
import { CpuParticleSystem } from '../../core/cpuParticleSystem';
import { floatIndex, FLOATS_PER_PARTICLE } from '../../core/layout';
import { packParticles, type ParticleInit } from '../../core/particles';
import { ALL_VARIANTS, variantName, type Variant } from '../../core/variants';
import { ParticleSystem } from '../../gpu/particleSystem';
import type { OrbitCamera } from '../../render/camera';
import type { GridBinding, GridSpec } from '../../render/gridPass';
import type { LineBinding, LineStyle } from '../../render/linePass';
import type { ParticleBinding } from '../../render/particlePass';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import { TrailRecorder } from '../../render/trailRecorder';
import { sceneToLook, sceneToParticles } from '../../scene/scene';
import type { DemoContext, DemoDefinition, DemoScene, DemoSnapshot, SceneFrame } from '../shared/demo';
import { LookDraws } from '../../render/lookDraws';
import { loadScene } from '../shared/sceneLook';
import type { ParamValues } from '../shared/params';
import { resumedSystem } from '../shared/recovery';
import { INTEGRATORS_PARAMS } from './params';

type Params = ParamValues<typeof INTEGRATORS_PARAMS>;

const BACKGROUND = [0.03, 0.034, 0.05] as const;
/** Columns: integration order; rows: damping mode (the order of ALL_VARIANTS is order-major). */
const COLUMNS = 2;
const ROWS = 3;

/** What the page reports to the browser test, per run. */
export interface IntegratorsCheck {
  scene: string;
  steps: number;
  dt: number;
  /** Completed runs (each compared in full). */
  runs: number;
  variants: {
    integrator: Variant['integrator'];
    damping: Variant['damping'];
    /** Largest |GPU - CPU| over every position component of every particle at every step. */
    worst: number;
    /** GPU positions, xyz per particle per step (steps + 1 samples, the initial state first). */
    gpu: number[];
  }[];
}

/** The page's state outside its systems, in a snapshot (DemoSnapshot.host). */
interface IntegratorsHost {
  stepsDone: number;
  finishedAt: number;
  restartPending: boolean;
  /** Whether the finished run was compared (its comparison reads the trails back). */
  compared: boolean;
  runs: number;
  variants: IntegratorsCheck['variants'];
  /** Each lane's trail: its samples so far, as packed Particle records. */
  trails: Float32Array[];
}

interface Lane {
  variant: Variant;
  system: ParticleSystem;
  trail: TrailRecorder;
  /** CPU reference positions, xyz per particle per sample. */
  cpu: Float32Array;
  lines: LineBinding;
  dots: ParticleBinding;
  /** The GPU's current state, drawn with the scene's look. */
  live: LookDraws;
  backdrop: GridBinding;
  caption: HTMLDivElement;
  worst: number;
}

/** The trajectories' extent and the plane they are best seen in. */
interface Framing {
  centre: [number, number, number];
  /** The axis the camera looks along (the one with the least extent). */
  depthAxis: 0 | 1 | 2;
  /** Extent along the screen's right and up axes. */
  width: number;
  height: number;
  /** The backdrop: behind everything along the depth axis. */
  backdrop: GridSpec;
}

function niceSpacing(range: number): number {
  const raw = range / 16;
  const power = 10 ** Math.floor(Math.log10(raw));
  const mantissa = raw / power;
  return (mantissa < 2 ? 1 : mantissa < 5 ? 2 : 5) * power;
}

function frame(trajectories: Float32Array[]): Framing {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const positions of trajectories) {
    for (let i = 0; i < positions.length; i++) {
      const c = i % 3;
      const x = positions[i] as number;
      if (Number.isFinite(x)) {
        min[c] = Math.min(min[c] as number, x);
        max[c] = Math.max(max[c] as number, x);
      }
    }
  }
  const extent = [0, 1, 2].map((c) => Math.max((max[c] as number) - (min[c] as number), 1e-3));
  const centre = [0, 1, 2].map((c) => ((max[c] as number) + (min[c] as number)) / 2) as [number, number, number];
  // Look along x (the screen shows z to the right, y up) unless z is the thinner axis.
  const depthAxis: 0 | 2 = (extent[0] as number) <= (extent[2] as number) ? 0 : 2;
  const rightAxis = depthAxis === 0 ? 2 : 0;
  const width = extent[rightAxis] as number;
  const height = extent[1] as number;
  const spacing = niceSpacing(Math.max(width, height));
  const behind = depthAxis === 0 ? (max[0] as number) + spacing : (min[2] as number) - spacing;
  const backdropCentre: [number, number, number] = [...centre];
  backdropCentre[depthAxis] = behind;
  return {
    centre,
    depthAxis,
    width,
    height,
    backdrop: {
      centre: backdropCentre,
      halfSize: Math.max(width, height) * 3,
      axisU: depthAxis === 0 ? [0, 0, 1] : [1, 0, 0],
      axisV: [0, 1, 0],
      spacing,
      majorEvery: 5,
      lineColor: [0.2, 0.23, 0.32],
      planeColor: [0.055, 0.06, 0.085],
      fadeColor: [0.055, 0.06, 0.085],
    },
  };
}

export async function createIntegrators(context: DemoContext<Params>): Promise<DemoScene> {
  const { device, passes, params, hud } = context;
  const scene = await loadScene(params.scene);
  const particles: ParticleInit[] = sceneToParticles(scene);
  const look = sceneToLook(scene);
  const count = particles.length;
  const steps = params.steps;
  const dt = 1 / params.stepRate;
  const packed = packParticles(particles);
  // The GPU's current state bright, unless the scene's look says otherwise.
  const liveLook: ParticleLook = { ...DEFAULT_LOOK, blend: 'additive', saturation: 0.2, intensity: 1.6 };
  const lanes: Lane[] = [];
  const check: IntegratorsCheck = { scene: params.scene, steps, dt, runs: 0, variants: [] };
  const resumed = context.resume ? (context.resume.host as IntegratorsHost) : null;

  try {
    for (const [k, variant] of ALL_VARIANTS.entries()) {
      const name = variantName(variant);
      // The CPU reference: float32, the same steps, every position kept.
      const reference = new CpuParticleSystem({ capacity: count, ...variant });
      reference.writeParticles(0, particles);
      const cpu = new Float32Array((steps + 1) * count * 3);
      for (let s = 0; s <= steps; s++) {
        if (s > 0) reference.step(dt);
        for (let i = 0; i < count; i++) {
          for (let c = 0; c < 3; c++)
            cpu[(s * count + i) * 3 + c] = reference.state[floatIndex(i, 'position', c)] as number;
        }
      }
      let system: ParticleSystem;
      if (context.resume) {
        system = await ParticleSystem.restore(device, resumedSystem(context.resume, k));
      } else {
        system = await ParticleSystem.create(device, { capacity: count, ...variant });
        await system.writeParticles(0, particles);
      }
      let trail: TrailRecorder;
      try {
        trail = new TrailRecorder(device, system.particles.buffer, count, steps + 1, `Integrators.trail(${name})`);
        const samples = resumed?.trails[k];
        if (samples) {
          // The samples recorded before the snapshot, so the run's comparison still covers every step.
          device.queue.writeBuffer(trail.buffer, 0, samples.buffer, samples.byteOffset, samples.byteLength);
          trail.recorded = samples.length / (count * FLOATS_PER_PARTICLE);
        }
      } catch (error) {
        system.destroy();
        throw error;
      }
      const strips = Array.from({ length: count }, (_, i) => {
        const strip = new Float32Array((steps + 1) * 3);
        for (let s = 0; s <= steps; s++) strip.set(cpu.subarray((s * count + i) * 3, (s * count + i) * 3 + 3), s * 3);
        return strip;
      });
      const caption = document.createElement('div');
      caption.className = 'sw-caption';
      hud.overlay.append(caption);
      lanes.push({
        variant,
        system,
        trail,
        cpu,
        lines: passes.lines.bind(`Integrators.cpu(${name})`, strips),
        dots: passes.particles.bind(`Integrators.dots(${name})`, trail.buffer),
        live: new LookDraws(context, `Integrators.live(${name})`, look, system.particleStore, {
          count,
          base: liveLook,
        }),
        backdrop: passes.grid.bind(`Integrators.backdrop(${name})`),
        caption,
        worst: Number.NaN,
      });
    }
  } catch (error) {
    for (const lane of lanes) disposeLane(lane);
    throw error;
  }

  const framing = frame(lanes.map((lane) => lane.cpu));
  let stepsDone = resumed?.stepsDone ?? 0;
  let finishedAt = resumed?.finishedAt ?? Number.NaN;
  let checking = false;
  let restartPending = resumed?.restartPending ?? true;
  let compared = resumed?.compared ?? false;
  if (resumed) {
    check.runs = resumed.runs;
    check.variants = resumed.variants;
    lanes.forEach((lane, k) => (lane.worst = resumed.variants[k]?.worst ?? Number.NaN));
  }
  /** The camera is fitted again once the viewports' real aspect is known. */
  let fitPending = true;
  let viewportAspect = 2;

  function disposeLane(lane: Lane): void {
    lane.caption.remove();
    lane.lines.destroy();
    lane.dots.destroy();
    lane.live.destroy();
    lane.backdrop.destroy();
    lane.trail.destroy();
    lane.system.destroy();
  }

  /** Reads every trail back once and compares it with the reference at every step. */
  async function compare(): Promise<void> {
    checking = true;
    try {
      const results = await Promise.all(lanes.map((lane) => lane.trail.read()));
      check.variants = lanes.map((lane, k) => {
        const gpu = TrailRecorder.positions(results[k] as Float32Array);
        let worst = 0;
        for (let i = 0; i < gpu.length; i++)
          worst = Math.max(worst, Math.abs((gpu[i] as number) - (lane.cpu[i] as number)));
        if (gpu.length !== lane.cpu.length) worst = Number.NaN;
        lane.worst = worst;
        return { ...lane.variant, worst, gpu: Array.from(gpu) };
      });
      check.runs++;
      compared = true;
    } finally {
      checking = false;
    }
  }

  /** Frames the trajectories' extent in a viewport of the last drawn aspect. */
  function fit(camera: OrbitCamera): void {
    camera.projection = 'orthographic';
    camera.set({
      target: framing.centre,
      // From -x, z runs to the right; from +z, x does.
      yaw: framing.depthAxis === 0 ? -Math.PI / 2 : 0,
      pitch: 0,
    });
    const halfHeight = Math.max(framing.height / 2, framing.width / 2 / viewportAspect) * 1.1;
    camera.distance = halfHeight / Math.tan(camera.fovY / 2);
  }

  // GPU dots pale, CPU lines saturated and thinner over them.
  const dotLook: ParticleLook = { ...DEFAULT_LOOK, blend: 'alpha', saturation: 0.3, intensity: 1 };
  const lineStyle: LineStyle = { width: 1.2, alpha: 0.9, hueOffset: 0, hueSpan: 1, saturation: 0.9, brightness: 0.95 };

  // A run that finished before the snapshot and was not yet compared is compared now, from the restored trails.
  if (resumed && stepsDone === steps && !compared) void compare();

  return {
    particleCount: count * lanes.length,
    beforeSteps(time) {
      if (stepsDone >= steps && !checking && Number.isNaN(finishedAt)) finishedAt = time;
      if (!Number.isNaN(finishedAt) && !checking && time >= finishedAt + params.hold) {
        // Run again from the scene's first state.
        for (const lane of lanes) lane.system.particles.write(0, packed);
        stepsDone = 0;
        finishedAt = Number.NaN;
        restartPending = true;
        compared = false;
      }
    },
    encodeSteps(encoder, stepDt, requested) {
      if (restartPending) {
        for (const lane of lanes) {
          lane.trail.reset();
          lane.trail.record(encoder);
          lane.live.reset(encoder);
        }
        restartPending = false;
      }
      const n = Math.min(requested, steps - stepsDone);
      for (let s = 0; s < n; s++) {
        for (const lane of lanes) {
          lane.system.encodeSteps(encoder, stepDt, 1);
          lane.trail.record(encoder);
        }
      }
      stepsDone += n;
      // The scene look's trails and sorts follow the steps (none without a look).
      if (n > 0) {
        const { camera, target } = context;
        const view = camera.drawView(target.width, target.height);
        for (const lane of lanes) lane.live.encode(encoder, view);
      }
      // The last step is submitted with this frame; the comparison reads back after it.
      if (n > 0 && stepsDone === steps) queueMicrotask(() => void compare());
    },
    submitted() {
      for (const lane of lanes) lane.system.submitted();
    },
    render(pass, frame: SceneFrame) {
      const { target, camera } = frame;
      // The grid of viewports fills the part of the canvas the panel and the header leave free.
      const free = frame.free;
      const rects = target.grid(ROWS, COLUMNS, 6).map((r) => {
        const sx = free.width / target.width;
        const sy = free.height / target.height;
        return {
          x: Math.round(free.x + r.x * sx),
          y: Math.round(free.y + r.y * sy),
          width: Math.max(1, Math.floor(r.width * sx)),
          height: Math.max(1, Math.floor(r.height * sy)),
        };
      });
      const ratio = target.pixelRatio;
      const running = stepsDone < steps;
      dotLook.pixelSize = params.dotSize * ratio;
      lineStyle.width = params.lineWidth * ratio;
      lineStyle.alpha = params.lineAlpha;
      camera.shiftX = 0;
      camera.shiftY = 0;
      const first = rects[0];
      if (fitPending && first) {
        viewportAspect = first.width / first.height;
        fit(camera);
        fitPending = false;
      }
      lanes.forEach((lane, k) => {
        // ALL_VARIANTS is order-major: k = order * 3 + damping; order picks the column, damping the row.
        const column = Math.floor(k / ROWS);
        const row = k % ROWS;
        const rect = rects[row * COLUMNS + column];
        if (!rect) return;
        pass.setViewport(rect.x, rect.y, rect.width, rect.height, 0, 1);
        pass.setScissorRect(rect.x, rect.y, rect.width, rect.height);
        camera.update(rect.width / rect.height);
        const view = camera.drawView(rect.width, rect.height);
        passes.grid.draw(pass, lane.backdrop, framing.backdrop, view);
        const recorded = lane.trail.recorded;
        const stride = Math.max(1, Math.round(params.dotEvery));
        passes.particles.draw(
          pass,
          lane.dots,
          dotLook,
          view,
          { extrapolate: 0, time: 0 },
          {
            count,
            drawn: Math.ceil(recorded / stride) * count,
            sampleStride: stride,
          },
        );
        passes.lines.draw(pass, lane.lines, lineStyle, view);
        const time = running ? frame.time : { extrapolate: 0, time: frame.time.time };
        lane.live.render(pass, view, time, {
          intensity: 1,
          trails: true,
          range: { count },
          pixelSize: (params.dotSize + 3) * ratio,
        });
        // The caption over the viewport, in CSS pixels.
        const worst = Number.isNaN(lane.worst)
          ? 'comparing after the first run…'
          : `max |GPU − CPU| ${lane.worst.toExponential(2)} over ${steps + 1} states`;
        const text = `${lane.variant.integrator} · damping ${lane.variant.damping}\n${worst}`;
        if (lane.caption.textContent !== text) lane.caption.textContent = text;
        const style = lane.caption.style;
        const left = `${(rect.x / ratio).toFixed(1)}px`;
        const top = `${(rect.y / ratio).toFixed(1)}px`;
        if (style.left !== left) style.left = left;
        if (style.top !== top) style.top = top;
      });
      // Later passes of the frame (none today) get the whole canvas back.
      pass.setViewport(0, 0, target.width, target.height, 0, 1);
      pass.setScissorRect(0, 0, target.width, target.height);
    },
    status() {
      return `${params.scene}: ${count} particles x ${lanes.length} variants · step ${stepsDone} of ${steps} · dots: GPU, lines: CPU reference`;
    },
    check() {
      return check;
    },
    fitCamera(camera: OrbitCamera) {
      fitPending = true;
      fit(camera);
    },
    snapshot() {
      // Taken now, with the copies submitted below, so later frames change neither.
      const host = { stepsDone, finishedAt, restartPending, compared, runs: check.runs, variants: check.variants };
      const systems = Promise.all(lanes.map((lane) => lane.system.snapshot()));
      const trails = Promise.all(lanes.map((lane) => lane.trail.read()));
      return Promise.all([systems, trails]).then(([systems, trails]): DemoSnapshot => ({
        systems,
        host: { ...host, trails } satisfies IntegratorsHost,
      }));
    },
    dispose() {
      for (const lane of lanes) disposeLane(lane);
    },
  };
}

export const integrators: DemoDefinition<typeof INTEGRATORS_PARAMS> = {
  id: 'integrators',
  title: 'Integrators',
  note:
    'Every variant side by side: explicit (Cyclone) and semi-implicit (Bourg) order in the columns, per-second, ' +
    'per-step and no damping in the rows. Dots: the GPU, every few steps; lines: the CPU reference over them.',
  params: INTEGRATORS_PARAMS,
  camera: { target: [0, 0, 0], distance: 100, yaw: -Math.PI / 2, pitch: 0, projection: 'orthographic' },
  background: BACKGROUND,
  create: createIntegrators,
};
