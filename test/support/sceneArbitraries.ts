/**
 * fast-check arbitraries for scene files (src/scene/scene.ts), built from the
 * format's rules: particles, forces (generators with targets, pair springs),
 * colliders, links, contact settings, emitters and firework rules, and the
 * top-level keys. Every scene drawn here is valid (test/properties.scene.test.ts
 * checks parseScene accepts it), and "tame": the explicit integrator is stable
 * on it at the time steps the tests use, so a non-finite number in its output
 * is a bug, not an exploding integration.
 *
 * Tame, argued once (w: inverse mass <= 2; dt <= 1/30):
 * - Hooke forces (anchored springs, bungees, buoyancy's band): k w dt² <= 0.25,
 *   far inside explicit Euler's oscillation limit; pair springs load both ends.
 * - Drag: k1 w dt <= 1/3 and k2 |v| w dt < 1 for the speeds the scenes reach.
 * - Attractor and vortex: the field's steepest slope, strength / softening³ (or
 *   / softening²), times w dt², is small; softening is at least half a length unit.
 * - Cyclone's stiff spring (stiffness per unit mass, ω0²): like Hooke's,
 *   k dt² <= 0.25; its documentation (src/core/forces/generators.ts) says it
 *   grows with the explicit order at any stiffness, and is bounded with the
 *   semi-implicit one only while γ dt < π.
 * - Firework rules inherit at most their parent's speed (|inherit| <= 1): a
 *   rule whose payload names itself would otherwise grow it geometrically.
 *
 * Every length is drawn in units of a scale L (1e-3 to 1e15; with `huge`,
 * also 1e18, where squared lengths pass float32's range), with each parameter
 * scaled by its dimension, so the dimensionless numbers above do not change with L.
 *
 * Degenerate geometry is where 0/0 hides, so positions are often drawn from a
 * small pool of points the scene's forces and colliders are centred on too:
 * particles at an attractor's centre, on a vortex's axis, at a sphere's
 * centre, on top of each other (zero-length springs, rods and contacts).
 */
import fc from 'fast-check';
import { isValidDamping } from '../../src/core/particles';

/** A scene file's value as JSON holds it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

export interface SceneLimits {
  /** Most particles of the scene's own. */
  maxParticles: number;
  /** Most slots with emitters or fireworks (extra slots past the particles). */
  maxExtraSlots: number;
  /** Include emitters and firework rules. */
  lifecycle: boolean;
  /** Include colliders, links and contact settings. */
  collisions: boolean;
  /** Largest contact iterations drawn (the CPU reference's cost goes with it). */
  maxIterations: number;
  /** Also draw scenes at the scale 1e18, where squared distances overflow float32. */
  huge?: boolean;
}

export const DEFAULT_LIMITS: SceneLimits = {
  maxParticles: 8,
  maxExtraSlots: 24,
  lifecycle: true,
  collisions: true,
  maxIterations: 8,
};

/** The length scales a scene is drawn in, with their weights. */
const SCALES: { arbitrary: fc.Arbitrary<number>; weight: number }[] = [
  { arbitrary: fc.constant(1), weight: 8 },
  { arbitrary: fc.constant(1e-3), weight: 2 },
  { arbitrary: fc.constant(1e3), weight: 2 },
  { arbitrary: fc.constant(1e6), weight: 1 },
  { arbitrary: fc.constant(1e15), weight: 1 },
];
/**
 * A scale where distances reach 1e19 and their squares pass float32's
 * largest (3.4e38): only an overflow-safe length stays finite there.
 */
const HUGE_SCALE = { arbitrary: fc.constant(1e18), weight: 1 };

/** Softening, as the force rules bound it (src/core/forces/generators.ts). */
const MAX_SOFTENING = 2 ** 63;

/**
 * A number in [min, max]: any double there, the ends, 0 when inside, and
 * small integers, so both generic and exact values come up.
 */
