/**
 * Random sequences of API calls for test/properties.api.test.ts, and the pair
 * of systems they run on: the GPU ParticleSystem and the CPU reference with
 * the same options, the reference's distance from the GPU bounded by the
 * float32 error carried through every step exactly as the force and collider
 * tests carry it (test/support/forceBound.ts for the forces,
 * test/support/errorBound.ts for the step, test/support/collisionBound.ts for
 * the colliders after it). Nothing here picks a tolerance.
 *
 * Commands are plain data (fast-check shrinks and prints them); each names
 * its particles within the capacity it was drawn for.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { prepareColliders, type ColliderInit, type PackedColliders } from '../../src/core/collisions/colliders';
import { DEFAULT_CONTACT_SETTINGS } from '../../src/core/collisions/world';
import { CpuParticleSystem } from '../../src/core/cpuParticleSystem';
import { SparkworksInputError } from '../../src/core/errors';
import type { ForceGenerator, ForceTarget, SpringLink } from '../../src/core/forces/generators';
import type { ForceHandle } from '../../src/core/forces/registry';
import { integrate } from '../../src/core/integrate';
import { FLOATS_PER_PARTICLE, OFFSET } from '../../src/core/layout';
import { isValidDamping, packParticles, type ParticleInit, type SettableField } from '../../src/core/particles';
import { ALL_VARIANTS, type Variant } from '../../src/core/variants';
import { ParticleSystem } from '../../src/gpu/particleSystem';
import { NearThresholdError, advanceThroughColliders } from './collisionBound';
import { StepErrorBound, compareWithBound } from './errorBound';
import { add, exact, forceBound, tracked } from './forceBound';

const { FORCE_ACCUM, INVERSE_MASS } = OFFSET;

// ---------------------------------------------------------------------------
// Commands

/** A call that must be refused on both backends, leaving both states as they were. */
export type Invalid =
  | { kind: 'step'; dt: number }
  | { kind: 'stepMany'; dt: number; steps: number }
  | { kind: 'writeParticles'; start: number; particles: ParticleInit[] }
  | { kind: 'setField'; field: string; start: number; values: number[] }
  | { kind: 'addForces'; start: number; forces: number[] }
  | { kind: 'addGenerator'; generator: unknown }
  | { kind: 'setColliders'; colliders: unknown[] };

export type Command =
  | { kind: 'writeParticles'; start: number; particles: ParticleInit[] }
  | { kind: 'writePacked'; start: number; particles: ParticleInit[] }
  | { kind: 'setField'; field: SettableField; start: number; values: number[] }
  | { kind: 'addForces'; start: number; forces: number[] }
  | { kind: 'accumulateForces'; dt: number }
  | { kind: 'step'; dt: number }
  | { kind: 'stepMany'; dt: number; steps: number }
  | { kind: 'addGenerator'; generator: ForceGenerator; target: ForceTarget }
  | { kind: 'removeGenerator'; which: number }
  | { kind: 'setSprings'; links: SpringLink[] }
  | { kind: 'setColliders'; colliders: ColliderInit[] }
  | { kind: 'invalid'; call: Invalid };

/** What a sequence runs on: the systems' options and the calls. */
export interface Sequence {
  capacity: number;
  variant: Variant;
  /** Colliders given at creation (the `collisions` option), or none. */
  colliders: ColliderInit[] | null;
  commands: Command[];
}

const double = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
const vec = (scale: number) => fc.tuple(double(-scale, scale), double(-scale, scale), double(-scale, scale));

/** Valid time steps: the usual ones and any in [1e-4, 1/20]. */
const dt = fc.oneof(fc.constantFrom(1 / 60, 1 / 120, 1 / 30, 0.01), double(1e-4, 1 / 20));

