/**
 * The lifecycle options of a particle system, checked once for both
 * backends. A system has a lifecycle when it is given emitters or firework
 * rules; without them nothing here runs and every slot is live, as before.
 */
import { validator, type Validator } from '../validation';
import { EmitterSet } from './emitterSet';
import { MAX_LIFECYCLE_CAPACITY } from './gpuRecords';
import { prepareSpawnRules, type PreparedSpawnRules } from './spawnRules';
import type { EmitterInit, FireworkRuleInit } from './types';

const check: Validator = validator();

/** The emitter options of a system: its emitters, firework rules and permanent slots. */
export interface LifecycleOptions {
  /** Emitters: rates, bursts, shapes, velocities, lifetimes (src/core/emitters/params.ts). */
  emitters?: readonly EmitterInit[];
  /** Firework rules (Cyclone's FireworkRule), launched by emitters and by each other's payloads. */
  fireworks?: readonly FireworkRuleInit[];
  /**
   * Slots [0, permanent) hold particles that never die of age (the ones
   * `writeParticles` sets, e.g. a scene's); the emitters recycle the rest.
   * Default 0.
   */
  permanent?: number;
}

export interface PreparedLifecycle {
  readonly rules: PreparedSpawnRules;
  readonly emitters: EmitterSet;
  readonly permanent: number;
}

/** Null without emitters and fireworks; else the validated rules. Throws SparkworksInputError before building anything. */
export function prepareLifecycle(options: LifecycleOptions, capacity: number): PreparedLifecycle | null {
  if (options.emitters === undefined && options.fireworks === undefined) {
    if (options.permanent !== undefined) {
      check.refuse('permanent', options.permanent, 'only a system with emitters or fireworks has non-permanent slots');
    }
    return null;
  }
  if (capacity > MAX_LIFECYCLE_CAPACITY) {
    check.refuse(
      'capacity',
      capacity,
      `a system with emitters has at most ${MAX_LIFECYCLE_CAPACITY} slots (its live lists are indexed in u32)`,
    );
  }
  const permanent = options.permanent ?? 0;
  check.integer('permanent', permanent, 0, capacity, `must be an integer in [0, ${capacity}] (the capacity)`);
  const rules = prepareSpawnRules(options.emitters ?? [], options.fireworks ?? []);
  return { rules, emitters: new EmitterSet(rules), permanent };
}
