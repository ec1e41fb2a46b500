/**
 * Runs one demo page: reads its parameters from the URL, builds the panel,
 * acquires the device (or says plainly why WebGPU is missing), and drives the
 * fixed-step loop: host work, the steps (timed on the GPU), one render pass,
 * one submit a frame. GPU errors stop the loop and show a message with a
 * button that restarts the demo on a fresh device; a lost device does too,
 * unless a snapshot was kept (recovery.ts): then the demo continues from it
 * on a new device, and the page says so.
 *
 * The device's lifecycle is in deviceLifecycle.ts, the loop and the frame's
 * recording in frameLoop.ts, where the scene goes on the canvas in layout.ts,
 * and what a demo is in demo.ts.
 */
import GUI from 'lil-gui';
import './style.css';
import { withErrorScopes } from '../../gpu/device/errors';
import { OrbitCamera } from '../../render/camera';
import { FixedStepClock } from '../../render/fixedStep';
import { OrbitControls } from '../../render/orbitControls';
import type { ClockDefs, ClockValues, DemoContext, DemoDefinition, DemoScene } from './demo';
import { createRenderer, openDevice, releaseGpu, type GpuState } from './deviceLifecycle';
import { FrameLoop, Rebuilds, recordFrame, statsLine } from './frameLoop';
import { installHooks, type SparkworksHooks } from './hooks';
import { Hud } from './hud';
import { SceneLayout } from './layout';
import { continuedNotice, SnapshotKeeper, summariseSnapshot, type KeptSnapshot } from './recovery';
import { buildPanel, queryFromValues, valuesFromQuery, type ParamDefs, type ParamValues } from './params';
import { missingWebGpu } from './support';

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
  private readonly layout: SceneLayout;
  private readonly controls: OrbitControls;
  private readonly clock: FixedStepClock;
  private readonly loop: FrameLoop;
  private gpu: GpuState | null = null;
  private scene: DemoScene | null = null;
  /** Disposes the scene and makes it again from the current parameters (same device). */
  private readonly rebuilds = new Rebuilds(
    () => this.gpu !== null && this.loop.isRunning,
    () => this.createScene(),
    (error) => this.fail('The demo could not be rebuilt', error),
  );
  private releasing: GPUDevice | null = null;
  private lastStats = 0;
  private lastSteps = 0;
  private captures: ((dataUrl: string) => void)[] = [];
  private readonly snapshots: SnapshotKeeper;

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
    this.layout = new SceneLayout(canvas, this.gui, this.hud.root);
    this.loop = new FrameLoop(
      () => this.gpu !== null && this.scene !== null && !this.rebuilds.building,
      (now, seconds) => this.frame(now, seconds),
    );
    this.buildGui();
    this.hooks.capture = () => new Promise((resolve) => this.captures.push(resolve));
    this.snapshots = new SnapshotKeeper(
      (kept) => {
        this.hooks.snapshotStep = kept.clock.stepCount;
      },
      (error) => {
        this.hooks.snapshotErrors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      },
    );
    this.hooks.keptSnapshot = () => (this.snapshots.kept ? summariseSnapshot(this.snapshots.kept) : null);
    this.hooks.readState = async () => {
      const scene = this.scene;
      if (!scene?.snapshot) return null;
      const clock = { time: this.clock.time, stepCount: this.clock.stepCount };
      return summariseSnapshot({ scene: await scene.snapshot(), clock });
    };
  }

  private resetView(): void {
    const { projection, ...state } = this.definition.camera;
    this.camera.projection = projection ?? 'perspective';
    this.camera.set(state);
    this.scene?.fitCamera?.(this.camera);
  }

  private buildGui(): void {
    const { folders } = buildPanel(this.gui, this.definition.params, this.params, (_key, def) => {
      history.replaceState(
        null,
        '',
        `${location.pathname}${queryFromValues(this.definition.params, this.params)}${location.hash}`,
      );
      if (def.rebuild) void this.rebuilds.rebuild();
    });
    const simulation = folders.get('Simulation') ?? this.gui;
    simulation.add({ step: () => this.clock.requestStep() }, 'step').name('single step');
    const actions = {
      restart: () => void this.rebuilds.rebuild(),
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

  /** Opens a device and creates the scene (from `resume` when given); true once running. */
  private async boot(resume?: KeptSnapshot): Promise<boolean> {
    this.hooks.state = 'starting';
    const opened = await openDevice({
      error: (message) => this.fail('A WebGPU error stopped the demo', message),
      lost: (device, info) => this.lost(device, info),
    });
    if ('problem' in opened) {
      const { problem } = opened;
      this.hooks.state = 'no-adapter';
      this.hooks.message = problem.title;
      this.hud.showMessage(problem.title, {
        tone: 'error',
        lines: problem.lines,
        button: { label: 'Try again', onClick: () => void this.restart() },
      });
      return false;
    }
    const { device, adapterInfo } = opened;
    this.hooks.adapter = adapterInfo.description;
    this.hooks.loseDevice = () => device.destroy();
    try {
      const gpu = await createRenderer(device, adapterInfo, this.canvas);
      this.gpu = gpu;
      this.hooks.gpuTiming = gpu.timer.source;
      await this.createScene(resume);
    } catch (error) {
      this.fail(resume ? 'The demo could not continue from its snapshot' : 'The demo could not start', error);
      return false;
    }
    this.hooks.state = 'running';
    this.loop.start();
    return true;
  }

  /** Makes the scene from the parameters, or continues `resume` (its clock included). */
  private async createScene(resume?: KeptSnapshot): Promise<void> {
    const gpu = this.gpu;
    if (!gpu) return;
    this.scene?.dispose();
    this.scene = null;
    this.clock.reset();
    this.clock.dt = 1 / this.clockValues.stepRate;
    // What was kept belongs to the scene just disposed, unless this one continues it.
    this.snapshots.reset(performance.now(), resume ?? null);
    this.hooks.snapshotStep = resume?.clock.stepCount ?? null;
    if (resume) {
      this.clock.time = resume.clock.time;
      this.clock.stepCount = resume.clock.stepCount;
    } else {
      // A scene from the start: the note that one continued a snapshot no longer holds.
      this.hud.setNotice('');
    }
    const context: DemoContext<ParamValues<D>> = {
      device: gpu.device,
      adapterInfo: gpu.adapterInfo,
      target: gpu.target,
      camera: this.camera,
      passes: gpu.passes,
      params: this.params,
      hud: this.hud,
      resume: resume?.scene,
    };
    // The scopes hold what `create` does before its first await (the system
    // it creates has scopes of its own); what it does later, while frames may
    // run, reaches the uncaptured-error handler instead.
    this.scene = await withErrorScopes(
      gpu.device,
      `creating the ${this.definition.title} demo`,
      () => ({ creating: this.definition.create(context) }),
      ({ creating }) => creating,
    );
    this.hooks.particles = this.scene.particleCount;
    this.scene.fitCamera?.(this.camera);
  }

  /** One frame, called by the loop while the device and the scene are ready. */
  private frame(now: number, seconds: number): void {
    const gpu = this.gpu as GpuState;
    const scene = this.scene as DemoScene;
    try {
      const p = this.clockValues;
      const clock = this.clock;
      clock.paused = p.paused;
      clock.timeScale = p.timeScale;
      clock.maxStepsPerFrame = p.maxSteps;
      clock.dt = 1 / p.stepRate;
      const timeBefore = clock.time;
      const plan = clock.advance(seconds);
      this.lastSteps = plan.steps;

      gpu.target.applyResize();
      recordFrame(gpu, scene, {
        label: `${this.definition.id}: frame`,
        camera: this.camera,
        clock,
        plan,
        timeBefore,
        free: this.layout.freeRect(gpu.target),
        background: this.definition.background,
        interpolate: p.interpolate,
      });
      if (this.captures.length > 0) {
        const dataUrl = this.canvas.toDataURL('image/png');
        for (const resolve of this.captures.splice(0)) resolve(dataUrl);
      }
      this.snapshots.frame(now, scene, clock, p.snapshotEvery);

      this.hooks.frames++;
      this.hooks.steps = clock.stepCount;
      this.hooks.check = scene.check?.() ?? null;
      if (now - this.lastStats > STATS_INTERVAL_MS) {
        this.lastStats = now;
        this.hud.setStats(
          statsLine(gpu, scene, {
            frameMs: this.loop.frameMs,
            stepsLastFrame: this.lastSteps,
            clock,
            paused: p.paused,
          }),
        );
      }
    } catch (error) {
      this.fail('The demo stopped', error);
    }
  }

  private lost(device: GPUDevice, info: GPUDeviceLostInfo): void {
    if (device === this.releasing || device !== this.gpu?.device) return;
    this.loop.stop();
    const reason = `Reason: ${info.reason}${info.message ? ` (${info.message})` : ''}.`;
    const kept = this.snapshots.kept;
    if (kept) {
      void this.recover(kept, reason);
      return;
    }
    this.hooks.state = 'lost';
    const title = 'The GPU device was lost';
    this.hooks.message = title;
    this.hud.showMessage(title, {
      tone: 'error',
      lines: [
        reason,
        'A driver update, a GPU reset or too much work at once can take the device away. The demo can start again on a new one.',
      ],
      button: { label: 'Restart the demo', onClick: () => void this.restart() },
    });
  }

  /** Continues from `kept` on a new device; when that fails, boot shows why, with a restart button. */
  private async recover(kept: KeptSnapshot, reason: string): Promise<void> {
    this.hooks.state = 'starting';
    const { time, stepCount } = kept.clock;
    const title = 'The GPU device was lost';
    this.hooks.message = title;
    this.hud.showMessage(title, {
      tone: 'info',
      lines: [reason, 'Continuing on a new device from the last snapshot…'],
    });
    this.releaseGpu();
    if (!(await this.boot(kept))) return;
    this.hud.hideMessage();
    this.hooks.message = null;
    this.hooks.recoveries++;
    this.hooks.recoveredFrom = { stepCount, time };
    this.hud.setNotice(continuedNotice(kept.clock));
  }

  private fail(title: string, error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.hooks.errors.push(text);
    if (this.hooks.state === 'lost') return;
    this.loop.stop();
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
    this.loop.stop();
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
    // This app requested the device, so it destroys it; its loss is expected.
    this.releasing = gpu.device;
    releaseGpu(gpu);
  }

  dispose(): void {
    this.loop.stop();
    this.releaseGpu();
    this.controls.dispose();
    this.gui.destroy();
    this.hud.dispose();
  }
}
