/**
 * Springs and bungees between two particles, as data: validated against the
 * capacity before any is stored.
 */
import { validator, type Validator } from '../validation';
import { FORCE_RULES, passesRule } from './forceRules';

/** The links' refusals: SparkworksInputError, in the shared wording (src/core/validation.ts). */
const check: Validator = validator();

/** A spring or bungee between two particles (Cyclone's ParticleSpring and ParticleBungee, both ends at once). */
export interface SpringLink {
  /** One end: a particle index. */
  a: number;
  /** The other end: another particle's index. */
  b: number;
  /** m, >= 0. */
  restLength: number;
  /** N/m, >= 0. */
  stiffness: number;
  /**
   * `spring` (default) pushes and pulls; `bungee` only pulls. Cyclone's
   * ParticleBungee multiplies `k (restLength - |d|)` by -1 a second time and
   * so pushes the ends apart when stretched; this one pulls them together.
   */
  kind?: 'spring' | 'bungee';
}

export const SPRING_KINDS = ['spring', 'bungee'] as const;

/** Validates every link before anything is stored; returns stored copies. */
export function checkLinks(links: readonly SpringLink[], capacity: number, what = 'links'): Required<SpringLink>[] {
  if (!Array.isArray(links)) check.refuse(what, links, 'must be an array of {a, b, restLength, stiffness, kind?}');
  return links.map((link, k) => checkLink(link, capacity, `${what}[${k}]`));
}

/** Validates one link, named `at` in errors. */
export function checkLink(link: SpringLink, capacity: number, at: string): Required<SpringLink> {
  check.object(at, link);
  check.keys(at, link as unknown as Record<string, unknown>, ['a', 'b', 'restLength', 'stiffness', 'kind'], {
    kind: 'spring',
  });
  for (const end of ['a', 'b'] as const) {
    check.integer(`${at}.${end}`, link[end], 0, capacity - 1, FORCE_RULES.index(capacity));
  }
  if (link.a === link.b) {
    check.refuse(`${at}.b`, link.b, `joins particle ${link.a} to itself (a spring needs two particles)`);
  }
  for (const name of ['restLength', 'stiffness'] as const) {
    if (!passesRule('nonNegative', link[name])) check.refuse(`${at}.${name}`, link[name], FORCE_RULES.nonNegative);
  }
  const kind = check.oneOf(`${at}.kind`, link.kind ?? 'spring', SPRING_KINDS, "must be 'spring' or 'bungee'");
  return { a: link.a, b: link.b, restLength: link.restLength, stiffness: link.stiffness, kind };
}
