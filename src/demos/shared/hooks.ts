/**
 * What a demo page tells the browser tests (window.__sparkworks): how far it
 * got, how many frames it drew, every GPU error, and a way to lose the device.
 * Read-only for everyone else; nothing in the demos depends on it.
 */
import type { SnapshotSummary } from './recovery';

export type DemoState = 'starting' | 'running' | 'no-webgpu' | 'no-adapter' | 'lost' | 'error';

export interface SparkworksHooks {
  demo: string;
  state: DemoState;
  /** Frames submitted since the page loaded (across restarts). */
  frames: number;
  /** Simulation steps taken by the current scene. */
  steps: number;
  particles: number;
  /** The title of the message on the page, if one is shown. */
  message: string | null;
  /** Uncaptured WebGPU errors and failures, in order. */
  errors: string[];
  adapter: string | null;
  /** 'timestamp-query' or 'host'. */
  gpuTiming: string | null;
  /** Destroys the device as a loss would, to test the page's answer to it. */
  loseDevice: () => void;
  /**
   * The canvas as a PNG data URL, read right after the next frame is
   * submitted (in the same task, while the frame's texture is still the
   * canvas's drawing buffer): the canvas alone, without the page around it.
   */
  capture: () => Promise<string>;
  /** A demo's own results (the Integrators demo's GPU-against-CPU check). */
  check: unknown;
  /** The step of the snapshot kept for recovery (null: none kept yet, or the demo takes none). */
  snapshotStep: number | null;
  /** The kept snapshot, decoded and summarised (recovery.ts). */
  keptSnapshot: () => SnapshotSummary | null;
  /** A snapshot of the scene now, summarised (not kept); null if the demo takes none. */
  readState: () => Promise<SnapshotSummary | null>;
  /** Snapshots that failed while their scene ran. */
  snapshotErrors: string[];
  /** Continuations on a new device after a loss, and the snapshot the last one started from. */
  recoveries: number;
  recoveredFrom: { stepCount: number; time: number } | null;
}

declare global {
  interface Window {
    __sparkworks?: SparkworksHooks;
  }
}

export function installHooks(demo: string): SparkworksHooks {
  const hooks: SparkworksHooks = {
    demo,
    state: 'starting',
    frames: 0,
    steps: 0,
    particles: 0,
    message: null,
    errors: [],
    adapter: null,
    gpuTiming: null,
    loseDevice: () => undefined,
    capture: () => Promise.reject(new Error('no frame is being drawn')),
    check: null,
    snapshotStep: null,
    keptSnapshot: () => null,
    readState: () => Promise.resolve(null),
    snapshotErrors: [],
    recoveries: 0,
    recoveredFrom: null,
  };
  window.__sparkworks = hooks;
  return hooks;
}
