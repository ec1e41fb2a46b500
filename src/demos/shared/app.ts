/**
 * Runs one demo page: reads its parameters from the URL, builds the panel,
 * acquires the device (or says plainly why WebGPU is missing), and drives the
 * fixed-step loop: host work, the steps (timed on the GPU), one render pass,
 * one submit a frame. GPU errors and a lost device stop the loop and show a
 * message with a button that restarts the demo on a fresh device.
 */
import GUI from 'lil-gui';
import './style.css';
import { acquireDevice, type AdapterDescription } from '../../gpu/device';
import { withErrorScopes } from '../../gpu/errors';
import { CanvasTarget, type PixelRect } from '../../render/canvasTarget';
import { OrbitCamera, type OrbitCameraState, type Projection } from '../../render/camera';
import { FixedStepClock } from '../../render/fixedStep';
import { GpuTimer } from '../../render/gpuTimer';
import { GridPass } from '../../render/gridPass';
import { LinePass } from '../../render/linePass';
import { LinkPass } from '../../render/linkPass';
import { OrbitControls } from '../../render/orbitControls';
import { ParticlePass } from '../../render/particlePass';
import type { DrawTime, DrawView, Rgb } from '../../render/particleLook';
import type { clockParams } from './commonParams';
import { installHooks, type SparkworksHooks } from './hooks';
import { Hud } from './hud';
import { buildPanel, queryFromValues, valuesFromQuery, type ParamDefs, type ParamValues } from './params';
import { missingWebGpu, noAdapter } from './support';

/** The passes a demo draws with; the app creates and destroys them, demos bind to them. */
export interface RenderPasses {
  particles: ParticlePass;
  grid: GridPass;
  lines: LinePass;
  links: LinkPass;
}

export interface SceneFrame {
  /** The whole canvas seen through the camera (centred in `free`). */
  view: DrawView;
  /** The part of the canvas the panel leaves free, in device pixels. */
  free: PixelRect;
  time: DrawTime;
  /** accumulator / dt. */
  alpha: number;
  target: CanvasTarget;
  camera: OrbitCamera;
}

/** One running demo on one device: made by its definition's `create`, freed by `dispose`. */
export interface DemoScene {
  readonly particleCount: number;
  /** Host work due before this frame's steps (relaunches, re-aims): queue writes only. `time` is the state's simulated time. */
  beforeSteps?(time: number, dt: number): void;
  /** Records `steps` steps of `dt` into `encoder`. */
  encodeSteps(encoder: GPUCommandEncoder, dt: number, steps: number): void;
  /** Records the draws into the frame's render pass (depth-tested, cleared to the background). */
  render(pass: GPURenderPassEncoder, frame: SceneFrame): void;
  /** Appended to the statistics line. */
  status?(): string;
  /** Results for the browser tests. */
  check?(): unknown;
  /** Frames the camera on the scene (after the definition's camera is set), e.g. to fit its extent. */
  fitCamera?(camera: OrbitCamera): void;
  dispose(): void;
}

export interface DemoContext<V> {
  device: GPUDevice;
  adapterInfo: AdapterDescription;
  target: CanvasTarget;
  camera: OrbitCamera;
  passes: RenderPasses;
  /** Live values: the panel writes into this object; read it every frame for what needs no rebuild. */
  params: V;
  hud: Hud;
}

type ClockDefs = ReturnType<typeof clockParams>;
type ClockValues = ParamValues<ClockDefs>;

export interface DemoDefinition<D extends ParamDefs & ClockDefs> {
  id: string;
  title: string;
  /** What is a stand-in until a later issue lands. */
  note?: string;
  params: D;
  camera: Partial<OrbitCameraState> & { projection?: Projection };
  background: Rgb;
  create(context: DemoContext<ParamValues<D>>): Promise<DemoScene>;
}

interface GpuState {
  device: GPUDevice;
  adapterInfo: AdapterDescription;
  target: CanvasTarget;
  passes: RenderPasses;
  timer: GpuTimer;
}

const STATS_INTERVAL_MS = 250;

export function runDemo<D extends ParamDefs & ClockDefs>(definition: DemoDefinition<D>): DemoApp<D> {
  const app = new DemoApp(definition);
  void app.start();
  return app;
}