function particle(): fc.Arbitrary<ParticleInit> {
  return fc
    .record({
      position: vec(5),
      velocity: vec(3),
      acceleration: fc.oneof(fc.constant([0, -9.81, 0]), vec(10)),
      // The default mass, a mass, or immovable (inverse mass 0) now and then.
      mass: fc.oneof(fc.constant(undefined), double(0.2, 5), double(0.2, 5), fc.constant('immovable' as const)),
      damping: fc.oneof(fc.constantFrom(0, 1, 0.99, 0.5), double(0, 1).filter(isValidDamping)),
      radius: fc.oneof(fc.constant(0), double(0, 0.3)),
    })
    .map(({ mass, ...rest }): ParticleInit => {
      if (mass === 'immovable') return { ...rest, inverseMass: 0 };
      return mass === undefined ? rest : { ...rest, mass };
    });
}

/** A run of `count` slots from a start that fits the capacity. */
function slots(capacity: number, minCount = 1) {
  return fc
    .integer({ min: 0, max: capacity - minCount })
    .chain((start) => fc.integer({ min: minCount, max: capacity - start }).map((count) => ({ start, count })));
}

const FIELDS: Record<SettableField, { size: number; value: fc.Arbitrary<number> }> = {
  position: { size: 3, value: double(-5, 5) },
  velocity: { size: 3, value: double(-3, 3) },
  acceleration: { size: 3, value: double(-10, 10) },
  mass: { size: 1, value: double(0.2, 5) },
  inverseMass: { size: 1, value: fc.oneof(fc.constant(0), double(0.2, 5)) },
  damping: { size: 1, value: double(0, 1).filter(isValidDamping) },
  radius: { size: 1, value: double(0, 0.3) },
};

function generator(capacity: number): fc.Arbitrary<{ generator: ForceGenerator; target: ForceTarget }> {
  const generators: fc.Arbitrary<ForceGenerator> = fc.oneof(
    vec(10).map((g) => ({ type: 'gravity' as const, g })),
    fc.record({ type: fc.constant('drag' as const), k1: double(0, 1), k2: double(0, 0.1) }),
    vec(5).map((force) => ({ type: 'wind' as const, force })),
    fc.record({
      type: fc.constant('anchoredSpring' as const),
      anchor: vec(3),
      restLength: double(0, 3),
      stiffness: double(0, 5),
    }),
  );
  const target: fc.Arbitrary<ForceTarget> = fc.oneof(
    fc.constant('all' as const),
    slots(capacity),
    fc
      .uniqueArray(fc.nat({ max: capacity - 1 }), { minLength: 1, maxLength: capacity })
      .map((indices) => ({ indices })),
  );
  return fc.record({ generator: generators, target });
}

function springs(capacity: number): fc.Arbitrary<SpringLink[]> {
  if (capacity < 2) return fc.constant([]);
  return fc.array(
    fc
      .record({
        a: fc.nat({ max: capacity - 1 }),
        shift: fc.integer({ min: 1, max: capacity - 1 }),
        restLength: double(0, 3),
        stiffness: double(0, 3),
        kind: fc.constantFrom('spring' as const, 'bungee' as const),
      })
      .map(({ a, shift, ...rest }) => ({ a, b: (a + shift) % capacity, ...rest })),
    { maxLength: 4 },
  );
}

export function plane(): fc.Arbitrary<ColliderInit> {
  return fc.record({
    type: fc.constant('plane' as const),
    normal: fc.oneof(
      fc.constant([0, 1, 0]),
      vec(1).filter((n) => Math.hypot(...n) > 0.1),
    ),
    offset: double(-3, 0),
    restitution: double(0, 1),
    friction: double(0, 1),
    kill: fc.constantFrom(false, false, false, true),
  });
}

