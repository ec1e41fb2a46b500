/**
 * The three.js page (demos/three.html): a three.js WebGPURenderer scene and
 * Sparkworks sparks on one device and one canvas.
 *
 * three.js owns the canvas and the device (stage.ts); Sparkworks steps the
 * sparks and draws them from its own buffers into three's frame (sparks.ts).
 * Those two modules use only the package's public entry points ('sparkworks',
 * 'sparkworks/render') and three. This one is the gallery's page around them:
 * the panel and its URL, the header, the messages, and the hooks the browser
 * tests read, as the other demos have (src/demos/shared/app.ts, which draws
 * on a device and canvas of its own and so is not used here).
 *
 * One frame: three draws the scene into its render target and submits; one
 * command buffer of ours steps the sparks and draws them into that target's
 * colour and depth; three copies the target to the canvas.
 *
 * A lost device is met as the other pages meet it (src/demos/shared/recovery.ts):
 * the sparks' snapshot is kept every few seconds, never waited on; after a
 * loss a new three.js renderer (and with it a new device) is made and the
 * sparks continue from that snapshot, which the page says.
 */
import GUI from 'lil-gui';
import { FixedStepClock } from 'sparkworks/render';
import '../shared/style.css';
import { FrameLoop, Rebuilds } from '../shared/frameLoop';
import { installHooks } from '../shared/hooks';
import {
  continuedNotice,
  resumedSystem,
  SnapshotKeeper,
  summariseSnapshot,
  type KeptSnapshot,
} from '../shared/recovery';
import { Hud } from '../shared/hud';
import { buildPanel, queryFromValues, valuesFromQuery } from '../shared/params';
import { missingWebGpu, noAdapter } from '../shared/support';
import { THREE_PARAMS } from './params';
import { Sparks, type SentParams } from './sparks';
import { NoWebGpuBackendError, ThreeStage } from './stage';

const TITLE = 'Sparkworks in a three.js scene';
const STATS_INTERVAL_MS = 250;

const hooks = installHooks('three');
const { values: params, problems } = valuesFromQuery(THREE_PARAMS, location.search);
const hud = new Hud({
  title: TITLE,
  note: problems.map((p) => `Ignored ${p}.`).join(' '),
  galleryHref: '../index.html',
});
const canvas = document.querySelector<HTMLCanvasElement>('canvas#view');
if (!canvas) throw new Error('the page has no <canvas id="view">');
const clock = new FixedStepClock({ dt: 1 / params.stepRate });
const gui = new GUI({ title: 'Parameters' });

let stage: ThreeStage | null = null;
let sparks: Sparks | null = null;
/** The device this page is letting go of: its loss is expected. */
let releasing: GPUDevice | null = null;
let lastStats = 0;
let captures: ((dataUrl: string) => void)[] = [];

/** A new particle system from the panel's values (same device, same three.js scene). */
const rebuilds: Rebuilds = new Rebuilds(
  (): boolean => stage !== null && loop.isRunning,
  () => createSparks(),
  (error) => fail('The demo could not be rebuilt', error),
);
const loop: FrameLoop = new FrameLoop(
  (): boolean => stage !== null && sparks !== null && !rebuilds.building,
  (now, seconds) => frame(now, seconds),
);
hooks.capture = () => new Promise((resolve) => captures.push(resolve));

/** The sparks as the snapshot keeper sees a demo: one system, and what it was sent as the host state. */
const snapshotScene = {
  snapshot: () => {
    if (!sparks) return Promise.reject(new Error('no sparks to snapshot'));
    return sparks.snapshot().then(({ system, sent }) => ({ systems: [system], host: sent }));
  },
};
const snapshots = new SnapshotKeeper(
  (kept) => {
    hooks.snapshotStep = kept.clock.stepCount;
  },
  (error) => {
    hooks.snapshotErrors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  },
);
hooks.keptSnapshot = () => (snapshots.kept ? summariseSnapshot(snapshots.kept) : null);
hooks.readState = async () => {
  if (!sparks) return null;
  const at = { time: clock.time, stepCount: clock.stepCount };
  return summariseSnapshot({ scene: await snapshotScene.snapshot(), clock: at });
};