export class DemoApp<D extends ParamDefs & ClockDefs> {
  readonly params: ParamValues<D>;
  readonly hooks: SparkworksHooks;
  readonly hud: Hud;
  readonly camera: OrbitCamera;
  private readonly canvas: HTMLCanvasElement;
  private readonly gui: GUI;
  private readonly controls: OrbitControls;
  private readonly clock: FixedStepClock;
  private gpu: GpuState | null = null;
  private scene: DemoScene | null = null;
  private running = false;
  private building = false;
  private rebuildQueued = false;
  private releasing: GPUDevice | null = null;
  private lastNow: number | null = null;
  private frameMs = Number.NaN;
  private lastStats = 0;
  private lastSteps = 0;
  private captures: ((dataUrl: string) => void)[] = [];
  /** The header's depth over the canvas, for the canvas size it was measured at. */
  private headerFor = { width: 0, height: 0, top: 0 };

  /** The clock's parameters, which every demo has (ParamValues of a generic D does not narrow). */
  private get clockValues(): ClockValues {
    return this.params as unknown as ClockValues;
  }

  constructor(private readonly definition: DemoDefinition<D>) {
    this.hooks = installHooks(definition.id);
    const { values, problems } = valuesFromQuery(definition.params, location.search);
    this.params = values;
    this.hud = new Hud({
      title: definition.title,
      note: [definition.note, ...problems.map((p) => `Ignored ${p}.`)].filter(Boolean).join(' '),
      galleryHref: '../index.html',
    });
    const canvas = document.querySelector<HTMLCanvasElement>('canvas#view');
    if (!canvas) throw new Error('the page has no <canvas id="view">');
    this.canvas = canvas;
    this.camera = new OrbitCamera();
    this.resetView();
    this.controls = new OrbitControls(canvas, this.camera);
    this.clock = new FixedStepClock({ dt: 1 / this.clockValues.stepRate });
    this.gui = new GUI({ title: 'Parameters' });
    this.buildGui();
    this.hooks.capture = () => new Promise((resolve) => this.captures.push(resolve));
  }

  private resetView(): void {
    const { projection, ...state } = this.definition.camera;
    this.camera.projection = projection ?? 'perspective';
    this.camera.set(state);
    this.scene?.fitCamera?.(this.camera);
  }

  private buildGui(): void {
    const { folders } = buildPanel(this.gui, this.definition.params, this.params, (_key, def) => {
      history.replaceState(null, '', `${location.pathname}${queryFromValues(this.definition.params, this.params)}`);
      if (def.rebuild) void this.rebuild();
    });
    const simulation = folders.get('Simulation') ?? this.gui;
    simulation.add({ step: () => this.clock.requestStep() }, 'step').name('single step');
    const actions = {
      restart: () => void this.rebuild(),
      resetView: () => this.resetView(),
      copyLink: () => void this.copyLink(),
    };
    this.gui.add(actions, 'restart');
    this.gui.add(actions, 'resetView').name('reset view');
    this.gui.add(actions, 'copyLink').name('copy link');
  }

  private async copyLink(): Promise<void> {
    try {
      await navigator.clipboard.writeText(location.href);
      this.hud.setStats(`Copied ${location.href}`);
    } catch {
      this.hud.setStats(`Link: ${location.href}`);
    }
    this.lastStats = performance.now() + 2000;
  }

  async start(): Promise<void> {
    const missing = missingWebGpu();
    if (missing) {
      this.hooks.state = 'no-webgpu';
      this.hooks.message = missing.title;
      this.hud.setStats('');
      // Nothing to adjust without a GPU: the panel would only get in the way of the message.
      this.gui.hide();
      this.hud.showMessage(missing.title, { tone: 'info', lines: missing.lines });
      return;
    }
    await this.boot();
  }

  private async boot(): Promise<void> {
    this.hooks.state = 'starting';
    let acquired;
    try {
      acquired = await acquireDevice();
    } catch (error) {
      const problem = noAdapter((error as Error).message);
      this.hooks.state = 'no-adapter';
      this.hooks.message = problem.title;
      this.hud.showMessage(problem.title, {
        tone: 'error',
        lines: problem.lines,
        button: { label: 'Try again', onClick: () => void this.restart() },
      });
      return;
    }
    const { device, adapterInfo } = acquired;
    this.hooks.adapter = adapterInfo.description;
    device.addEventListener('uncapturederror', (event) =>
      this.fail('A WebGPU error stopped the demo', (event as GPUUncapturedErrorEvent).error.message),
    );
    void device.lost.then((info) => this.lost(device, info));
    this.hooks.loseDevice = () => device.destroy();
    try {
      const gpu = await withErrorScopes(device, 'creating the renderer', () => {
        const target = new CanvasTarget(device, this.canvas);
        const passes: RenderPasses = {
          particles: new ParticlePass(device, target.format, target.depthFormat),
          grid: new GridPass(device, target.format, target.depthFormat),
          lines: new LinePass(device, target.format, target.depthFormat),
          links: new LinkPass(device, target.format, target.depthFormat),
        };
        return { device, adapterInfo, target, passes, timer: new GpuTimer(device) };
      });
      this.gpu = gpu;
      this.hooks.gpuTiming = gpu.timer.source;
      await this.createScene();
    } catch (error) {
      this.fail('The demo could not start', error);
      return;
    }
    this.running = true;
    this.lastNow = null;
    this.hooks.state = 'running';
    requestAnimationFrame(this.frame);
  }