/** Values each rule refuses: NaN, infinities, 0, negatives, subnormal float32s, overflows. */
const BAD_DT = [0, -0.01, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e-45, 1e-39, 1e-50];
const BAD_STEPS = [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY];
const BAD_MASS = [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e-39, 1e38];
const BAD_INVERSE_MASS = [-1, Number.NaN, 1e-39, 1e39];
/** A subnormal float32 damping too: some GPUs flush it to 0 where the CPU keeps d^dt of the velocity. */
const BAD_DAMPING = [-0.1, 1.5, Number.NaN, 1e-40];
const BAD_VECTOR_COMPONENT = [Number.NaN, Number.POSITIVE_INFINITY, 1e39, -1e39];

function invalid(capacity: number): fc.Arbitrary<Invalid> {
  const badParticle: fc.Arbitrary<ParticleInit> = fc.oneof(
    fc.tuple(particle(), fc.constantFrom(...BAD_MASS)).map(([p, mass]) => {
      const { inverseMass: _, ...rest } = p;
      return { ...rest, mass };
    }),
    fc.tuple(particle(), fc.constantFrom(...BAD_INVERSE_MASS)).map(([p, inverseMass]) => {
      const { mass: _, ...rest } = p;
      return { ...rest, inverseMass };
    }),
    fc.tuple(particle(), fc.constantFrom(...BAD_DAMPING)).map(([p, damping]) => ({ ...p, damping })),
    fc
      .tuple(particle(), fc.nat({ max: 2 }), fc.constantFrom(...BAD_VECTOR_COMPONENT))
      .map(([p, c, x]) => ({ ...p, position: [0, 1, 2].map((k) => (k === c ? x : 0)) })),
    particle().map((p) => ({ ...p, mass: 2, inverseMass: 0.5 })),
  );
  return fc.oneof(
    fc.constantFrom(...BAD_DT).map((d) => ({ kind: 'step' as const, dt: d })),
    fc.tuple(dt, fc.constantFrom(...BAD_STEPS)).map(([d, steps]) => ({ kind: 'stepMany' as const, dt: d, steps })),
    fc.constantFrom(...BAD_DT).map((d) => ({ kind: 'stepMany' as const, dt: d, steps: 2 })),
    // Good particles then a bad one: nothing of the list may be written.
    fc
      .tuple(slots(capacity), badParticle)
      .chain(([{ start, count }, bad]) =>
        fc
          .array(particle(), { minLength: count - 1, maxLength: count - 1 })
          .map((good) => ({ kind: 'writeParticles' as const, start, particles: [...good, bad] })),
      ),
    // One particle past the capacity.
    fc
      .integer({ min: 0, max: capacity - 1 })
      .chain((start) =>
        fc
          .array(particle(), { minLength: capacity - start + 1, maxLength: capacity - start + 1 })
          .map((particles) => ({ kind: 'writeParticles' as const, start, particles })),
      ),
    fc
      .tuple(
        fc.constantFrom(
          ['mass', BAD_MASS],
          ['inverseMass', BAD_INVERSE_MASS],
          ['damping', BAD_DAMPING],
          ['position', BAD_VECTOR_COMPONENT],
          ['velocity', BAD_VECTOR_COMPONENT],
          ['radius', [-1, Number.NaN, 1e39]],
        ) as fc.Arbitrary<[SettableField, number[]]>,
        slots(capacity),
      )
      .chain(([[field, bad], { start, count }]) =>
        fc
          .tuple(
            fc.array(FIELDS[field].value, {
              minLength: count * FIELDS[field].size,
              maxLength: count * FIELDS[field].size,
            }),
            fc.nat(),
            fc.constantFrom(...bad),
          )
          .map(([values, at, x]) => {
            values[at % values.length] = x;
            return { kind: 'setField' as const, field: field as string, start, values };
          }),
      ),
    fc.constantFrom('constructor', '__proto__', 'forceAccum', 'positions').map((field) => ({
      kind: 'setField' as const,
      field,
      start: 0,
      values: [1, 1, 1],
    })),
    fc.tuple(slots(capacity), fc.nat(), fc.constantFrom(...BAD_VECTOR_COMPONENT)).chain(([{ start, count }, at, x]) =>
      fc.array(double(-20, 20), { minLength: 3 * count, maxLength: 3 * count }).map((forces) => {
        forces[at % forces.length] = x;
        return { kind: 'addForces' as const, start, forces };
      }),
    ),
    fc
      .constantFrom<unknown>(
        { type: 'gravity', g: [0, Number.NaN, 0] },
        { type: 'drag', k1: -1, k2: 0 },
        { type: 'constructor' },
        { type: 'toString', g: [0, 0, 0] },
        { type: 'wind', force: [0, 0, 0], extra: 1 },
        { type: 'anchoredSpring', anchor: [0, 0, 0], restLength: 1, stiffness: Number.POSITIVE_INFINITY },
      )
      .map((g) => ({ kind: 'addGenerator' as const, generator: g })),
    fc
      .constantFrom<unknown[]>(
        [{ type: 'plane', normal: [0, 0, 0] }],
        [{ type: 'plane', normal: [0, 1, 0], restitution: 2 }],
        [{ type: 'sphere', center: [0, 0, 0], radius: -1 }],
        [{ type: 'plane', normal: [0, 1, 0] }, { type: 'constructor' }],
      )
      .map((colliders) => ({ kind: 'setColliders' as const, colliders })),
  );
}

