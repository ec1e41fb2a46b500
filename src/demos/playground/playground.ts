/**
 * The playground as a demo the shared app runs (src/demos/shared/app.ts: the
 * panel's play, pause, single step, time scale, restart and integrator
 * variant, the statistics line's counts and GPU step time): its scene is
 * whatever valid text the editor last published (SceneSource). A new text's
 * preview is built beside the running one and swapped in once made; until
 * then, and for every invalid edit, the last valid preview keeps running.
 *
 * Its snapshot (kept for a lost device, src/demos/shared/recovery.ts) is the
 * shown preview's system and the text it shows: on a new device the preview
 * continues from it, unless the editor has published another text since,
 * which is then built from its start as an edit is.
 */
import type { Scene } from '../../scene/scene';
import type { DemoContext, DemoDefinition, DemoScene, DemoSnapshot, SceneFrame } from '../shared/demo';
import type { ParamValues } from '../shared/params';
import { PLAYGROUND_PARAMS } from './params';
import { ScenePreview } from './preview';

type Params = ParamValues<typeof PLAYGROUND_PARAMS>;

/** A valid text and its scene, as the editor hands it over. */
export interface PublishedScene {
  scene: Scene;
  text: string;
  /** Frame the camera on it (a new example or file, not an edit). */
  refit: boolean;
}

/** What a preview reports back: the text it shows, the text it is building, or why it could not be built. */
export type PreviewReport = { shown: string } | { building: string } | { failed: string; text: string };

/** Between the editor and the preview: the last valid scene, and each new one as it comes. */
export class SceneSource {
  current: PublishedScene | null = null;
  private readonly listeners = new Set<(published: PublishedScene) => void>();

  constructor(readonly report: (report: PreviewReport) => void) {}

  publish(published: PublishedScene): void {
    this.current = published;
    for (const listener of this.listeners) listener(published);
  }

  subscribe(listener: (published: PublishedScene) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** What the page tells the browser test about its preview (hooks.check). */
export interface PlaygroundCheck {
  /** The text of the scene drawn now; null before any. */
  shown: string | null;
  /** Particles drawn (live ones with emitters). */
  particles: number;
  lifecycle: { live: number; emitted: number; killed: number } | null;
}

/** The page's state outside its system, in a snapshot (DemoSnapshot.host): the text the system is of. */
interface PlaygroundHost {
  shown: string | null;
}

export async function createPlayground(context: DemoContext<Params>, source: SceneSource): Promise<DemoScene> {
  let preview: ScenePreview | null = null;
  let shown: string | null = null;
  let latest = 0;
  let disposed = false;

  async function show(published: PublishedScene): Promise<void> {
    const token = ++latest;
    source.report({ building: published.text });
    let next: ScenePreview;
    try {
      next = await ScenePreview.create(context, published.scene);
    } catch (error) {
      if (token === latest && !disposed) {
        const failed = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        source.report({ failed, text: published.text });
      }
      return;
    }
    // A newer text overtook this one, or the page moved on: this preview is never shown.
    if (disposed || token !== latest) {
      next.destroy();
      return;
    }
    preview?.destroy();
    preview = next;
    shown = published.text;
    if (published.refit) next.fitCamera(context.camera);
    source.report({ shown: published.text });
  }

  /** Continues the snapshot's preview on this (new) device, if its text is still the editor's last valid one. */
  async function resume(snapshot: DemoSnapshot, current: PublishedScene): Promise<boolean> {
    const host = snapshot.host as PlaygroundHost;
    const bytes = snapshot.systems[0];
    if (!bytes || host.shown !== current.text) return false;
    ++latest;
    preview = await ScenePreview.restore(context, current.scene, bytes);
    shown = current.text;
    source.report({ shown: current.text });
    return true;
  }

  const current = source.current;
  if (current && !(context.resume && (await resume(context.resume, current)))) {
    await show({ ...current, refit: false });
  }
  const unsubscribe = source.subscribe((published) => void show(published));

  return {
    get particleCount() {
      return preview?.particleCount ?? 0;
    },
    beforeSteps() {
      preview?.beforeSteps();
    },
    encodeSteps(encoder, dt, steps) {
      preview?.encodeSteps(encoder, dt, steps);
    },
    submitted() {
      preview?.submitted();
    },
    render(pass, frame: SceneFrame) {
      preview?.render(pass, frame);
    },
    status() {
      return preview ? preview.status() : 'no valid scene yet';
    },
    check(): PlaygroundCheck {
      return { shown, particles: preview?.particleCount ?? 0, lifecycle: preview?.stats() ?? null };
    },
    fitCamera(camera) {
      preview?.fitCamera(camera);
    },
    snapshot() {
      // The text is taken now, with the system's copy; without a preview yet there is no system to keep.
      const host: PlaygroundHost = { shown };
      if (!preview) return Promise.resolve({ systems: [], host });
      return preview.system.snapshot().then((bytes) => ({ systems: [bytes], host }));
    },
    dispose() {
      disposed = true;
      unsubscribe();
      preview?.destroy();
      preview = null;
    },
  };
}

export function playgroundDefinition(source: SceneSource): DemoDefinition<typeof PLAYGROUND_PARAMS> {
  return {
    id: 'playground',
    title: 'Playground',
    params: PLAYGROUND_PARAMS,
    camera: { target: [0, 0, 0], distance: 10, yaw: 0.5, pitch: 0.35 },
    background: [0.02, 0.024, 0.035],
    create: (context) => createPlayground(context, source),
  };
}