  private async createScene(): Promise<void> {
    const gpu = this.gpu;
    if (!gpu) return;
    this.scene?.dispose();
    this.scene = null;
    this.clock.reset();
    this.clock.dt = 1 / this.clockValues.stepRate;
    const context: DemoContext<ParamValues<D>> = {
      device: gpu.device,
      adapterInfo: gpu.adapterInfo,
      target: gpu.target,
      camera: this.camera,
      passes: gpu.passes,
      params: this.params,
      hud: this.hud,
    };
    this.scene = await withErrorScopes(gpu.device, `creating the ${this.definition.title} demo`, () =>
      this.definition.create(context),
    );
    this.hooks.particles = this.scene.particleCount;
    this.scene.fitCamera?.(this.camera);
  }

  /** Disposes the scene and makes it again from the current parameters (same device). */
  private async rebuild(): Promise<void> {
    if (this.building) {
      this.rebuildQueued = true;
      return;
    }
    if (!this.gpu || !this.running) return;
    this.building = true;
    try {
      do {
        this.rebuildQueued = false;
        await this.createScene();
      } while (this.rebuildQueued);
    } catch (error) {
      this.fail('The demo could not be rebuilt', error);
    } finally {
      this.building = false;
    }
  }

  private readonly frame = (now: number): void => {
    if (!this.running) return;
    requestAnimationFrame(this.frame);
    const gpu = this.gpu;
    const scene = this.scene;
    if (!gpu || !scene || this.building) return;
    try {
      const seconds = this.lastNow === null ? 0 : (now - this.lastNow) / 1000;
      this.lastNow = now;
      if (seconds > 0) this.frameMs = Number.isNaN(this.frameMs) ? seconds * 1000 : this.frameMs * 0.9 + seconds * 100;

      const p = this.clockValues;
      const clock = this.clock;
      clock.paused = p.paused;
      clock.timeScale = p.timeScale;
      clock.maxStepsPerFrame = p.maxSteps;
      clock.dt = 1 / p.stepRate;
      const timeBefore = clock.time;
      const plan = clock.advance(seconds);
      this.lastSteps = plan.steps;

      const { device, target, timer } = gpu;
      target.applyResize();
      const free = this.freeRect(target);
      // Centre the scene in the part of the canvas the panel and the header leave free.
      this.camera.shiftX = ((free.x + free.width / 2) / target.width) * 2 - 1;
      this.camera.shiftY = 1 - ((free.y + free.height / 2) / target.height) * 2;
      this.camera.update(target.width / target.height);
      scene.beforeSteps?.(timeBefore, clock.dt);

      const encoder = device.createCommandEncoder({ label: `${this.definition.id}: frame` });
      if (plan.steps > 0) timer.time(encoder, (e) => scene.encodeSteps(e, clock.dt, plan.steps));
      const extrapolate = p.interpolate ? plan.alpha * clock.dt : 0;
      const pass = target.beginPass(encoder, [...this.definition.background]);
      scene.render(pass, {
        view: {
          viewProjection: this.camera.viewProjection,
          width: target.width,
          height: target.height,
          focalPixels: this.camera.focalPixels(target.height),
        },
        free,
        time: { extrapolate, time: clock.time + extrapolate },
        alpha: plan.alpha,
        target,
        camera: this.camera,
      });
      pass.end();
      device.queue.submit([encoder.finish()]);
      timer.afterSubmit();
      if (this.captures.length > 0) {
        const dataUrl = this.canvas.toDataURL('image/png');
        for (const resolve of this.captures.splice(0)) resolve(dataUrl);
      }

      this.hooks.frames++;
      this.hooks.steps = clock.stepCount;
      this.hooks.check = scene.check?.() ?? null;
      if (now - this.lastStats > STATS_INTERVAL_MS) {
        this.lastStats = now;
        this.hud.setStats(this.statsLine(scene, gpu));
      }
    } catch (error) {
      this.fail('The demo stopped', error);
    }
  };