function command(capacity: number): fc.Arbitrary<Command> {
  const written = slots(capacity, 0).chain(({ start, count }) =>
    fc.array(particle(), { minLength: count, maxLength: count }).map((particles) => ({ start, particles })),
  );
  const field = fc
    .tuple(fc.constantFrom(...(Object.keys(FIELDS) as SettableField[])), slots(capacity))
    .chain(([name, { start, count }]) =>
      fc
        .array(FIELDS[name].value, { minLength: count * FIELDS[name].size, maxLength: count * FIELDS[name].size })
        .map((values) => ({ kind: 'setField' as const, field: name, start, values })),
    );
  return fc.oneof(
    { arbitrary: written.map((w) => ({ kind: 'writeParticles' as const, ...w })), weight: 2 },
    { arbitrary: written.map((w) => ({ kind: 'writePacked' as const, ...w })), weight: 1 },
    { arbitrary: field, weight: 2 },
    {
      arbitrary: slots(capacity).chain(({ start, count }) =>
        fc
          .array(double(-20, 20), { minLength: 3 * count, maxLength: 3 * count })
          .map((forces) => ({ kind: 'addForces' as const, start, forces })),
      ),
      weight: 2,
    },
    { arbitrary: dt.map((d) => ({ kind: 'accumulateForces' as const, dt: d })), weight: 1 },
    { arbitrary: dt.map((d) => ({ kind: 'step' as const, dt: d })), weight: 3 },
    {
      arbitrary: fc.tuple(dt, fc.integer({ min: 0, max: 12 })).map(([d, steps]) => ({
        kind: 'stepMany' as const,
        dt: d,
        steps,
      })),
      weight: 3,
    },
    { arbitrary: generator(capacity).map((g) => ({ kind: 'addGenerator' as const, ...g })), weight: 3 },
    { arbitrary: fc.nat().map((which) => ({ kind: 'removeGenerator' as const, which })), weight: 1 },
    { arbitrary: springs(capacity).map((links) => ({ kind: 'setSprings' as const, links })), weight: 1 },
    {
      arbitrary: fc.array(plane(), { maxLength: 2 }).map((colliders) => ({ kind: 'setColliders' as const, colliders })),
      weight: 1,
    },
    { arbitrary: invalid(capacity).map((call) => ({ kind: 'invalid' as const, call })), weight: 3 },
  );
}