export function num(min: number, max: number): fc.Arbitrary<number> {
  const specials = [min, max, ...(min < 0 && max > 0 ? [0] : [])];
  // Small integers (fc.integer takes 32-bit bounds).
  const low = Math.max(Math.ceil(min), -(2 ** 31));
  const high = Math.min(Math.floor(max), 2 ** 31 - 1);
  const ints = low <= high ? [fc.integer({ min: low, max: high })] : [];
  return fc.oneof(
    { arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), weight: 6 },
    { arbitrary: fc.constantFrom(...specials), weight: 1 },
    ...ints.map((arbitrary) => ({ arbitrary, weight: 2 })),
  );
}

/** A double strictly inside (0, max]: never 0, where the rule says > 0. */
const positive = (min: number, max: number) => num(min, max);

/** A damping: in [0, 1], 0 or a normal float32 (src/core/input/rules.ts isValidDamping). */
const damping = num(0, 1).filter(isValidDamping);

const vec = (scale: number) => fc.tuple(num(-scale, scale), num(-scale, scale), num(-scale, scale));

/** A nonzero vector (components in [-1, 1], at least one of them far from 0). */
const direction = fc.tuple(num(-1, 1), num(-1, 1), num(-1, 1)).filter((v) => Math.hypot(...v) > 0.1) as fc.Arbitrary<
  number[]
>;

/** Drop the undefined fields (JSON leaves them out). */
function defined(object: Record<string, Json | undefined>): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) out[key] = value;
  return out;
}

/** An optional field: present about half the time. */
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });

/** A value or a [min, max] range of them (min <= max). */
function range(min: number, max: number): fc.Arbitrary<Json> {
  return fc.oneof(
    num(min, max),
    fc.tuple(num(min, max), num(min, max)).map(([a, b]) => [Math.min(a, b), Math.max(a, b)]),
  );
}

interface Context {
  /** The length scale. */
  L: number;
  /** Shared points: particles, force centres and colliders meet on them. */
  pool: number[][];
  /** The scene's own particle count. */
  n: number;
}

/** A point: anywhere within `extent` L, or one of the pool's. */
function point(ctx: Context, extent: number): fc.Arbitrary<number[]> {
  return fc.oneof(
    { arbitrary: vec(extent * ctx.L), weight: 3 },
    { arbitrary: fc.constantFrom(...ctx.pool), weight: 2 },
  );
}

function particle(ctx: Context): fc.Arbitrary<Obj> {
  const { L } = ctx;
  return fc
    .record({
      position: point(ctx, 10),
      velocity: maybe(vec(5 * L)),
      acceleration: maybe(vec(10 * L)),
      mass: fc.oneof(
        fc.constant(undefined),
        num(0.5, 10).map((mass) => ({ mass })),
        fc.constantFrom(0, 0.1, 1, 2).map((inverseMass) => ({ inverseMass })),
      ),
      damping: maybe(damping),
      radius: maybe(num(0, 0.5 * L)),
    })
    .map(({ mass, ...rest }) => defined({ ...rest, ...(mass ?? {}) }));
}

/** A force generator's parameters, as the scene file writes them (no target). */
function generator(ctx: Context): fc.Arbitrary<Obj> {
  const { L } = ctx;
  const softening = (s: number) => Math.min(s * L, MAX_SOFTENING);
  const options: fc.Arbitrary<Obj>[] = [
    fc.record({ type: fc.constant('gravity'), g: vec(10 * L) }),
    fc.record({ type: fc.constant('drag'), k1: num(0, 5), k2: num(0, 0.1 / L) }),
    ...(['anchoredSpring', 'anchoredBungee'] as const).map((type) =>
      fc.record({ type: fc.constant(type), anchor: point(ctx, 5), restLength: num(0, 5 * L), stiffness: num(0, 100) }),
    ),
    fc
      .record({
        type: fc.constant('buoyancy'),
        maxDepth: positive(0.1 * L, 2 * L),
        volume: num(0, 1e-3 * L),
        waterHeight: num(-5 * L, 5 * L),
        liquidDensity: maybe(num(0, 1000)),
        gravity: maybe(num(0, 10)),
      })
      .map(defined),
    fc.record({ type: fc.constant('stiffSpring'), anchor: point(ctx, 5), stiffness: num(0, 200), damping: num(0, 10) }),
    fc.record({ type: fc.constant('wind'), force: vec(5 * L) }),
    fc
      .record({
        type: fc.constant('turbulence'),
        strength: num(-5 * L, 5 * L),
        frequency: positive(0.1 / L, 2 / L),
        seed: fc.nat({ max: 2 ** 32 - 1 }),
        offset: maybe(vec(L)),
      })
      .map(defined),
  ];
  // Strengths scale as L³ (attractor) and L² (vortex): only where float32 holds them.
  if (L ** 3 < 1e30) {
    options.push(
      fc.record({
        type: fc.constant('attractor'),
        position: point(ctx, 5),
        strength: num(-10 * L ** 3, 10 * L ** 3),
        softening: num(softening(0.5), softening(2)),
      }),
      fc.record({
        type: fc.constant('vortex'),
        position: point(ctx, 5),
        axis: direction,
        strength: num(-10 * L ** 2, 10 * L ** 2),
        softening: num(softening(0.5), softening(2)),
      }),
    );
  }
  return fc.oneof(...options);
}

