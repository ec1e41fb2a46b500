/**
 * Force generators as data (Millington ch. 5, Cyclone's pfgen.h): a plain
 * object with a `type`, which a system applies each step to a target (every
 * particle, a range, or a list of indices) before integrating, and the form
 * a system stores it in.
 *
 * No generator ever touches an immovable particle (inverse mass 0): Cyclone's
 * integrate returns before clearing such a particle's accumulator, so a force
 * added to it would pile up for ever and mean nothing. Where Cyclone's code
 * has a known bug the physics is followed instead, and the type's comment
 * says so.
 */
import type { Vec3Like } from '../particles';

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

/** A generator as stored: vectors copied to plain arrays, defaults filled in. */
export type StoredGenerator<T extends ForceGenerator = ForceGenerator> = {
  readonly [K in keyof T]-?: T[K] extends Vec3Like | undefined ? readonly [number, number, number] : T[K];
};