export function sequence(options: { maxCapacity: number; minCommands: number; maxCommands: number }) {
  return fc
    .record({
      capacity: fc.integer({ min: 1, max: options.maxCapacity }),
      variant: fc.constantFrom(...ALL_VARIANTS),
      colliders: fc.option(fc.array(plane(), { minLength: 1, maxLength: 2 }), { nil: null }),
    })
    .chain(({ capacity, variant, colliders }) =>
      fc
        .array(command(capacity), { minLength: options.minCommands, maxLength: options.maxCommands })
        .map((commands): Sequence => ({ capacity, variant, colliders, commands })),
    );
}

// ---------------------------------------------------------------------------
// The pair of systems and the carried bound

/** The error a call threw or rejected with, or null. */
async function outcome(call: () => unknown): Promise<unknown> {
  try {
    await call();
    return null;
  } catch (error) {
    return error;
  }
}

/** The carried bound became infinite (or NaN): it cannot vouch for the GPU's result. */
export class Unvouched extends Error {
  override readonly name = 'Unvouched';
}

/** The model's state for a run of steps: the reference state, the carried bound, the accumulators' bound. */
interface Carried {
  state: Float32Array;
  bound: StepErrorBound;
  accumulatorError: Float64Array;
}

function copyBound(bound: StepErrorBound): StepErrorBound {
  const copy = new StepErrorBound(bound.count, bound.variant);
  copy.position.set(bound.position);
  copy.velocity.set(bound.velocity);
  copy.steps = bound.steps;
  return copy;
}

/**
 * The GPU system and the CPU reference, created with the same options and
 * given the same calls, with the bound on their distance carried between
 * calls: per particle component for position and velocity (StepErrorBound),
 * and for the force accumulators, which addForces may round differently on
 * the GPU once they hold something (forceBound's `add`).
 */
export class SystemPair {
  readonly bound: StepErrorBound;
  readonly accumulatorError: Float64Array;
  private readonly handles: [ForceHandle, ForceHandle][] = [];
  private colliders: PackedColliders;
  /** Steps taken, for messages. */
  private steps = 0;
  /** Times the GPU was restarted from the reference's state, the carried bound unable to vouch for a step. */
  resyncs = 0;
  /** Calls whose steps could not be checked even from identical states. */
  unchecked = 0;

  private constructor(
    readonly gpu: ParticleSystem,
    readonly cpu: CpuParticleSystem,
    readonly variant: Variant,
    colliders: ColliderInit[] | null,
  ) {
    this.bound = new StepErrorBound(cpu.capacity, variant);
    this.accumulatorError = new Float64Array(cpu.capacity * 3);
    this.colliders = prepareColliders(colliders ?? []);
  }

  static async create(device: GPUDevice, sequence: Sequence): Promise<SystemPair> {
    const options = {
      capacity: sequence.capacity,
      ...sequence.variant,
      ...(sequence.colliders ? { collisions: { colliders: sequence.colliders } } : {}),
    };
    const gpu = await ParticleSystem.create(device, options);
    return new SystemPair(gpu, new CpuParticleSystem(options), sequence.variant, sequence.colliders);
  }

  destroy(): void {
    this.gpu.destroy();
    this.cpu.destroy();
  }

  get capacity(): number {
    return this.cpu.capacity;
  }

  /** The reference's packed state (float32, as created). */
  private get referenceState(): Float32Array {
    return this.cpu.state as Float32Array;
  }

  /** Slots [start, start + count) were written whole on both: they agree exactly. */
  private written(start: number, count: number): void {
    this.bound.position.fill(0, start * 3, (start + count) * 3);
    this.bound.velocity.fill(0, start * 3, (start + count) * 3);
    this.accumulatorError.fill(0, start * 3, (start + count) * 3);
  }