  /**
   * The canvas minus the panel's column on the right (when it is open and the
   * canvas wide enough) and the header's band at the top, in device pixels.
   */
  private freeRect(target: CanvasTarget): PixelRect {
    const canvas = this.canvas.getBoundingClientRect();
    if (canvas.width === 0 || canvas.height === 0) return target.fullRect();
    const panel = this.gui.domElement.getBoundingClientRect();
    let right = canvas.width;
    const covered = canvas.right - panel.left + 8;
    if (!this.gui._closed && panel.width > 0 && covered > 0 && covered < canvas.width * 0.45) right -= covered;
    const header = this.hud.root.getBoundingClientRect();
    // The statistics line wraps differently as its numbers change: keep the deepest header seen at
    // this canvas size, so the picture does not jump up and down with the text.
    const measured = Math.min(Math.max(0, header.bottom + 6 - canvas.top), canvas.height * 0.3);
    if (canvas.width !== this.headerFor.width || canvas.height !== this.headerFor.height) {
      this.headerFor = { width: canvas.width, height: canvas.height, top: 0 };
    }
    const top = (this.headerFor.top = Math.max(this.headerFor.top, measured));
    const scale = target.width / canvas.width;
    return {
      x: 0,
      y: Math.round(top * scale),
      width: Math.max(1, Math.round(right * scale)),
      height: Math.max(1, Math.round((canvas.height - top) * scale)),
    };
  }

  private statsLine(scene: DemoScene, gpu: GpuState): string {
    const timing = gpu.timer.timing;
    const stepMs = Number.isNaN(timing.milliseconds)
      ? '–'
      : `${timing.source === 'host' ? '≈ ' : ''}${timing.milliseconds.toFixed(2)} ms`;
    const fps = Number.isNaN(this.frameMs) ? '–' : (1000 / this.frameMs).toFixed(0);
    const parts = [
      `${scene.particleCount.toLocaleString('en-US')} particles`,
      `frame ${Number.isNaN(this.frameMs) ? '–' : this.frameMs.toFixed(1)} ms (${fps} fps)`,
      `GPU step ${stepMs}${timing.source === 'host' ? ' (no timestamp queries: submit to done)' : ''}`,
      `${this.lastSteps} step${this.lastSteps === 1 ? '' : 's'}/frame of ${(this.clock.dt * 1000).toFixed(2)} ms`,
      `t = ${this.clock.time.toFixed(2)} s${this.clockValues.paused ? ' (paused)' : ''}`,
    ];
    const extra = scene.status?.();
    if (extra) parts.push(extra);
    parts.push(gpu.adapterInfo.description || gpu.adapterInfo.vendor);
    return parts.join(' · ');
  }

  private lost(device: GPUDevice, info: GPUDeviceLostInfo): void {
    if (device === this.releasing || device !== this.gpu?.device) return;
    this.running = false;
    this.hooks.state = 'lost';
    const title = 'The GPU device was lost';
    this.hooks.message = title;
    this.hud.showMessage(title, {
      tone: 'error',
      lines: [
        `Reason: ${info.reason}${info.message ? ` (${info.message})` : ''}.`,
        'A driver update, a GPU reset or too much work at once can take the device away. The demo can start again on a new one.',
      ],
      button: { label: 'Restart the demo', onClick: () => void this.restart() },
    });
  }

  private fail(title: string, error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.hooks.errors.push(text);
    if (this.hooks.state === 'lost') return;
    this.running = false;
    this.hooks.state = 'error';
    this.hooks.message = title;
    this.hud.showMessage(title, {
      tone: 'error',
      lines: [text],
      button: { label: 'Restart the demo', onClick: () => void this.restart() },
    });
  }

  /** Frees everything on the device, the device too, and starts again on a new one. */
  private async restart(): Promise<void> {
    this.running = false;
    this.hud.hideMessage();
    this.hooks.message = null;
    this.releaseGpu();
    await this.boot();
  }

  private releaseGpu(): void {
    const gpu = this.gpu;
    this.scene?.dispose();
    this.scene = null;
    this.gpu = null;
    if (!gpu) return;
    gpu.timer.destroy();
    gpu.passes.particles.destroy();
    gpu.passes.grid.destroy();
    gpu.passes.lines.destroy();
    gpu.passes.links.destroy();
    gpu.target.destroy();
    // This app requested the device, so it destroys it; its loss is expected.
    this.releasing = gpu.device;
    gpu.device.destroy();
  }

  dispose(): void {
    this.running = false;
    this.releaseGpu();
    this.controls.dispose();
    this.gui.destroy();
    this.hud.dispose();
  }
}
