/**
 * What simulate writes: the final state as JSON records (one a particle, the
 * live slots' for a scene with emitters), refused where JSON cannot hold a
 * value, laid out to read a particle in a few lines; and the summary's centroid.
 */
import type { LifecycleSnapshot } from '../core/emitters/stats';
import { SparkworksInputError } from '../core/errors';
import type { ParticleSnapshot } from '../core/particles';
import type { Variant } from '../core/variants';
import type { BackendAdapter } from './simulateBackend';

export interface ParticleState {
  position: number[];
  velocity: number[];
  acceleration: number[];
  inverseMass: number;
  /** Omitted for an immovable particle (inverseMass 0). */
  mass?: number;
  damping: number;
  /** Omitted when 0 (a point); -1 for a particle a kill collider took. */
  radius?: number;
  /** A scene with emitters: the particle's slot, its age, and its lifetime (omitted for the scene's own particles, which never die). */
  slot?: number;
  age?: number;
  lifetime?: number;
}

/** A scene with emitters: what the lifecycle did over the run. */
export interface LifecycleOutput {
  live: number;
  emitted: number;
  killed: number;
  shortfall: number;
}

export interface SimulationOutput {
  backend: 'gpu' | 'cpu';
  adapter: BackendAdapter;
  variant: Variant;
  steps: number;
  dt: number;
  /** Without emitters every particle of the scene; with emitters the live ones, by slot. */
  particles: ParticleState[];
  /** Only for a scene with emitters or fireworks. */
  stats?: LifecycleOutput;
  /** Only when Ctrl-C stopped the run: `steps` is how many were taken, of `requestedSteps`. */
  interrupted?: true;
  requestedSteps?: number;
  /** Steps since the scene's start: `steps` plus those of the snapshot a --resume run continued. */
  stepCount: number;
  /** Seconds simulated since the scene's start (the sum of every step's dt). */
  time: number;
  /** Only for a --resume run: the snapshot it continued. */
  resumedFrom?: string;
}

/** Snapshot to JSON records; refuses values JSON cannot hold (it would write null). */
export function particleStates(snapshot: ParticleSnapshot, steps: number): ParticleState[] {
  const states: ParticleState[] = [];
  for (let i = 0; i < snapshot.count; i++) {
    const vector = (name: 'position' | 'velocity' | 'acceleration') =>
      Array.from(snapshot[name].subarray(3 * i, 3 * i + 3));
    const inverseMass = snapshot.inverseMass[i] as number;
    const state: ParticleState = {
      position: vector('position'),
      velocity: vector('velocity'),
      acceleration: vector('acceleration'),
      inverseMass,
      ...(inverseMass === 0 ? {} : { mass: 1 / inverseMass }),
      damping: snapshot.damping[i] as number,
      ...(snapshot.radius[i] === 0 ? {} : { radius: snapshot.radius[i] as number }),
    };
    for (const [field, value] of Object.entries(state)) {
      if ([value].flat().every(Number.isFinite)) continue;
      throw new SparkworksInputError(
        `particles[${i}].${field} is ${Array.isArray(value) ? `[${value.join(', ')}]` : String(value)} ` +
          `after ${steps} step(s): outside float32's range, and JSON cannot hold non-finite numbers`,
        `particles[${i}].${field}`,
        value,
      );
    }
    states.push(state);
  }
  return states;
}

export function centroid(particles: readonly ParticleState[]): number[] {
  if (particles.length === 0) return [];
  const sum = [0, 0, 0];
  for (const { position } of particles) position.forEach((x, c) => (sum[c] = (sum[c] as number) + x));
  return sum.map((x) => Number((x / particles.length).toPrecision(6)));
}

/** A scene with emitters: the live slots' states, in slot order, with their slot, age and lifetime. */
export function liveStates(all: readonly ParticleState[], life: LifecycleSnapshot): ParticleState[] {
  return Array.from(life.live)
    .sort((a, b) => a - b)
    .map((slot) => {
      const lifetime = life.life.get(slot, 'lifetime');
      return {
        slot,
        ...(all[slot] as ParticleState),
        age: life.life.get(slot, 'age'),
        ...(Number.isFinite(lifetime) ? { lifetime } : {}),
      };
    });
}

/** Indented JSON with each vector on one line, so a particle reads as a few lines. */
export function toJson(output: SimulationOutput): string {
  // Only arrays of numbers match: a JSON string cannot hold a raw newline after its `[`.
  const numberArray = /\[\s+(-?[\d.e+-]+(?:,\s+-?[\d.e+-]+)*)\s+\]/g;
  const oneLine = (_: string, items: string) => `[${items.split(/,\s+/).join(', ')}]`;
  return JSON.stringify(output, null, 2).replace(numberArray, oneLine) + '\n';
}