  async run(command: Command): Promise<void> {
    const { gpu, cpu } = this;
    switch (command.kind) {
      case 'writeParticles':
        await gpu.writeParticles(command.start, command.particles);
        cpu.writeParticles(command.start, command.particles);
        this.written(command.start, command.particles.length);
        return;
      case 'writePacked': {
        const records = packParticles(command.particles);
        await gpu.writePacked(command.start, records);
        cpu.writePacked(command.start, records);
        this.written(command.start, command.particles.length);
        return;
      }
      case 'setField': {
        await gpu.setField(command.field, command.start, command.values);
        cpu.setField(command.field, command.start, command.values);
        const count = command.values.length / FIELDS[command.field].size;
        if (command.field === 'position') this.bound.position.fill(0, command.start * 3, (command.start + count) * 3);
        if (command.field === 'velocity') this.bound.velocity.fill(0, command.start * 3, (command.start + count) * 3);
        return;
      }
      case 'addForces': {
        // Each side adds once: the GPU may round either way where the reference rounds to nearest.
        const before = this.referenceState;
        for (let k = 0; k < command.forces.length; k++) {
          const i = command.start + Math.floor(k / 3);
          const j = i * 3 + (k % 3);
          const held = tracked(
            before[i * FLOATS_PER_PARTICLE + FORCE_ACCUM + (k % 3)] as number,
            this.accumulatorError[j] as number,
          );
          this.accumulatorError[j] = add(held, exact(Math.fround(command.forces[k] as number))).e;
        }
        await gpu.addForces(command.start, command.forces);
        cpu.addForces(command.start, command.forces);
        return;
      }
      case 'accumulateForces': {
        const forces = this.forces(this.referenceState, command.dt);
        await gpu.accumulateForces(command.dt);
        cpu.accumulateForces(command.dt);
        expect(
          firstDifference(accumulatorsOf(this.referenceState), forces.value),
          'the tracked forces are the reference’s',
        ).toBeNull();
        this.accumulatorError.set(forces.error);
        return;
      }
      case 'step':
        return this.steps_(
          command.dt,
          1,
          () => gpu.step(command.dt),
          () => cpu.step(command.dt),
        );
      case 'stepMany':
        return this.steps_(
          command.dt,
          command.steps,
          () => gpu.stepMany(command.dt, command.steps),
          () => cpu.stepMany(command.dt, command.steps),
        );
      case 'addGenerator':
        this.handles.push([
          gpu.forces.add(command.generator, command.target),
          cpu.forces.add(command.generator, command.target),
        ]);
        return;
      case 'removeGenerator': {
        if (this.handles.length === 0) return;
        const [[g, c]] = this.handles.splice(command.which % this.handles.length, 1) as [[ForceHandle, ForceHandle]];
        expect(gpu.forces.remove(g)).toBe(true);
        expect(cpu.forces.remove(c)).toBe(true);
        return;
      }
      case 'setSprings':
        gpu.springs.setLinks(command.links);
        cpu.springs.setLinks(command.links);
        return;
      case 'setColliders':
        await gpu.setColliders(command.colliders);
        cpu.setColliders(command.colliders);
        this.colliders = prepareColliders(command.colliders);
        return;
      case 'invalid':
        return this.refused(command.call);
    }
  }

  /** The forces of one accumulation on `state`, tracked, with the accumulators' own bound added. */
  private forces(
    state: Float32Array,
    dt: number,
    bound: StepErrorBound = this.bound,
    accumulatorError = this.accumulatorError,
  ) {
    const tracked = forceBound(
      state,
      this.capacity,
      this.cpu.forces,
      this.cpu.springs,
      Math.fround(dt),
      bound.position,
      bound.velocity,
    );
    // The accumulator enters each force sum as its first term: its error adds once (the sum's 3u(n-1) on it is far below 2^-16 for these few terms).
    const error = tracked.error.map((e, j) => e + (accumulatorError[j] as number) * (1 + 2 ** -16));
    return { value: tracked.value, error };
  }