/** An index list without repeats, within [0, n). */
const indices = (n: number) => fc.uniqueArray(fc.nat({ max: n - 1 }), { minLength: 1, maxLength: n });

function force(ctx: Context): fc.Arbitrary<Obj> {
  const { n, L } = ctx;
  if (n === 0) return generator(ctx);
  const target: fc.Arbitrary<Obj> = fc.oneof(
    fc.constant({}),
    fc.nat({ max: n - 1 }).map((particle) => ({ particle })),
    indices(n).map((particles) => ({ particles })),
    fc
      .nat({ max: n - 1 })
      .chain((start) => fc.integer({ min: 1, max: n - start }).map((count) => ({ range: { start, count } }))),
  );
  const generators = fc.tuple(generator(ctx), target).map(([g, t]) => ({ ...g, ...t }));
  if (n < 2) return generators;
  const pair = fc
    .tuple(fc.nat({ max: n - 1 }), fc.integer({ min: 1, max: n - 1 }))
    .map(([a, shift]) => [a, (a + shift) % n] as const);
  const spring = fc
    .record({
      type: fc.constantFrom('spring', 'bungee'),
      ends: pair,
      restLength: num(0, 5 * L),
      stiffness: num(0, 50),
    })
    .map(({ ends: [a, b], ...rest }) => ({ ...rest, a, b }));
  return fc.oneof(generators, spring);
}

function collider(ctx: Context): fc.Arbitrary<Obj> {
  const { L } = ctx;
  const common = fc
    .record({
      restitution: maybe(num(0, 1)),
      friction: maybe(num(0, 2)),
      // A kill collider now and then: its particles are parked where they touch.
      kill: maybe(fc.constantFrom(false, false, false, true)),
    })
    .map(defined);
  const extents = fc.tuple(positive(0.1 * L, 3 * L), positive(0.1 * L, 3 * L), positive(0.1 * L, 3 * L));
  const shapes: fc.Arbitrary<Obj>[] = [
    fc.record({ type: fc.constant('plane'), normal: direction, offset: maybe(num(-5 * L, 5 * L)) }).map(defined),
    fc
      .record({
        type: fc.constant('sphere'),
        center: point(ctx, 5),
        radius: positive(0.1 * L, 3 * L),
        inside: maybe(fc.boolean()),
      })
      .map(defined),
    fc
      .record({ type: fc.constant('box'), center: point(ctx, 5), halfExtents: extents, inside: maybe(fc.boolean()) })
      .map(defined),
    fc
      .record({
        type: fc.constant('orientedBox'),
        center: point(ctx, 5),
        halfExtents: extents,
        rotation: fc.tuple(num(-1, 1), num(-1, 1), num(-1, 1), num(-1, 1)).filter((q) => Math.hypot(...q) > 0.1),
        inside: maybe(fc.boolean()),
      })
      .map(defined),
  ];
  return fc.tuple(fc.oneof(...shapes), common).map(([shape, c]) => ({ ...shape, ...c }));
}

