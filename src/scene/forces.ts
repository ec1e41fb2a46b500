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
  ForceInputError,
  checkGenerator,
  checkLink,
  checkTarget,
  refuse,
  type ForceGenerator,
  type ForceTarget,
  type SpringLink,
  type StoredGenerator,
} from '../core/forces/generators';
import { MAX_FORCE_GENERATORS } from '../core/forces/records';

export interface SceneForces {
  generators: { generator: StoredGenerator; target: ForceTarget }[];
  links: SpringLink[];
}

const TARGET_KEYS = ['particle', 'particles', 'range'] as const;
const LINK_KEYS = ['type', 'a', 'b', 'restLength', 'stiffness'];

/** Validates the scene's forces against its particle count; throws ForceInputError naming `forces[k]...`. */
export function sceneForces(forces: readonly unknown[] | undefined, particleCount: number): SceneForces {
  const out: SceneForces = { generators: [], links: [] };
  (forces ?? []).forEach((entry, k) => {
    const at = `forces[${k}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      refuse(at, JSON.stringify(entry), 'must be an object {"type": ..., ...}');
    }
    const { type, ...rest } = entry as Record<string, unknown>;
    if (type === 'spring' || type === 'bungee') {
      for (const key of Object.keys(entry)) {
        if (!LINK_KEYS.includes(key)) {
          refuse(`${at}.${key}`, rest[key], `unknown ${type} field (known: ${LINK_KEYS.slice(1).join(', ')})`);
        }
      }
      out.links.push(checkLink({ ...(rest as unknown as SpringLink), kind: type }, particleCount, at));
      return;
    }
    const given = TARGET_KEYS.filter((key) => key in rest);
    if (given.length > 1)
      refuse(`${at}.${given[1]}`, rest[given[1] as string], `give one of ${TARGET_KEYS.join(', ')}`);
    const { particle, particles, range, ...parameters } = rest;
    let target: ForceTarget = 'all';
    if (particle !== undefined) {
      const index = particle as number;
      if (!Number.isInteger(index) || index < 0 || index >= particleCount) {
        refuse(`${at}.particle`, particle, FORCE_RULES.index(particleCount));
      }
      target = { indices: [particle as number] };
    } else if (particles !== undefined) {
      target = { indices: particles as number[] };
    } else if (range !== undefined) {
      if (range === null || typeof range !== 'object' || Array.isArray(range)) {
        refuse(`${at}.range`, JSON.stringify(range), 'must be an object {"start": i, "count": n}');
      }
      target = range as { start: number; count: number };
    }
    const names =
      particle !== undefined
        ? { indices: 'particle', start: '', count: '' }
        : { indices: 'particles', start: 'range.start', count: 'range.count' };
    checkTarget(target, particleCount, at, names);
    const generator = checkGenerator({ type, ...parameters } as ForceGenerator, at);
    out.generators.push({ generator, target });
    if (out.generators.length > MAX_FORCE_GENERATORS) {
      refuse(at, type, `a scene holds at most ${MAX_FORCE_GENERATORS} generators besides its springs`);
    }
  });
  return out;
}

/** A core input name (`forces[2].anchor[1]`) as a JSON path's keys. */
export function pathOf(what: string): PropertyKey[] {
  return what
    .split(/\.|\[|\]/)
    .filter((key) => key !== '')
    .map((key) => (/^\d+$/.test(key) ? Number(key) : key));
}

export { ForceInputError };
