/**
 * Recovery from a lost device: the app keeps a recent snapshot of the running
 * demo (its systems' snapshots, its host state and the clock), taken every few
 * seconds after a frame's submit and never waited on, so a frame never stalls;
 * when the device is lost, the demo is created again on a new device from it.
 * The summary (step, time, live counts, a sample of positions and a digest of
 * every record) is what the browser test compares before and after.
 */
import { LIFE_COUNTERS } from '../../core/emitters/gpuRecords';
import { floatIndex } from '../../core/layout';
import { decodeSnapshot } from '../../core/snapshot/systemSnapshot';
import type { FixedStepClock } from '../../render/fixedStep';
import type { DemoScene, DemoSnapshot } from './demo';

/** A demo's snapshot with the clock it was taken at. */
export interface KeptSnapshot {
  scene: DemoSnapshot;
  clock: { time: number; stepCount: number };
}

export interface SystemSummary {
  stepCount: number;
  time: number;
  capacity: number;
  /** The live count of a system with emitters (its counters); null without. */
  live: number | null;
  /** Positions of evenly spaced slots. */
  sample: { slot: number; position: number[] }[];
  /** FNV-1a of every particle record's bits, and of the lifecycle's words (null without emitters). */
  particlesDigest: string;
  lifecycleDigest: string | null;
}

export interface SnapshotSummary {
  clock: { time: number; stepCount: number };
  systems: SystemSummary[];
}

const SAMPLE_SLOTS = 16;

function fnv1a(words: readonly Uint32Array[]): string {
  let hash = 0x811c9dc5;
  for (const array of words) {
    for (let i = 0; i < array.length; i++) {
      const word = array[i] as number;
      for (let shift = 0; shift < 32; shift += 8) hash = Math.imul(hash ^ ((word >>> shift) & 0xff), 0x01000193);
    }
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** Decodes each system's snapshot (checksum included) and summarises it. */
export function summariseSnapshot(kept: KeptSnapshot): SnapshotSummary {
  const systems = kept.scene.systems.map((bytes): SystemSummary => {
    const { config, particles, lifecycle } = decodeSnapshot(bytes);
    const capacity = config.capacity;
    const sample = Array.from({ length: Math.min(SAMPLE_SLOTS, capacity) }, (_, k) => {
      const slot = Math.floor((k * capacity) / Math.min(SAMPLE_SLOTS, capacity));
      return { slot, position: [0, 1, 2].map((c) => particles[floatIndex(slot, 'position', c)] as number) };
    });
    const bits = new Uint32Array(particles.buffer, particles.byteOffset, particles.byteLength / 4);
    return {
      stepCount: config.stepCount,
      time: config.time,
      capacity,
      live: lifecycle ? (lifecycle.counters[LIFE_COUNTERS.wordOffsets.live] as number) : null,
      sample,
      particlesDigest: fnv1a([bits]),
      lifecycleDigest: lifecycle
        ? fnv1a([lifecycle.life, lifecycle.lists, lifecycle.freeList, lifecycle.counters, lifecycle.ruleStats])
        : null,
    };
  });
  return { clock: { ...kept.clock }, systems };
}

/** The `index`th system's snapshot in `resume` (a demo restoring more systems than were kept is a bug). */
export function resumedSystem(resume: DemoSnapshot, index: number): Uint8Array {
  const bytes = resume.systems[index];
  if (!bytes) throw new Error(`the snapshot holds ${resume.systems.length} systems, not ${index + 1}`);
  return bytes;
}

/** What a page says once it continued from `clock`'s snapshot on a new device (the browser test reads it). */
export function continuedNotice(clock: KeptSnapshot['clock']): string {
  return `The GPU device was lost; continued on a new device from the snapshot at t = ${clock.time.toFixed(1)} s (step ${clock.stepCount}).`;
}

/**
 * Takes a demo's snapshot every `everySeconds` (after a frame's submit, one in
 * flight at a time, only when steps were taken since the kept one) and keeps
 * the latest that resolved for the current scene.
 */
export class SnapshotKeeper {
  kept: KeptSnapshot | null = null;
  private inFlight = false;
  private lastTaken = 0;
  /** Bumped by `reset`: a snapshot of an earlier scene that resolves late is dropped. */
  private generation = 0;

  constructor(
    private readonly onKept: (kept: KeptSnapshot) => void,
    /** A snapshot that failed while its scene was current (one lost with its device fails too, and is dropped by `reset`). */
    private readonly onFailed: (error: unknown) => void,
  ) {}

  /** A new scene: forget what was kept (or keep `kept`, the snapshot the scene was restored from). */
  reset(now: number, kept: KeptSnapshot | null = null): void {
    this.generation++;
    this.inFlight = false;
    this.lastTaken = now;
    this.kept = kept;
  }

  /** Called after each frame's submit: starts a snapshot when one is due. Never waits. */
  frame(now: number, scene: Pick<DemoScene, 'snapshot'>, clock: FixedStepClock, everySeconds: number): void {
    if (!scene.snapshot || !(everySeconds > 0) || this.inFlight) return;
    if (now - this.lastTaken < everySeconds * 1000) return;
    if (this.kept?.clock.stepCount === clock.stepCount) return;
    this.lastTaken = now;
    this.inFlight = true;
    const generation = this.generation;
    // The clock as the systems' copies see it: both are taken now, after the frame's steps.
    const at = { time: clock.time, stepCount: clock.stepCount };
    const current = () => generation === this.generation;
    let taking: Promise<DemoSnapshot>;
    try {
      taking = scene.snapshot();
    } catch (error) {
      taking = Promise.reject(error);
    }
    taking.then(
      (snapshot) => {
        if (!current()) return;
        this.inFlight = false;
        this.kept = { scene: snapshot, clock: at };
        this.onKept(this.kept);
      },
      (error: unknown) => {
        if (!current()) return;
        this.inFlight = false;
        this.onFailed(error);
      },
    );
  }
}