function link(ctx: Context): fc.Arbitrary<Obj> {
  const { n, L } = ctx;
  const ends = fc.nat({ max: n - 1 }).chain((a) =>
    n > 1
      ? fc.oneof(
          fc.integer({ min: 1, max: n - 1 }).map((shift) => ({ a, b: (a + shift) % n }) as Obj),
          point(ctx, 5).map((anchor) => ({ a, anchor }) as Obj),
        )
      : point(ctx, 5).map((anchor) => ({ a, anchor }) as Obj),
  );
  const cable = fc
    .record({ ends, maxLength: positive(0.1 * L, 5 * L), restitution: maybe(num(0, 1)) })
    .map(({ ends: e, ...rest }) => defined({ type: 'cable', ...e, ...rest }));
  const rod = fc
    .record({ ends, length: positive(0.1 * L, 5 * L) })
    .map(({ ends: e, ...rest }) => defined({ type: 'rod', ...e, ...rest }));
  return fc.oneof(cable, rod);
}

function contactSettings(limits: SceneLimits): fc.Arbitrary<Obj> {
  return fc
    .record({
      particleCollisions: maybe(fc.boolean()),
      restitution: maybe(num(0, 1)),
      iterations: maybe(fc.integer({ min: 1, max: limits.maxIterations })),
      skin: maybe(num(0, 1e-3)),
    })
    .map(defined);
}

/** What an emitter or a firework rule says about the particles it makes (the keys FROM_RULE names). */
function spawn(ctx: Context): fc.Arbitrary<Obj> {
  const { L } = ctx;
  const velocity: fc.Arbitrary<Json> = fc.oneof(
    fc
      .record({ direction: maybe(direction), spread: maybe(num(0, Math.PI)), speed: maybe(range(0, 10 * L)) })
      .map(defined),
    fc
      .tuple(vec(5 * L), vec(5 * L))
      .map(([a, b]) => ({ min: a.map((x, c) => Math.min(x, b[c]!)), max: a.map((x, c) => Math.max(x, b[c]!)) })),
  );
  return fc
    .record({
      velocity: maybe(velocity),
      mass: maybe(range(0.5, 10)),
      damping: maybe(
        fc.oneof(
          damping,
          fc.tuple(damping, damping).map(([a, b]) => [Math.min(a, b), Math.max(a, b)]),
        ),
      ),
      acceleration: maybe(vec(10 * L)),
      radius: maybe(num(0, 0.5 * L)),
      color: maybe(fc.array(num(0, 1), { minLength: 3, maxLength: 4 })),
      size: maybe(range(0, 2)),
      floor: maybe(fc.oneof(fc.constant(null), num(-10 * L, 10 * L))),
    })
    .map(defined);
}

function shape(ctx: Context): fc.Arbitrary<Obj> {
  const { L } = ctx;
  return fc.oneof(
    fc.record({ type: fc.constant('point'), center: maybe(point(ctx, 5)) }).map(defined),
    fc
      .record({
        type: fc.constant('sphere'),
        center: maybe(point(ctx, 5)),
        radius: num(0, 2 * L),
        surface: maybe(fc.boolean()),
      })
      .map(defined),
    fc
      .record({
        type: fc.constant('box'),
        center: maybe(point(ctx, 5)),
        halfExtents: fc.tuple(num(0, L), num(0, L), num(0, L)),
      })
      .map(defined),
    fc
      .record({
        type: fc.constant('disc'),
        center: maybe(point(ctx, 5)),
        normal: maybe(direction),
        radius: num(0, 2 * L),
      })
      .map(defined),
    fc
      .record({
        type: fc.constant('cone'),
        center: maybe(point(ctx, 5)),
        axis: maybe(direction),
        angle: num(0, 1.5),
        height: num(0, 2 * L),
      })
      .map(defined),
  );
}

/** Firework rules: distinct types, payloads naming existing types (at most 4 entries, small counts). */
function fireworks(ctx: Context): fc.Arbitrary<Obj[]> {
  return fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }).chain((types) =>
    fc.tuple(
      ...types.map((type) =>
        fc
          .record({
            spawn: spawn(ctx),
            fuse: range(0, 1),
            payload: maybe(
              fc.array(fc.record({ type: fc.constantFrom(...types), count: fc.integer({ min: 0, max: 3 }) }), {
                maxLength: 4,
              }),
            ),
            // Children inherit their parent's velocity times this, generation after generation:
            // beyond 1 (or -1) a rule whose payload names itself grows its speed geometrically.
            inherit: maybe(num(-1, 1)),
            seed: maybe(fc.nat({ max: 2 ** 32 - 1 })),
          })
          .map(({ spawn: s, ...rest }) => defined({ type, ...s, ...rest })),
      ),
    ),
  );
}

