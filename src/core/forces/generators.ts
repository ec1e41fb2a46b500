/**
 * Force generators as data (Millington ch. 5, Cyclone's pfgen.h), validated
 * once for every backend and for the scene file.
 *
 * A generator is a plain object with a `type`; a system applies it each step
 * to a target (every particle, a range, or a list of indices) before
 * integrating. No generator ever touches an immovable particle (inverse mass
 * 0): Cyclone's integrate returns before clearing such a particle's
 * accumulator, so a force added to it would pile up for ever and mean nothing.
 *
 * Where Cyclone's code has a known bug the physics is followed instead, and
 * the type's comment says so.
 */
import { SparkworksInputError } from '../errors';
import { RULES, type Vec3Like } from '../particles';
import { isFiniteFloat32, validator, type Validator } from '../validation';

/** Cyclone's ParticleGravity: `f = g * mass`, the same acceleration `g` for every mass. */
export interface GravityForce {
  /** Selects Cyclone's ParticleGravity. */
  type: 'gravity';
  /** The acceleration of gravity, m/s², e.g. [0, -9.81, 0]. */
  g: Vec3Like;
}

/**
 * Cyclone's ParticleDrag: `f = -normalize(v) * (k1 |v| + k2 |v|²)`, evaluated
 * as the equal `-v * (k1 + k2 |v|)`, which is exactly zero at rest instead of
 * 0/0 (Cyclone's normalise skips a zero vector for the same reason).
 */
export interface DragForce {
  /** Selects Cyclone's ParticleDrag. */
  type: 'drag';
  /** Linear drag coefficient, N s/m, >= 0. */
  k1: number;
  /** Quadratic drag coefficient, N s²/m², >= 0. */
  k2: number;
}

/**
 * Hooke's law to a fixed point: `f = -stiffness * (|d| - restLength) * d/|d|`,
 * d = position - anchor. Pulls when stretched and pushes when compressed
 * (Cyclone's ParticleSpring takes abs() of the stretch and so always pulls;
 * its ParticleAnchoredSpring has the right sign, which this follows). No force
 * at |d| = 0, where the direction is undefined.
 */
export interface AnchoredSpringForce {
  /** Selects the Hooke spring to a fixed point. */
  type: 'anchoredSpring';
  /** The fixed end, m. */
  anchor: Vec3Like;
  /** Length at which the spring is relaxed, m, >= 0. */
  restLength: number;
  /** Spring constant k, N/m, >= 0. */
  stiffness: number;
}

/** Cyclone's ParticleAnchoredBungee: the anchored spring, but it only pulls (no force while |d| <= restLength). */
export interface AnchoredBungeeForce {
  /** Selects Cyclone's ParticleAnchoredBungee. */
  type: 'anchoredBungee';
  /** The fixed end, m. */
  anchor: Vec3Like;
  /** Length below which the bungee is slack, m, >= 0. */
  restLength: number;
  /** Spring constant k while stretched, N/m, >= 0. */
  stiffness: number;
}

/**
 * Cyclone's ParticleBuoyancy for a liquid plane y = waterHeight, the particle
 * a body reaching `maxDepth` above and below its centre: upward
 * `liquidDensity * volume * gravity * s`, with s the submerged share,
 * 0 at y >= waterHeight + maxDepth, 1 at y <= waterHeight - maxDepth, linear in
 * between, so the force is continuous at both surfaces. Cyclone's partial
 * case (src/pfgen.cpp since its fix of 6 Aug 2020, commit 43640d7) computes
 * `ρV (y - maxDepth - waterHeight) / (2 * maxDepth)`: the right size but
 * negative, so it pulls a half-submerged body down, is continuous at the
 * upper surface and jumps from -ρV to +ρV at the lower one. (Before that fix it
 * read `/ 2 * maxDepth`, multiplying where it should divide.) Cyclone also
 * leaves out g (its "force" is a mass): `gravity: 1` gives Cyclone's
 * magnitudes. test/cycloneClaims.test.ts checks both against a transcription.
 */
export interface BuoyancyForce {
  /** Selects Cyclone's ParticleBuoyancy (with its sign corrected and g added). */
  type: 'buoyancy';
  /** Half the height of the body, m, > 0. */
  maxDepth: number;
  /** Volume of the body, m³, >= 0. */
  volume: number;
  /** Height of the liquid plane (parallel to XZ). */
  waterHeight: number;
  /** kg/m³, >= 0. Default 1000 (water), as Cyclone. */
  liquidDensity?: number;
  /** Magnitude of gravity, m/s², >= 0. Default 9.81. */
  gravity?: number;
}