const { folders } = buildPanel(gui, THREE_PARAMS, params, (_key, def) => {
  history.replaceState(null, '', `${location.pathname}${queryFromValues(THREE_PARAMS, params)}`);
  if (def.rebuild) void rebuilds.rebuild();
});
(folders.get('Simulation') ?? gui).add({ step: () => clock.requestStep() }, 'step').name('single step');
gui.add({ restart: () => void rebuilds.rebuild() }, 'restart');
gui.add({ resetView: () => stage?.resetView() }, 'resetView').name('reset view');

// lil-gui reports the panel and each folder, and only when one changes between open and closed.
let panelOpen = true;
gui.onOpenClose((changed) => {
  if (changed === gui) panelOpen = !panelOpen;
});

/** How far the panel covers the canvas on the right (CSS pixels), while it is open and the canvas wide enough. */
function panelCover(): number {
  const area = canvas!.getBoundingClientRect();
  const panel = gui.domElement.getBoundingClientRect();
  const covered = area.right - panel.left + 8;
  return panelOpen && panel.width > 0 && covered > 0 && covered < area.width * 0.45 ? covered : 0;
}

async function start(): Promise<void> {
  const missing = missingWebGpu();
  if (missing) {
    hooks.state = 'no-webgpu';
    hooks.message = missing.title;
    hud.setStats('');
    gui.hide();
    hud.showMessage(missing.title, { tone: 'info', lines: missing.lines });
    return;
  }
  await boot();
}

/** A new three.js stage (and device) and the sparks on it (from `resume` when given); true once running. */
async function boot(resume?: KeptSnapshot): Promise<boolean> {
  hooks.state = 'starting';
  let created: ThreeStage;
  try {
    created = await ThreeStage.create(canvas!);
  } catch (error) {
    if (!(error instanceof NoWebGpuBackendError)) {
      fail('three.js could not start', error);
      return false;
    }
    const problem = noAdapter(error.message);
    hooks.state = 'no-adapter';
    hooks.message = problem.title;
    hud.showMessage(problem.title, {
      tone: 'error',
      lines: problem.lines,
      button: { label: 'Try again', onClick: () => void restart() },
    });
    return false;
  }
  stage = created;
  const { device } = created;
  hooks.adapter = adapterName(device);
  hooks.loseDevice = () => device.destroy();
  device.addEventListener('uncapturederror', (event) =>
    fail('A WebGPU error stopped the demo', (event as GPUUncapturedErrorEvent).error.message),
  );
  void device.lost.then((info) => lost(device, info));
  // three reports the same errors through onError (to the console by default); the listener above shows them.
  created.renderer.onError = () => undefined;
  try {
    await createSparks(resume);
  } catch (error) {
    fail(resume ? 'The demo could not continue from its snapshot' : 'The demo could not start', error);
    return false;
  }
  hooks.state = 'running';
  loop.start();
  return true;
}

function adapterName(device: GPUDevice): string {
  const info = (device as { adapterInfo?: GPUAdapterInfo }).adapterInfo;
  if (!info) return 'a WebGPU adapter';
  return info.description || [info.vendor, info.architecture].filter(Boolean).join(' ') || 'a WebGPU adapter';
}

/** New sparks from the panel's values, or those of `resume` continued (its clock included). */
async function createSparks(resume?: KeptSnapshot): Promise<void> {
  if (!stage) return;
  sparks?.dispose();
  sparks = null;
  clock.reset();
  clock.dt = 1 / params.stepRate;
  // What was kept belongs to the sparks just disposed, unless these continue it.
  snapshots.reset(performance.now(), resume ?? null);
  hooks.snapshotStep = resume?.clock.stepCount ?? null;
  if (resume) {
    clock.time = resume.clock.time;
    clock.stepCount = resume.clock.stepCount;
    const snapshot = { system: resumedSystem(resume.scene, 0), sent: resume.scene.host as SentParams };
    sparks = await Sparks.restore(stage.device, stage.formats, params, snapshot);
  } else {
    // Sparks from the start: the note that they continued a snapshot no longer holds.
    hud.setNotice('');
    sparks = await Sparks.create(stage.device, stage.formats, params);
  }
  hooks.particles = sparks.capacity;
}