function emitter(ctx: Context, fireworkTypes: number[]): fc.Arbitrary<Obj> {
  const { L } = ctx;
  const own = fc
    .record({
      rate: maybe(num(0, 200)),
      burst: maybe(fc.integer({ min: 0, max: 20 })),
      shape: maybe(shape(ctx)),
      lifetime: maybe(range(0, 2)),
      inherit: maybe(num(-1, 2)),
      seed: maybe(fc.nat({ max: 2 ** 32 - 1 })),
      emitterVelocity: maybe(vec(5 * L)),
    })
    .map(defined);
  const plain = fc.tuple(own, spawn(ctx)).map(([o, s]) => ({ ...o, ...s }));
  if (fireworkTypes.length === 0) return plain;
  const launcher = fc.tuple(own, fc.constantFrom(...fireworkTypes)).map(([o, firework]) => {
    const { lifetime: _lifetime, ...rest } = o;
    return { ...rest, firework };
  });
  return fc.oneof(plain, launcher);
}

/** A valid, tame scene file's object (see the top of this file). */
export function validScene(limits: SceneLimits = DEFAULT_LIMITS): fc.Arbitrary<Obj> {
  return fc
    .record({
      L: fc.oneof(...SCALES, ...(limits.huge ? [HUGE_SCALE] : [])),
      lifecycle: limits.lifecycle ? fc.boolean() : fc.constant(false),
      pool: fc.array(vec(5), { minLength: 1, maxLength: 3 }),
    })
    .chain(({ L, lifecycle, pool }) =>
      fc
        .integer({ min: lifecycle ? 0 : 1, max: limits.maxParticles })
        .chain((n) => sceneWith({ L, n, pool: pool.map((p) => p.map((x) => x * L)) }, lifecycle, limits)),
    );
}

function sceneWith(ctx: Context, lifecycle: boolean, limits: SceneLimits): fc.Arbitrary<Obj> {
  const { n, L } = ctx;
  const collisions = limits.collisions;
  const lifecycleParts = lifecycle
    ? fc
        .oneof(fc.constant([] as Obj[]), fireworks(ctx))
        .chain((rules) =>
          fc.record({
            fireworks: rules.length > 0 ? fc.constant(rules) : fc.constant(undefined),
            emitters: fc.array(
              emitter(
                ctx,
                rules.map((r) => r.type as number),
              ),
              { minLength: rules.length > 0 ? 0 : 1, maxLength: 3 },
            ),
            extra: fc.integer({ min: 0, max: limits.maxExtraSlots }),
            particlesKey: n === 0 ? fc.boolean() : fc.constant(true),
          }),
        )
        .map(({ fireworks: f, emitters, extra, particlesKey }) => ({
          ...(f === undefined ? {} : { fireworks: f }),
          emitters,
          capacity: Math.max(1, n + extra),
          particlesKey,
        }))
    : fc.record({
        capacity: maybe(fc.integer({ min: n, max: n + 4 })),
        particlesKey: fc.constant(true),
      });
  return fc
    .record({
      $schema: maybe(fc.constantFrom('./scene.schema.json', 'https://example.com/scene.json')),
      description: maybe(fc.string({ maxLength: 20 })),
      particles: fc.array(particle(ctx), { minLength: n, maxLength: n }),
      radius: maybe(num(0, 0.5 * L)),
      forces: maybe(fc.array(force(ctx), { maxLength: 5 })),
      colliders: collisions ? maybe(fc.array(collider(ctx), { maxLength: 3 })) : fc.constant(undefined),
      links: collisions && n > 0 ? maybe(fc.array(link(ctx), { maxLength: 4 })) : fc.constant(undefined),
      collisions: collisions ? maybe(contactSettings(limits)) : fc.constant(undefined),
      lifecycle: lifecycleParts,
    })
    .map(({ lifecycle: { particlesKey, ...parts }, particles, ...rest }) =>
      defined({ ...rest, ...(particlesKey ? { particles } : {}), ...parts } as Record<string, Json | undefined>),
    );
}