/**
 * Cyclone's ParticleFakeSpring: a stiff damped spring to an anchor. The force
 * is chosen so that a step that moves with the new velocity lands where the
 * damped harmonic oscillator `x'' = -stiffness x - damping x'` (x = position -
 * anchor; both per unit mass) would be after `dt`: with the semi-implicit
 * order one step lands on x(dt). With the explicit order (the default, and
 * Cyclone's Particle::integrate) it never gets there: the first step moves
 * with the old velocity and leaves the velocity (x(dt) - x0)/dt, so two steps
 * land at x(dt) + v0 dt, not one step late at x(dt).
 *
 * Bounded with the semi-implicit order, though not at every stiffness
 * (test/cycloneClaims.test.ts, undamped): while γ dt < π, where Hooke's
 * spring is bounded only while ω dt < 2, but growing again for γ dt between π
 * and about 4.06 (and just past each odd multiple of π); and it loses energy
 * the oscillator keeps (x0.77 a step at k = 1e4, dt = 1/60), because the
 * velocity it leaves is a chord. With the explicit order it grows for every
 * γ dt < 4.49 (k = 1e4 at dt = 1/60: x1.30 a step, float32's range passed
 * after about 300 steps); damping holds only soft springs. Cyclone computes
 * `gamma = sqrt(4k - d²) / 2` and returns NaN when 4k < d² (and nothing when
 * 4k = d²); here the overdamped and critical cases use their own closed forms
 * (cosh/sinh, and the linear one), computed on the host in float64 once per
 * dt, so the shader only multiplies.
 */
export interface StiffSpringForce {
  /** Selects Cyclone's ParticleFakeSpring. */
  type: 'stiffSpring';
  /** The fixed end, m. */
  anchor: Vec3Like;
  /** Per unit mass (ω0²), 1/s², >= 0. */
  stiffness: number;
  /** Per unit mass, 1/s, >= 0. */
  damping: number;
}

/**
 * A point attractor (strength > 0) or repeller (< 0) with Plummer softening:
 * `f = strength * d / (|d|² + softening²)^(3/2)`, d = position - particle:
 * `strength/r²` far away, smoothly zero at the centre.
 */
export interface AttractorForce {
  /** Selects the softened point attractor. */
  type: 'attractor';
  /** The attracting point, m. */
  position: Vec3Like;
  /** N m². */
  strength: number;
  /** m, > 0 (and softening² a normal float32). */
  softening: number;
}

/**
 * A vortex around the axis through `position`: `f = strength * (a × r) /
 * (|a × r|² + softening²)`, a the unit axis, r = particle - position: tangential,
 * counter-clockwise about `axis` for strength > 0, `strength/ρ` at distance ρ
 * from the axis, zero on it.
 */
export interface VortexForce {
  /** Selects the vortex about an axis. */
  type: 'vortex';
  /** A point on the axis, m. */
  position: Vec3Like;
  /** Any nonzero vector; normalised on the host. */
  axis: Vec3Like;
  /** N m. */
  strength: number;
  /** m, > 0 (and softening² a normal float32): the core's radius, inside which the force falls to 0. */
  softening: number;
}

/** A uniform force, N, on every targeted particle. */
export interface WindForce {
  /** Selects the uniform force. */
  type: 'wind';
  /** The force, N. */
  force: Vec3Like;
}

/**
 * Divergence-free turbulence: `strength * field(position * frequency +
 * origin)`, field a sum of 8 random Fourier modes (plane waves with
 * amplitudes perpendicular to their wave vectors, so the curl of a vector
 * potential; src/core/forces/turbulence.ts), their frequencies spanning
 * frequency/2 to 2 frequency with Kolmogorov's spectrum, each component's
 * mean square 1. origin = offset * frequency + a shift drawn from `seed`:
 * deterministic given the seed, unrelated across seeds; move `offset` over
 * time to animate it.
 */
export interface TurbulenceForce {
  /** Selects the divergence-free turbulence field. */
  type: 'turbulence';
  /** N. */
  strength: number;
  /** The field's central spatial frequency, cycles per metre, > 0. */
  frequency: number;
  /** An integer in [0, 2^32). */
  seed: number;
  /** Default [0, 0, 0]. */
  offset?: Vec3Like;
}

/** Any force generator: one of the types above, told apart by `type`. */
export type ForceGenerator =
  | GravityForce
  | DragForce
  | AnchoredSpringForce
  | AnchoredBungeeForce
  | BuoyancyForce
  | StiffSpringForce
  | AttractorForce
  | VortexForce
  | WindForce
  | TurbulenceForce;
/** A generator's `type`: `gravity`, `drag`, `anchoredSpring`, ... */
export type ForceType = ForceGenerator['type'];

/** Which particles a generator applies to: all, [start, start + count), or a set of indices. */
export type ForceTarget =
  | 'all'
  | {
      /** First particle of the range. */
      start: number;
      /** Number of particles in the range. */
      count: number;
    }
  | {
      /** The particles, each once (kept as a bitmask over their span). */
      indices: readonly number[];
    };

