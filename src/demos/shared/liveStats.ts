/**
 * The live count and lifecycle counters of a system with emitters, for a
 * demo's HUD: read back at most every `intervalMs`, never waited on (a frame
 * never stalls for it), one read in flight at a time.
 */
import type { LifecycleStats } from '../../core/emitters/stats';
import type { ParticleSystem } from '../../gpu/particleSystem';

export class LiveStatsPoller {
  /** The last counters read back; null before the first read lands. */
  stats: LifecycleStats | null = null;
  private reading = false;
  private lastRead = -Infinity;
  private stopped = false;

  constructor(
    private readonly system: ParticleSystem,
    private readonly intervalMs = 200,
  ) {}

  /** Starts a read if none is in flight and the last began `intervalMs` ago. */
  poll(): void {
    const now = performance.now();
    if (this.reading || this.stopped || now - this.lastRead < this.intervalMs) return;
    this.reading = true;
    this.lastRead = now;
    this.system
      .readStats()
      .then((read) => {
        if (!this.stopped) this.stats = read;
      })
      // Refused only once the system is destroyed; a GPU error shows as the device's uncaptured error.
      .catch(() => undefined)
      .finally(() => {
        this.reading = false;
      });
  }

  /** The live count as last read back (0 before the first read: nothing is live before the first step). */
  get live(): number {
    return this.stats?.live ?? 0;
  }

  /** The counts the browser tests check, as last read back (null before the first read). */
  counts(): Pick<LifecycleStats, 'live' | 'emitted' | 'killed' | 'shortfall'> | null {
    const s = this.stats;
    return s && { live: s.live, emitted: s.emitted, killed: s.killed, shortfall: s.shortfall };
  }

  /** No more reads (call before destroying the system). */
  stop(): void {
    this.stopped = true;
  }
}
