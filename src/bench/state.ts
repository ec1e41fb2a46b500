/**
 * The particle state every bench case steps: seeded, every particle movable
 * (inverse mass > 0, so each one is read and written), damping strictly
 * between 0 and 1 (so per-second damping evaluates pow), forces non-zero, and
 * one acceleration for all, so the uniform-acceleration variant computes the
 * same thing as the per-particle lane.
 */
import { OFFSET, FLOATS_PER_PARTICLE } from '../core/layout';
import { seededRandom } from '../core/random';

/** Gravity, Cyclone's usual constant acceleration; the uniform-acceleration case reads it from its uniform. */
export const BENCH_ACCELERATION: readonly [number, number, number] = [0, -9.81, 0];

const { POSITION, INVERSE_MASS, VELOCITY, DAMPING, ACCELERATION, FORCE_ACCUM } = OFFSET;

/** `count` packed records in the layout of src/core/layout.ts. */
export function benchState(count: number, seed = 1): Float32Array<ArrayBuffer> {
  const state = new Float32Array(count * FLOATS_PER_PARTICLE);
  benchStatePacker(seed)(state, 0, count);
  return state;
}

/**
 * The same records made piece by piece, for states too large for one host
 * array (ParticleBuffer.writeChunked's `pack`): each call packs the next `n`
 * records of benchState's sequence into `chunk` from float 0, so calls in
 * order make exactly benchState(count, seed).
 */
export function benchStatePacker(seed = 1): (chunk: Float32Array, first: number, n: number) => void {
  const random = seededRandom(seed);
  return (chunk, _first, n) => {
    for (let i = 0; i < n; i++) {
      const base = i * FLOATS_PER_PARTICLE;
      for (let c = 0; c < 3; c++) {
        chunk[base + POSITION + c] = (random() * 2 - 1) * 10;
        chunk[base + VELOCITY + c] = (random() * 2 - 1) * 5;
        chunk[base + ACCELERATION + c] = BENCH_ACCELERATION[c] as number;
        chunk[base + FORCE_ACCUM + c] = (random() * 2 - 1) * 20;
      }
      chunk[base + INVERSE_MASS] = 0.1 + random() * 1.9;
      chunk[base + DAMPING] = 0.5 + random() * 0.499;
    }
  };
}

/** Forces to add, xyz a particle, for the force pass. */
export function benchForces(count: number, seed = 2): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: count * 3 }, () => (random() * 2 - 1) * 20);
}

/** The plane of the collisions case: y = 0, under about half of the bench state (positions in [-10, 10]). */
export const BENCH_PLANE = { type: 'plane', normal: [0, 1, 0], offset: 0 } as const;
/**
 * The same ground bouncing with friction (three.js's compute-particles example's ground): the fused step then
 * also runs the resting-contact test and the friction, which the inelastic, frictionless BENCH_PLANE compiles out.
 */
export const BENCH_BOUNCING_PLANE = { ...BENCH_PLANE, restitution: 0.5, friction: 0.2 } as const;

/** A copy of bench state `source` with the acceleration lane zeroed: gravity comes from the registry. */
export function withoutAcceleration(source: Float32Array<ArrayBuffer>): Float32Array<ArrayBuffer> {
  const state = source.slice();
  const count = state.length / FLOATS_PER_PARTICLE;
  for (let i = 0; i < count; i++)
    state.fill(0, i * FLOATS_PER_PARTICLE + OFFSET.ACCELERATION, i * FLOATS_PER_PARTICLE + OFFSET.ACCELERATION + 3);
  return state;
}