/** A generator as stored: vectors copied to plain arrays, defaults filled in. */
export type StoredGenerator<T extends ForceGenerator = ForceGenerator> = {
  readonly [K in keyof T]-?: T[K] extends Vec3Like | undefined ? readonly [number, number, number] : T[K];
};

/** The parameters of each type: the rule it must pass and, for optional ones, its default. */
type Rule = 'vector' | 'nonNegative' | 'positive' | 'finite' | 'softening' | 'axis' | 'seed';
interface ParameterSpec {
  readonly rule: Rule;
  readonly default?: number | readonly [number, number, number];
}

export const FORCE_PARAMETERS = {
  gravity: { g: { rule: 'vector' } },
  drag: { k1: { rule: 'nonNegative' }, k2: { rule: 'nonNegative' } },
  anchoredSpring: {
    anchor: { rule: 'vector' },
    restLength: { rule: 'nonNegative' },
    stiffness: { rule: 'nonNegative' },
  },
  anchoredBungee: {
    anchor: { rule: 'vector' },
    restLength: { rule: 'nonNegative' },
    stiffness: { rule: 'nonNegative' },
  },
  buoyancy: {
    maxDepth: { rule: 'positive' },
    volume: { rule: 'nonNegative' },
    waterHeight: { rule: 'finite' },
    liquidDensity: { rule: 'nonNegative', default: 1000 },
    gravity: { rule: 'nonNegative', default: 9.81 },
  },
  stiffSpring: { anchor: { rule: 'vector' }, stiffness: { rule: 'nonNegative' }, damping: { rule: 'nonNegative' } },
  attractor: { position: { rule: 'vector' }, strength: { rule: 'finite' }, softening: { rule: 'softening' } },
  vortex: {
    position: { rule: 'vector' },
    axis: { rule: 'axis' },
    strength: { rule: 'finite' },
    softening: { rule: 'softening' },
  },
  wind: { force: { rule: 'vector' } },
  turbulence: {
    strength: { rule: 'finite' },
    frequency: { rule: 'positive' },
    seed: { rule: 'seed' },
    offset: { rule: 'vector', default: [0, 0, 0] },
  },
} as const satisfies Record<ForceType, Record<string, ParameterSpec>>;

/** Every generator type a system accepts. */
export const FORCE_TYPES = Object.keys(FORCE_PARAMETERS) as ForceType[];

/** Smallest softening whose square is a normal float32, and largest whose square is finite. */
const MIN_SOFTENING = 2 ** -63;
const MAX_SOFTENING = 2 ** 63;

/** The rules, worded once for the API and the scene file. */
export const FORCE_RULES = {
  vector: RULES.vector,
  nonNegative: 'must be finite and >= 0',
  positive: 'must be finite and > 0',
  finite: 'must be finite (|x| < 3.4e38)',
  softening: `must be in [${MIN_SOFTENING.toPrecision(3)}, ${MAX_SOFTENING.toPrecision(3)}] (softening² a normal, finite float32)`,
  axis: 'must be a nonzero vector of 3 finite numbers',
  seed: 'must be an integer in [0, 4294967295]',
  index: (capacity: number) => `must be an integer in [0, ${capacity - 1}] (the capacity is ${capacity})`,
} as const;

/** Checks one scalar against its rule; the scene file uses the same predicates. */
export function passesRule(rule: Exclude<Rule, 'vector' | 'axis'>, x: unknown): boolean {
  if (typeof x !== 'number' || !isFiniteFloat32(x)) return false;
  switch (rule) {
    case 'nonNegative':
      return x >= 0;
    case 'positive':
      return Math.fround(x) > 0;
    case 'finite':
      return true;
    case 'softening':
      return x >= MIN_SOFTENING && x <= MAX_SOFTENING;
    case 'seed':
      return Number.isInteger(x) && x >= 0 && x <= 0xffffffff;
  }
}

/** The forces' refusals: SparkworksInputError, in the shared wording (src/core/validation.ts). */
const check: Validator = validator();

export function refuse(what: string, value: unknown, rule: string): never {
  return check.refuse(what, value, rule);
}

function storedVector(what: string, value: unknown, rule: 'vector' | 'axis'): [number, number, number] {
  const out = check.vector(what, value, FORCE_RULES[rule], { componentRule: FORCE_RULES.vector });
  if (rule === 'axis' && out.every((x) => Math.fround(x) === 0)) check.refuse(what, out, FORCE_RULES.axis);
  return out as [number, number, number];
}

/**
 * Validates a generator and returns its stored form (a fresh, frozen object).
 * Throws SparkworksInputError naming the field (`what.field`) and the rule;
 * unknown types and unknown fields are refused too, so a typo is not ignored.
 */
