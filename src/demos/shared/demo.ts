/**
 * What a demo is to the app that runs it: its definition (parameters, camera,
 * background, `create`), the context `create` gets, the scene it returns, and
 * what the scene gets each frame to draw with.
 */
import type { AdapterDescription } from '../../gpu/device/device';
import type { PixelRect, CanvasTarget } from '../../render/canvasTarget';
import type { OrbitCamera, OrbitCameraState, Projection } from '../../render/camera';
import type { GridPass } from '../../render/gridPass';
import type { LinePass } from '../../render/linePass';
import type { LinkPass } from '../../render/linkPass';
import type { ParticlePass } from '../../render/particlePass';
import type { DrawTime, DrawView, Rgb } from '../../render/particleLook';
import type { clockParams } from './commonParams';
import type { Hud } from './hud';
import type { ParamDefs, ParamValues } from './params';

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
  /** Called once the frame's command buffer is submitted: the systems' `submitted()`, so their uniform slots are reused. */
  submitted(): void;
  /** Records the draws into the frame's render pass (depth-tested, cleared to the background). */
  render(pass: GPURenderPassEncoder, frame: SceneFrame): void;
  /** Appended to the statistics line. */
  status?(): string;
  /** Results for the browser tests. */
  check?(): unknown;
  /** Frames the camera on the scene (after the definition's camera is set), e.g. to fit its extent. */
  fitCamera?(camera: OrbitCamera): void;
  /**
   * The state to continue from on a new device (the app keeps the latest, see recovery.ts):
   * the host state is taken and the systems' copies submitted now, before the first await;
   * it resolves when the GPU reaches them. Never awaited in a frame. Without it, a lost
   * device offers only a restart.
   */
  snapshot?(): Promise<DemoSnapshot>;
  dispose(): void;
}

/** A demo's state at one step: what `create` needs, as `context.resume`, to continue from it. */
export interface DemoSnapshot {
  /** Each system's `snapshot()`, in the order `create` restores them. */
  systems: Uint8Array[];
  /** What the demo keeps outside its systems (launch keys, what the GPU was last sent, trails): JSON or typed arrays. */
  host: unknown;
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
  /** Continue from this snapshot (ParticleSystem.restore) instead of building the initial state. */
  resume?: DemoSnapshot;
}

/** The clock's parameters, which every demo has. */
export type ClockDefs = ReturnType<typeof clockParams>;
export type ClockValues = ParamValues<ClockDefs>;

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

/** A demo's definition: the page demos/<id>.html, titled `title`, with the panel `params`. */
export function defineDemo<D extends ParamDefs & ClockDefs>(
  id: string,
  title: string,
  params: D,
  page: Omit<DemoDefinition<D>, 'id' | 'title' | 'params'>,
): DemoDefinition<D> {
  return { id, title, params, ...page };
}