  /**
   * `steps` steps of `dt` carried through the model: forces (tracked), the
   * step's bound, the reference's integrate, the colliders' bound. Throws
   * NearThresholdError where a collider's branch is within the bound.
   */
  private carry(start: Carried, dt: number, steps: number): Carried {
    const dt32 = Math.fround(dt);
    const state = start.state.slice();
    const bound = copyBound(start.bound);
    const accumulatorError = start.accumulatorError.slice();
    let current: Float32Array = state;
    for (let s = 0; s < steps; s++) {
      const forces = this.forces(current, dt, bound, accumulatorError);
      const before = current.slice();
      for (let i = 0; i < this.capacity; i++) {
        for (let c = 0; c < 3; c++)
          before[i * FLOATS_PER_PARTICLE + FORCE_ACCUM + c] = forces.value[i * 3 + c] as number;
      }
      bound.advance(before, dt32, forces.error);
      const after = before.slice();
      integrate(after, this.capacity, dt32, this.variant, Math.fround);
      for (let i = 0; i < this.capacity; i++) {
        // Integrated particles' accumulators are cleared on both sides; immovable ones keep theirs.
        if ((before[i * FLOATS_PER_PARTICLE + INVERSE_MASS] as number) > 0) accumulatorError.fill(0, i * 3, i * 3 + 3);
        else for (let c = 0; c < 3; c++) accumulatorError[i * 3 + c] = forces.error[i * 3 + c] as number;
      }
      current =
        this.colliders.count > 0
          ? advanceThroughColliders(bound, after, this.colliders, {
              dt: dt32,
              skin: Math.fround(DEFAULT_CONTACT_SETTINGS.skin),
            })
          : after;
      // An infinite, NaN or negative bound vouches for nothing: forceBound's division by a denominator
      // within its own error gives Infinity (and StepErrorBound's 0 * Infinity NaN); collisionBound's
      // friction widening divides by speed - e_speed, negative when the speed is within its error.
      const all = [...bound.position, ...bound.velocity, ...accumulatorError];
      const j = all.findIndex((e) => !(e >= 0 && e < Number.POSITIVE_INFINITY));
      if (j >= 0) throw new Unvouched(`the carried bound is ${all[j]} at [${j}] after step ${s + 1}`);
    }
    return { state: current, bound, accumulatorError };
  }

  private async steps_(dt: number, steps: number, onGpu: () => Promise<void>, onCpu: () => void): Promise<void> {
    const start: Carried = {
      state: Float32Array.from(this.cpu.state),
      bound: this.bound,
      accumulatorError: this.accumulatorError,
    };
    const zero = (): Carried => ({
      state: start.state,
      bound: new StepErrorBound(this.capacity, this.variant),
      accumulatorError: new Float64Array(this.capacity * 3),
    });
    let carried: Carried | null = null;
    try {
      carried = this.carry(start, dt, steps);
    } catch (error) {
      if (!(error instanceof NearThresholdError || error instanceof Unvouched)) throw error;
      // From where the carried bound stands, the GPU may legitimately branch apart from the reference (a
      // particle within float32 rounding of a collider's threshold, or a force the bound cannot follow):
      // start the GPU again from the reference's state (an exact copy), and carry from a zero bound.
      this.resyncs++;
      this.gpu.particles.write(0, start.state);
      try {
        carried = this.carry(zero(), dt, steps);
      } catch (again) {
        if (!(again instanceof NearThresholdError || again instanceof Unvouched)) throw again;
        // Even from identical states: these steps cannot be checked; the GPU is given the reference's result after them.
        this.unchecked++;
      }
    }
    await onGpu();
    onCpu();
    this.steps += steps;
    if (carried === null) {
      this.gpu.particles.write(0, Float32Array.from(this.cpu.state));
      carried = zero();
      carried.state = Float32Array.from(this.cpu.state);
    }
    // The model re-ran the reference's step function by function: it must land exactly where the reference did.
    expect(
      firstDifference(this.cpu.state, carried.state),
      `the model mirrors the reference's step (after ${this.steps} steps)`,
    ).toBeNull();
    this.bound.position.set(carried.bound.position);
    this.bound.velocity.set(carried.bound.velocity);
    this.bound.steps = this.steps;
    this.accumulatorError.set(carried.accumulatorError);
  }