export function checkGenerator(generator: ForceGenerator, what = 'generator'): StoredGenerator {
  const input = check.object(what, generator);
  const type = check.oneOf(`${what}.type`, input.type, FORCE_TYPES);
  const specs: Record<string, ParameterSpec> = FORCE_PARAMETERS[type];
  check.keys(what, input, Object.keys(specs), { kind: type, ignore: ['type'] });
  const stored: Record<string, unknown> = { type };
  for (const [name, spec] of Object.entries(specs)) {
    let value = input[name];
    if (value === undefined && spec.default !== undefined) value = spec.default;
    const at = `${what}.${name}`;
    if (spec.rule === 'vector' || spec.rule === 'axis') {
      stored[name] = Object.freeze(storedVector(at, value, spec.rule));
    } else {
      if (!passesRule(spec.rule, value)) check.refuse(at, value, FORCE_RULES[spec.rule]);
      stored[name] = value;
    }
  }
  checkDerived(stored as StoredGenerator, what);
  return Object.freeze(stored) as StoredGenerator;
}

/**
 * The most an attractor's strength / softening³ (a vortex's strength /
 * softening²) may be: the factor the force applies at the centre (on the
 * axis), float32's largest over 16, leaving room for the GPU's inverseSqrt
 * and division errors. Past it a particle at the centre gets 0 x infinity =
 * NaN (issue 17, item 5): the softening floor for the strength.
 */
const MAX_CENTRE_FACTOR = 3.4028234663852886e38 / 16;

/** Values the host derives from several parameters must fit a float32 too. */
function checkDerived(g: StoredGenerator, what: string): void {
  if (g.type === 'attractor' || g.type === 'vortex') {
    const power = g.type === 'attractor' ? 3 : 2;
    const factor = Math.abs(g.strength) / g.softening ** power;
    if (!(factor <= MAX_CENTRE_FACTOR)) {
      const floor = (Math.abs(g.strength) / MAX_CENTRE_FACTOR) ** (1 / power);
      check.refuse(
        `${what}.softening`,
        g.softening,
        `must be >= ${floor.toPrecision(3)} for strength ${g.strength}: |strength| / softening${power === 3 ? '³' : '²'}, ` +
          `the force's factor at the ${g.type === 'attractor' ? 'centre' : 'axis'}, must stay finite as a float32`,
      );
    }
  }
  if (g.type === 'buoyancy') {
    const full = g.liquidDensity * g.volume * g.gravity;
    if (!isFiniteFloat32(full)) {
      check.refuse(
        `${what}.volume`,
        g.volume,
        `liquidDensity * volume * gravity = ${full} must be finite as a float32`,
      );
    }
    if (!isFiniteFloat32(g.waterHeight + g.maxDepth) || Math.fround(1 / (2 * g.maxDepth)) === 0) {
      check.refuse(
        `${what}.maxDepth`,
        g.maxDepth,
        'waterHeight + maxDepth and 1/(2 maxDepth) must be finite, nonzero float32s',
      );
    }
  }
}

/**
 * Validates a target against the capacity; returns its stored form: a range
 * [first, end), and for an index list the sorted indices.
 */
export function checkTarget(
  target: ForceTarget | undefined,
  capacity: number,
  what = 'target',
  /** How errors name the list and the range's fields (the scene file calls them otherwise). */
  names: { indices: string; start: string; count: string } = { indices: 'indices', start: 'start', count: 'count' },
): { first: number; end: number; indices: readonly number[] | null } {
  if (target === undefined || target === 'all') return { first: 0, end: capacity, indices: null };
  if (target === null || typeof target !== 'object')
    check.refuse(what, target, "must be 'all', {start, count} or {indices}");
  if ('indices' in target) {
    const list = target.indices;
    if (!Array.isArray(list) || list.length === 0) {
      check.refuse(`${what}.${names.indices}`, list, 'must be a nonempty array of particle indices');
    }
    const sorted: number[] = [];
    list.forEach((index, k) => {
      sorted.push(check.integer(`${what}.${names.indices}[${k}]`, index, 0, capacity - 1, FORCE_RULES.index(capacity)));
    });
    sorted.sort((a, b) => a - b);
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k] === sorted[k - 1]) {
        check.refuse(`${what}.${names.indices}`, sorted[k], 'lists the same particle twice (a target is a set)');
      }
    }
    return { first: sorted[0] as number, end: (sorted[sorted.length - 1] as number) + 1, indices: sorted };
  }
  const { start, count } = target as { start: number; count: number };
  check.integer(`${what}.${names.start}`, start, 0, capacity - 1, FORCE_RULES.index(capacity));
  const countRule = `must be an integer >= 1 with start + count <= ${capacity} (the capacity)`;
  check.integer(`${what}.${names.count}`, count, 1, capacity - start, countRule);
  return { first: start, end: start + count, indices: null };
}

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
