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
 * float32 bound of test/support/errorBound.ts. A variant's systems and
 * drawings are built in ./lanes.ts, the reference run in ./reference.ts, the
 * camera's framing of the trajectories in ./framing.ts.
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
import { packParticles, type ParticleInit } from '../../core/particles';
import { ALL_VARIANTS, type Variant } from '../../core/variants';
import type { OrbitCamera } from '../../render/camera';
import type { LineStyle } from '../../render/linePass';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import { TrailRecorder } from '../../render/trailRecorder';
import { sceneToLook, sceneToParticles } from '../../scene/scene';
import type { DemoContext, DemoDefinition, DemoScene, DemoSnapshot, SceneFrame } from '../shared/demo';
import { loadScene } from '../shared/sceneLook';
import type { ParamValues } from '../shared/params';
import { frameTrajectories } from './framing';
import { createLane, disposeLane, type Lane, type LaneSetup } from './lanes';
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

export async function createIntegrators(context: DemoContext<Params>): Promise<DemoScene> {
  const { passes, params } = context;
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
    const setup: LaneSetup = { particles, steps, dt, look, liveLook };
    for (const [k, variant] of ALL_VARIANTS.entries()) {
      lanes.push(await createLane(context, setup, k, variant, resumed?.trails[k]));
    }
  } catch (error) {
    for (const lane of lanes) disposeLane(lane);
    throw error;
  }

  const framing = frameTrajectories(lanes.map((lane) => lane.cpu));
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
