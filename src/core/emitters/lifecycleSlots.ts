/**
 * The slot layout both lifecycles share (this CPU reference and
 * src/gpu/lifecycle/lifecycle.ts): slots [0, permanent) hold the host's particles and
 * live for ever; the rest are born, aged and recycled by the lifecycle, and
 * a free one is parked so that no pass moves it or collides with it.
 */
import { DEAD_RADIUS } from '../collisions/colliders';
import { SparkworksInputError } from '../errors';
import { OFFSET, FLOATS_PER_PARTICLE, LIFE, NO_RULE, type LifeRecords } from '../layout';
import type { FloatArray } from '../particles';
import type { StructArray } from '../schema';
import { LIFE_COUNTERS } from './gpuRecords';

const { INVERSE_MASS, VELOCITY, RADIUS, FORCE_ACCUM } = OFFSET;

/** The lists and records both backends start from: slots [0, permanent) live forever, the rest free. */
export function initialLifecycle(
  capacity: number,
  permanent: number,
): {
  lists: Uint32Array<ArrayBuffer>;
  freeList: Uint32Array<ArrayBuffer>;
  life: LifeRecords;
  counters: StructArray<typeof LIFE_COUNTERS.fields>;
} {
  const lists = new Uint32Array(2 * capacity);
  for (let i = 0; i < permanent; i++) lists[i] = i;
  // The top of the stack is the end: slot `permanent` is taken first, then upwards.
  const freeList = new Uint32Array(capacity);
  const free = capacity - permanent;
  for (let i = 0; i < free; i++) freeList[i] = capacity - 1 - i;
  const life = LIFE.array(capacity);
  for (let i = 0; i < permanent; i++) {
    life.set(i, 'lifetime', Number.POSITIVE_INFINITY);
    life.set(i, 'size', 1);
    life.set(i, 'color', 0xffffffff);
    life.set(i, 'rule', NO_RULE);
    life.set(i, 'alive', 1);
    life.set(i, 'generation', 1);
  }
  for (let i = permanent; i < capacity; i++) life.set(i, 'rule', NO_RULE);
  const counters = LIFE_COUNTERS.array(1);
  counters.set(0, 'live', permanent).set(0, 'free', free);
  return { lists, freeList, life, counters };
}

/**
 * With emitters, the host writes only the permanent slots: the others belong
 * to the lifecycle (a write there would make a free slot move on the CPU
 * reference, which steps every slot with inverse mass > 0, and not on the GPU,
 * which steps the live list).
 */
export function checkPermanentRange(
  lifecycle: { readonly permanent: number } | null,
  start: number,
  count: number,
): void {
  if (!lifecycle || count === 0 || start + count <= lifecycle.permanent) return;
  throw new SparkworksInputError(
    `particle range [${start}, ${start + count}) reaches past the ${lifecycle.permanent} permanent slots: ` +
      `with emitters, slots [${lifecycle.permanent}, capacity) are born, aged and recycled by the lifecycle`,
    'range',
    [start, start + count],
  );
}

/** Parks slot `slot` of `state` as a free slot: immovable, at rest, no particle to the collision passes. */
export function parkSlot(state: FloatArray, slot: number): void {
  const base = slot * FLOATS_PER_PARTICLE;
  state[base + INVERSE_MASS] = 0;
  state[base + VELOCITY] = 0;
  state[base + VELOCITY + 1] = 0;
  state[base + VELOCITY + 2] = 0;
  state[base + RADIUS] = DEAD_RADIUS;
  state[base + FORCE_ACCUM] = 0;
  state[base + FORCE_ACCUM + 1] = 0;
  state[base + FORCE_ACCUM + 2] = 0;
}