  /** An invalid call: refused on both with the same SparkworksInputError, both states unchanged bit for bit. */
  private async refused(call: Invalid): Promise<void> {
    const { gpu, cpu } = this;
    const gpuBefore = await gpu.readPacked();
    const cpuBefore = await cpu.readPacked();
    const sizes = [gpu.forces.size, cpu.forces.size];
    const errors = [];
    for (const system of [gpu, cpu]) {
      errors.push(
        await outcome(() => {
          switch (call.kind) {
            case 'step':
              return system.step(call.dt);
            case 'stepMany':
              return system.stepMany(call.dt, call.steps);
            case 'writeParticles':
              return system.writeParticles(call.start, call.particles);
            case 'setField':
              return system.setField(call.field as SettableField, call.start, call.values);
            case 'addForces':
              return system.addForces(call.start, call.forces);
            case 'addGenerator':
              return system.forces.add(call.generator as ForceGenerator);
            case 'setColliders':
              return system.setColliders(call.colliders as ColliderInit[]);
          }
        }),
      );
    }
    const [onGpu, onCpu] = errors;
    expect(onGpu, 'the GPU system refuses it with a SparkworksInputError').toBeInstanceOf(SparkworksInputError);
    expect(onCpu, 'the CPU reference refuses it with a SparkworksInputError').toBeInstanceOf(SparkworksInputError);
    expect((onGpu as Error).message, 'both backends refuse it in the same words').toBe((onCpu as Error).message);
    expect(firstDifference(bits(await gpu.readPacked()), bits(gpuBefore)), 'the GPU state is untouched').toBeNull();
    expect(firstDifference(bits(await cpu.readPacked()), bits(cpuBefore)), 'the CPU state is untouched').toBeNull();
    expect([gpu.forces.size, cpu.forces.size], 'no generator registered').toEqual(sizes);
  }

  /**
   * The GPU's state against the reference's: positions and velocities within
   * the carried bound, accumulators within theirs, every other attribute bit
   * for bit (compareWithBound). A message, or null.
   */
  async compare(context: string): Promise<string | null> {
    const got = await this.gpu.readPacked();
    const reference = await this.cpu.readPacked();
    const patched = got.slice();
    const lines: string[] = [];
    for (let i = 0; i < this.capacity; i++) {
      for (let c = 0; c < 3; c++) {
        const at = i * FLOATS_PER_PARTICLE + FORCE_ACCUM + c;
        const allowed = this.accumulatorError[i * 3 + c] as number;
        const diff = Math.abs((got[at] as number) - (reference[at] as number));
        if (diff <= allowed) patched[at] = reference[at] as number;
        else if (allowed > 0) {
          lines.push(
            `particle ${i} forceAccum[${'xyz'[c]}]: GPU ${got[at]}, reference ${reference[at]}, |diff| ${diff} > allowed ${allowed}`,
          );
        }
      }
    }
    const failure = compareWithBound(patched, reference, this.bound, context);
    if (lines.length > 0) return `${context}: accumulators beyond their bound:\n  ${lines.slice(0, 5).join('\n  ')}`;
    return failure;
  }
}

const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);

function accumulatorsOf(state: Float32Array): Float32Array {
  const count = state.length / FLOATS_PER_PARTICLE;
  const out = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 3; c++) out[i * 3 + c] = state[i * FLOATS_PER_PARTICLE + FORCE_ACCUM + c] as number;
  }
  return out;
}

/** The first index where two arrays differ (+0 and -0 equal, NaN equal to NaN), described, or null. */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): string | null {
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return `[${i}]: ${a[i]} vs ${b[i]}`;
  }
  return null;
}
