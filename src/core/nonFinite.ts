/**
 * Non-finite state: what happens to a particle whose position or velocity
 * becomes NaN or infinite in a step (an accepted input can overflow float32:
 * huge speeds, forces near a singularity). Both backends count every particle
 * whose state goes from finite to non-finite, in the step and in the
 * colliders pass after it, and apply the system's policy. No GPU here.
 */
import { NO_PARTICLE } from './collisions/links';
import { SparkworksInputError } from './errors';

/**
 * - `off`: not looked for: no test in the step, nothing counted (the fastest
 *   step on a software adapter, where the test costs about a third of a step;
 *   on a GPU, bound by memory, it costs next to nothing);
 * - `report`: counted (`nonFinite`, `firstNonFinite` in the stats), nothing else;
 * - `park`: counted, and the particle is made immovable and collision-free
 *   (inverse mass 0, radius -1, velocity 0) so it cannot poison its neighbours;
 * - `throw`: counted, and the next read (`read`, `readPacked`, `readStats`)
 *   throws a NonFiniteStateError naming the count and a particle.
 */
export const NON_FINITE_POLICIES = ['report', 'park', 'throw', 'off'] as const;
/** One of NON_FINITE_POLICIES: what a system does with a particle gone non-finite. */
export type NonFinitePolicy = (typeof NON_FINITE_POLICIES)[number];
/** A system's policy when its options name none: count, change nothing. */
export const DEFAULT_NON_FINITE_POLICY: NonFinitePolicy = 'report';

/** The words of the health record both backends keep (the GPU's is a storage buffer of atomics). */
export const HEALTH = {
  /** Particles whose state went from finite to non-finite, since creation. */
  nonFinite: 0,
  /** A particle of the first step that had any (the lowest index on the CPU; on the GPU the first to be seen). */
  firstIndex: 1,
  /** The policy, as its index in NON_FINITE_POLICIES: read only when a particle goes bad. */
  policy: 2,
  /** Words in the record. */
  words: 3,
} as const;

/** What `readStats()` adds about non-finite state. */
export interface NonFiniteStats {
  /** Particles whose state went from finite to non-finite since creation. */
  nonFinite: number;
  /** A particle of the first step that had any, or -1. */
  firstNonFinite: number;
}

/** Thrown by the next read of a system with policy `throw` after a particle's state became non-finite. */
export class NonFiniteStateError extends Error {
  /** The class's name, for messages and `instanceof`-free checks. */
  override readonly name = 'NonFiniteStateError';
  constructor(
    /** Particles gone non-finite since the system was created. */
    readonly count: number,
    /** One particle of the first step that had any. */
    readonly firstIndex: number,
  ) {
    super(
      `${count} particle(s) became non-finite (NaN or infinite position or velocity), particle ${firstIndex} first; ` +
        "the system's nonFinite policy is 'throw' (choose 'report' or 'park' to keep going)",
    );
  }
}

/** Checks a `nonFinite` option. */
export function checkNonFinitePolicy(policy: unknown, what = 'nonFinite'): NonFinitePolicy {
  if (policy === undefined) return DEFAULT_NON_FINITE_POLICY;
  if (typeof policy !== 'string' || !(NON_FINITE_POLICIES as readonly string[]).includes(policy)) {
    throw new SparkworksInputError(
      `${what} = ${JSON.stringify(policy)} is invalid: must be one of ${NON_FINITE_POLICIES.join(', ')}`,
      what,
      policy,
    );
  }
  return policy as NonFinitePolicy;
}

/**
 * The CPU's health record: counts transitions to non-finite state as the
 * GPU's atomics do, and holds the policy.
 */
export class HealthRecord {
  nonFinite = 0;
  firstIndex = NO_PARTICLE;
  readonly park: boolean;
  /** The count the last NonFiniteStateError reported (policy `throw` throws once per new count). */
  private reported = 0;

  /** Whether the step looks for non-finite state at all (every policy but `off`). */
  readonly checking: boolean;

  constructor(readonly policy: NonFinitePolicy) {
    this.park = policy === 'park';
    this.checking = policy !== 'off';
  }

  /** The count the last NonFiniteStateError reported. */
  get reportedCount(): number {
    return this.reported;
  }

  /** Sets the counts from a snapshot. */
  restore(nonFinite: number, firstIndex: number, reported: number): void {
    this.nonFinite = nonFinite;
    this.firstIndex = firstIndex;
    this.reported = reported;
  }

  /** Particle `index` went from finite to non-finite. */
  note(index: number): void {
    if (this.nonFinite === 0) this.firstIndex = index;
    this.nonFinite++;
  }

  stats(): NonFiniteStats {
    return statsOf(this.nonFinite, this.firstIndex);
  }

  /**
   * With policy `throw`: throws if particles went bad since the last throw.
   * The GPU system passes the counts it read back; the CPU's are its own.
   */
  checkRead(count = this.nonFinite, firstIndex = this.firstIndex): void {
    if (this.policy !== 'throw' || count <= this.reported) return;
    this.reported = count;
    throw new NonFiniteStateError(count, firstIndex);
  }
}

/** The stats of a health record's two words. */
export function statsOf(nonFinite: number, firstIndex: number): NonFiniteStats {
  return { nonFinite, firstNonFinite: nonFinite === 0 || firstIndex === NO_PARTICLE ? -1 : firstIndex };
}
