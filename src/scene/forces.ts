/**
 * The scene file's `forces`: a list of generators and pair springs, checked
 * by the core's own rules (src/core/forces) and named by their JSON path.
 *
 * ```json
 * "forces": [
 *   { "type": "gravity", "g": [0, -9.81, 0] },
 *   { "type": "drag", "k1": 0.1, "k2": 0.01, "range": { "start": 0, "count": 8 } },
 *   { "type": "anchoredSpring", "anchor": [0, 5, 0], "restLength": 2, "stiffness": 10, "particle": 3 },
 *   { "type": "turbulence", "strength": 2, "frequency": 0.5, "seed": 7, "particles": [4, 5, 6] },
 *   { "type": "spring", "a": 0, "b": 1, "restLength": 1, "stiffness": 20 },
 *   { "type": "bungee", "a": 1, "b": 2, "restLength": 1, "stiffness": 20 }
 * ]
 * ```
 *
 * A generator applies to every particle unless it names one `particle`, a
 * list of `particles`, or a `range` {start, count}. `spring` and `bungee`
 * join particles `a` and `b`.
 */
import {
  FORCE_RULES,
  checkGenerator,
  checkLink,
  checkTarget,
  type ForceGenerator,
  type ForceTarget,
  type SpringLink,
  type StoredGenerator,
} from '../core/forces/generators';
import { MAX_FORCE_GENERATORS } from '../core/forces/records';
import { validator, type Validator } from '../core/validation';

/** A scene's `"forces"`, checked and split: the generators for `system.forces`, the pair springs for `system.springs`. */
export interface SceneForces {
  /** Each generator with its target, in file order: register them with `system.forces.add(generator, target)`. */
  generators: {
    /** The generator as stored (defaults filled in). */
    generator: StoredGenerator;
    /** Every particle, a range, or a set of indices. */
    target: ForceTarget;
  }[];
  /** The `spring` and `bungee` entries: pass them to `system.springs.setLinks`. */
  links: SpringLink[];
}

/** Refusals as the core's force checks make them (SparkworksInputError), so the scene reports them with their path. */
const check: Validator = validator();

/** A generator's target: one of these keys (or none: every particle). */
export const TARGET_KEYS = ['particle', 'particles', 'range'] as const;
/** A `spring`'s or `bungee`'s keys besides `type`. */
export const SPRING_KEYS = ['a', 'b', 'restLength', 'stiffness'] as const;

/** Validates the scene's forces against its particle count; throws SparkworksInputError naming `forces[k]...`. */
export function sceneForces(forces: readonly unknown[] | undefined, particleCount: number): SceneForces {
  const out: SceneForces = { generators: [], links: [] };
  (forces ?? []).forEach((entry, k) => {
    const at = `forces[${k}]`;
    const { type, ...rest } = check.object(at, entry, undefined, 'must be an object {"type": ..., ...}');
    if (type === 'spring' || type === 'bungee') {
      check.keys(at, rest, SPRING_KEYS, { kind: type });
      out.links.push(checkLink({ ...(rest as unknown as SpringLink), kind: type }, particleCount, at));
      return;
    }
    const given = TARGET_KEYS.filter((key) => key in rest);
    if (given.length > 1)
      check.refuse(`${at}.${given[1]}`, rest[given[1] as string], `give one of ${TARGET_KEYS.join(', ')}`);
    const { particle, particles, range, ...parameters } = rest;
    let target: ForceTarget = 'all';
    if (particle !== undefined) {
      const index = check.integer(`${at}.particle`, particle, 0, particleCount - 1, FORCE_RULES.index(particleCount));
      target = { indices: [index] };
    } else if (particles !== undefined) {
      target = { indices: particles as number[] };
    } else if (range !== undefined) {
      target = check.object(`${at}.range`, range, ['start', 'count'], 'must be an object {"start": i, "count": n}') as {
        start: number;
        count: number;
      };
    }
    const names =
      particle !== undefined
        ? { indices: 'particle', start: '', count: '' }
        : { indices: 'particles', start: 'range.start', count: 'range.count' };
    checkTarget(target, particleCount, at, names);
    const generator = checkGenerator({ type, ...parameters } as ForceGenerator, at);
    out.generators.push({ generator, target });
    if (out.generators.length > MAX_FORCE_GENERATORS) {
      check.refuse(at, type, `a scene holds at most ${MAX_FORCE_GENERATORS} generators besides its springs`);
    }
  });
  return out;
}
