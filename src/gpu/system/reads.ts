/**
 * The system's readbacks: each copies and submits inside error scopes, then
 * maps when the GPU reaches the copy, so a frame loop that does not await it
 * never stalls. With the non-finite policy `throw`, reading the counts (and
 * every read of particles) throws once per new count of non-finite values.
 */
import type { SystemStats } from '../../core/api';
import type { LifecycleSnapshot } from '../../core/emitters/stats';
import { staticStats } from '../../core/emitters/stats';
import { statsOf, type NonFiniteStats } from '../../core/nonFinite';
import { readWithinScopes } from '../device/errors';
import type { SystemParts } from './assembly';

export class SystemReads {
  constructor(
    private readonly device: GPUDevice,
    private readonly parts: SystemParts,
  ) {}

  /** Live, free, emitted, killed, shortfall and the non-finite counts. */
  async stats(): Promise<SystemStats> {
    const { lifecycle, state } = this.parts;
    const [life, health] = await Promise.all([
      lifecycle ? lifecycle.readStats() : staticStats(state.capacity),
      this.health(),
    ]);
    return { ...life, ...health };
  }

  /** The non-finite counts; with policy `throw`, throws when they grew since the last throw. */
  async health(): Promise<NonFiniteStats> {
    const { state, health } = this.parts;
    const counts = await readWithinScopes(this.device, 'reading the non-finite count', () => state.health.read());
    health.checkRead(counts.nonFinite, counts.firstIndex);
    return statsOf(counts.nonFinite, counts.firstIndex);
  }

  /** The lifecycle's lists and counters; null without emitters. */
  async lifecycle(): Promise<LifecycleSnapshot | null> {
    const { lifecycle } = this.parts;
    return lifecycle ? readWithinScopes(this.device, 'readLifecycle', () => lifecycle.readState()) : null;
  }

  /** Packed records of `count` slots from `start` (already checked). */
  async records(start: number, count: number): Promise<Float32Array> {
    const packed = await readWithinScopes(this.device, 'read', () => this.parts.state.read(start, count));
    if (this.parts.health.policy === 'throw') await this.health();
    return packed;
  }
}