function frame(now: number, seconds: number): void {
  const three = stage as ThreeStage;
  const system = sparks as Sparks;
  try {
    clock.paused = params.paused;
    clock.timeScale = params.timeScale;
    clock.maxStepsPerFrame = params.maxSteps;
    clock.dt = 1 / params.stepRate;
    const plan = clock.advance(seconds);
    const extrapolate = params.interpolate ? plan.alpha * clock.dt : 0;
    const time = { extrapolate, time: clock.time + extrapolate };

    // three: the scene into its render target (three submits).
    three.resize(panelCover() / 2);
    three.render(time.time);
    // Sparkworks: the steps, then the sparks over three's colour and depth, in one submit.
    system.beforeSteps();
    const encoder = three.device.createCommandEncoder({ label: 'three demo: frame' });
    if (plan.steps > 0) system.encodeSteps(encoder, clock.dt, plan.steps);
    const pass = three.beginParticlePass(encoder, params.depthTest);
    system.draw(pass, three.view(), time);
    pass.end();
    three.device.queue.submit([encoder.finish()]);
    system.submitted();
    // three: the frame onto the canvas.
    three.present();
    if (captures.length > 0) {
      const dataUrl = canvas!.toDataURL('image/png');
      for (const resolve of captures.splice(0)) resolve(dataUrl);
    }
    snapshots.frame(now, snapshotScene, clock, params.snapshotEvery);

    hooks.frames++;
    hooks.steps = clock.stepCount;
    hooks.check = system.stats && { live: system.stats.live, shortfall: system.stats.shortfall };
    if (now - lastStats > STATS_INTERVAL_MS) {
      lastStats = now;
      hud.setStats(statsLine(system, plan.steps));
    }
  } catch (error) {
    fail('The demo stopped', error);
  }
}

function statsLine(system: Sparks, steps: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const fps = Number.isNaN(loop.frameMs) ? '–' : (1000 / loop.frameMs).toFixed(0);
  const live = system.stats ? `${n(system.stats.live)} sparks live of ${n(system.capacity)} slots` : 'starting';
  return [
    live,
    `frame ${Number.isNaN(loop.frameMs) ? '–' : loop.frameMs.toFixed(1)} ms (${fps} fps)`,
    `${steps} step${steps === 1 ? '' : 's'}/frame of ${(clock.dt * 1000).toFixed(2)} ms`,
    `t = ${clock.time.toFixed(2)} s${params.paused ? ' (paused)' : ''}`,
    params.depthTest ? "hidden behind three's meshes" : 'drawn over everything',
    hooks.adapter ?? '',
  ].join(' · ');
}

function lost(device: GPUDevice, info: GPUDeviceLostInfo): void {
  if (device === releasing || device !== stage?.device) return;
  loop.stop();
  const reason = `Reason: ${info.reason}${info.message ? ` (${info.message})` : ''}.`;
  const kept = snapshots.kept;
  if (kept) {
    void recover(kept, reason);
    return;
  }
  hooks.state = 'lost';
  const title = 'The GPU device was lost';
  hooks.message = title;
  hud.showMessage(title, {
    tone: 'error',
    lines: [
      reason,
      'A driver update, a GPU reset or too much work at once can take the device away. The demo can start again on a new one.',
    ],
    button: { label: 'Restart the demo', onClick: () => void restart() },
  });
}

/** Continues from `kept` with a new three.js renderer and device; when that fails, boot shows why, with a restart button. */
async function recover(kept: KeptSnapshot, reason: string): Promise<void> {
  hooks.state = 'starting';
  const title = 'The GPU device was lost';
  hooks.message = title;
  hud.showMessage(title, { tone: 'info', lines: [reason, 'Continuing on a new device from the last snapshot…'] });
  releaseStage();
  if (!(await boot(kept))) return;
  hud.hideMessage();
  hooks.message = null;
  hooks.recoveries++;
  hooks.recoveredFrom = { ...kept.clock };
  hud.setNotice(continuedNotice(kept.clock));
}

function fail(title: string, error: unknown): void {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  hooks.errors.push(text);
  if (hooks.state === 'lost') return;
  loop.stop();
  hooks.state = 'error';
  hooks.message = title;
  hud.showMessage(title, {
    tone: 'error',
    lines: [text],
    button: { label: 'Restart the demo', onClick: () => void restart() },
  });
}

/** Frees the sparks and the three.js renderer (which destroys its device), and starts again on a new one. */
async function restart(): Promise<void> {
  loop.stop();
  hud.hideMessage();
  hooks.message = null;
  releaseStage();
  await boot();
}

/** Frees the sparks and the three.js renderer, which destroys its device (whose loss is then expected). */
function releaseStage(): void {
  sparks?.dispose();
  sparks = null;
  if (stage) {
    releasing = stage.device;
    stage.dispose();
    stage = null;
  }
}

void start();
