/**
 * The lifecycle's invariants, checked on a snapshot (from either backend):
 * every slot is live or free, never both, never twice; the life records
 * agree; free slots are parked. Each failure names the slot and the frame.
 */
import { DEAD_RADIUS } from '../../src/core/collisions/colliders';
import type { LifeRecords } from '../../src/core/layout';
import { floatIndex } from '../../src/core/layout';
import type { LifecycleView } from './lifecycleRig';

/** Returns the first broken invariant, or null. */
export function lifecycleInvariantFailure(
  view: LifecycleView,
  state: Float32Array,
  capacity: number,
  frame: number,
): string | null {
  const { live, free, life, stats } = view;
  const at = `after frame ${frame}`;
  if (live.length + free.length !== capacity)
    return `${at}: live ${live.length} + free ${free.length} != capacity ${capacity}`;
  if (stats.live !== live.length || stats.free !== free.length)
    return `${at}: the counters say live ${stats.live}, free ${stats.free}`;
  const seen = new Uint8Array(capacity);
  for (const [name, list] of [
    ['live', live],
    ['free', free],
  ] as const) {
    for (const slot of list) {
      if (slot >= capacity) return `${at}: slot ${slot} on the ${name} list is past the capacity`;
      if (seen[slot]) return `${at}: slot ${slot} is on the lists twice (second time on the ${name} list)`;
      seen[slot] = 1;
      const alive = life.get(slot, 'alive');
      if (alive !== (name === 'live' ? 1 : 0)) return `${at}: slot ${slot} on the ${name} list has alive = ${alive}`;
      if (name === 'free') {
        const inverseMass = state[floatIndex(slot, 'inverseMass')];
        const radius = state[floatIndex(slot, 'radius')];
        if (inverseMass !== 0 || radius !== DEAD_RADIUS) {
          return `${at}: free slot ${slot} is not parked (inverseMass ${inverseMass}, radius ${radius})`;
        }
      }
    }
  }
  return null;
}

/** The live particles as (slot -> generation), to check that none is lost. */
export function generations(live: Uint32Array, life: LifeRecords): Map<number, number> {
  return new Map(Array.from(live, (slot) => [slot, life.get(slot, 'generation')]));
}
