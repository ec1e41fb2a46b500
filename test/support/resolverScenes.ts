/**
 * Scenes for comparing the GPU's Jacobi contact resolution with Cyclone's
 * sequential resolver (src/core/collisions/sequential.ts). Both run in float64
 * on the CPU (the Jacobi one through its float32-faithful twin with rounding
 * off), so what differs is the algorithm alone: from the same state after a
 * step, how far apart the two leave the velocities and positions.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prepareColliders, type ColliderInit } from '../../src/core/collisions/colliders';
import { prepareLinks, type LinkInit } from '../../src/core/collisions/links';
import { generateContacts, resolveAsCyclone } from '../../src/core/collisions/sequential';
import { CpuCollisionWorld, RadiusBound, largestRadius, resolveContactSettings } from '../../src/core/collisions/world';
import { integrate } from '../../src/core/integrate';
import { FLOATS_PER_PARTICLE, attributeOffset } from '../../src/core/layout';
import { packParticles, type ParticleInit } from '../../src/core/particles';
import type { Variant } from '../../src/core/variants';
import { parseScene, sceneToCollisions, sceneToParticles } from '../../src/scene/scene';
import { seededRandom } from './random';

export interface ResolverScene {
  name: string;
  particles: ParticleInit[];
  colliders: ColliderInit[];
  links: LinkInit[];
  pairs: boolean;
  restitution: number;
  dt: number;
  /** Steps of Cyclone's world run first, to reach a loaded, resting or colliding state. */
  warmup: number;
}

const VARIANT: Variant = { integrator: 'explicit', damping: 'per-second' };
const identity = (x: number) => x;

function bridge(): ResolverScene {
  const file = fileURLToPath(new URL('../../public/scenes/bridge.json', import.meta.url));
  const scene = parseScene(readFileSync(file, 'utf8'), file);
  const collisions = sceneToCollisions(scene);
  return {
    name: "Cyclone's bridge, loaded",
    particles: sceneToParticles(scene),
    colliders: collisions?.colliders ?? [],
    links: collisions?.links ?? [],
    pairs: false,
    restitution: 0,
    dt: 0.01,
    warmup: 300,
  };
}

function pile(): ResolverScene {
  const random = seededRandom(21);
  return {
    name: 'a pile of 30 balls on the ground',
    particles: Array.from({ length: 30 }, () => ({
      position: [(random() - 0.5) * 1.2, 0.3 + random() * 2, (random() - 0.5) * 1.2],
      acceleration: [0, -9.81, 0],
      mass: 0.5 + random(),
      radius: 0.2,
    })),
    colliders: [{ type: 'plane', normal: [0, 1, 0], restitution: 0.2 }],
    links: [],
    pairs: true,
    restitution: 0.2,
    dt: 1 / 60,
    // Landing: some balls resting, some hitting others.
    warmup: 45,
  };
}

export const RESOLVER_SCENES: ResolverScene[] = [
  {
    name: "Newton's cradle of 5",
    particles: [0, 1, 2, 3, 4].map((x) => ({ position: [x, 0, 0], velocity: [x === 0 ? 1 : 0, 0, 0], radius: 0.5 })),
    colliders: [],
    links: [],
    pairs: true,
    restitution: 1,
    dt: 1 / 64,
    warmup: 0,
  },
  {
    name: 'a column of 6 balls on the ground',
    particles: [0, 1, 2, 3, 4, 5].map((k) => ({
      position: [0, 0.25 + 0.5 * k, 0],
      acceleration: [0, -9.81, 0],
      radius: 0.25,
    })),
    colliders: [{ type: 'plane', normal: [0, 1, 0], restitution: 0 }],
    links: [],
    pairs: true,
    restitution: 0,
    dt: 1 / 60,
    warmup: 60,
  },
  bridge(),
  {
    ...bridge(),
    name: "Cyclone's bridge, loaded, restitution 0",
    links: bridge().links.map((l) => (l.type === 'cable' ? { ...l, restitution: 0 } : l)),
  },
  pile(),
];

const SKIN = 1e-4;

/**
 * The skins of a comparison: the contacts Cyclone's resolver is given (and its
 * world's warm-up generates), the Jacobi resolver's option, and the contacts
 * that judge what each leaves unresolved. All 1e-4 (the library's default) by
 * default.
 */
export interface ComparisonSkins {
  cyclone: number;
  jacobi: number;
  residual: number;
}
const DEFAULT_SKINS: ComparisonSkins = { cyclone: SKIN, jacobi: SKIN, residual: SKIN };

/**
 * Cyclone's own contact generation, as a skin for generateContacts (whose test
 * is `penetration > -skin`): a cable is a contact once `length >= maxLength`
 * (plinks.cpp), which includes a cable exactly at its length, so the smallest
 * positive double rather than 0. Skin 1e-4 adds nearly taut cables Cyclone
 * never generates. What still differs from Cyclone's C++ (docs/collisions.md
 * gives the measurement): a rod exactly at its length is no contact there and
 * one of depth 0 here; Cyclone's ground (`y < 0`) excludes a point exactly on
 * it, which this includes; rounding in another order decides such equalities;
 * and Cyclone reuses a contact's stale particleMovement when it resolves it
 * without penetration.
 */
export const CYCLONE_SKIN = Number.MIN_VALUE;
/**
 * Cyclone's resolver run this long has converged in these scenes (20,000 moves
 * nothing by more than 1e-9). It never stops on its own: a resolved
 * penetration is left at a rounding residue above 0, which it resolves again.
 */
export const CONVERGED = 10_000;

/** One step of Cyclone's world for `scene`, in float64, resolving with up to `iterations`. */
function cycloneStep(
  scene: ResolverScene,
  state: Float64Array,
  count: number,
  iterations?: number,
  skin = SKIN,
): { contacts: number; iterations: number } {
  integrate(state, count, scene.dt, VARIANT, identity);
  return resolveAsCyclone(
    state,
    count,
    {
      links: prepareLinks(scene.links, count),
      pairs: scene.pairs,
      pairRestitution: scene.restitution,
      colliders: prepareColliders(scene.colliders),
      skin,
    },
    scene.dt,
    iterations,
  );
}

function largestDifference(a: Float64Array, b: Float64Array, count: number, field: 'velocity' | 'position'): number {
  let largest = 0;
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 3; c++) {
      const at = i * FLOATS_PER_PARTICLE + attributeOffset(field) + c;
      largest = Math.max(largest, Math.abs((a[at] as number) - (b[at] as number)));
    }
  }
  return largest;
}

/** The largest closing speed and the deepest penetration among the contacts of a state. */
function residual(
  scene: ResolverScene,
  state: Float64Array,
  count: number,
  skin: number,
): { closing: number; penetration: number } {
  const contacts = generateContacts(state, count, {
    links: prepareLinks(scene.links, count),
    pairs: scene.pairs,
    colliders: prepareColliders(scene.colliders),
    skin,
  });
  let closing = 0;
  let penetration = 0;
  for (const contact of contacts) {
    let separating = 0;
    for (let c = 0; c < 3; c++) {
      const at = (i: number) =>
        i >= 0 ? (state[i * FLOATS_PER_PARTICLE + attributeOffset('velocity') + c] as number) : 0;
      separating += (at(contact.a) - at(contact.b)) * (contact.normal[c] as number);
    }
    closing = Math.max(closing, -separating);
    penetration = Math.max(penetration, contact.penetration);
  }
  return { closing, penetration };
}

export interface ResolverComparison {
  contacts: number;
  /** Iterations Cyclone's resolver took to converge (stop on its own). */
  cycloneIterations: number;
  /** Largest velocity and position differences of K Jacobi iterations from converged Cyclone. */
  velocity: number;
  position: number;
  /** The same for Cyclone's default iteration count (twice the contacts). */
  cycloneDefaultVelocity: number;
  cycloneDefaultPosition: number;
  /** What each leaves unresolved: the largest closing speed and the deepest penetration. */
  jacobiResidual: { closing: number; penetration: number };
  cycloneResidual: { closing: number; penetration: number };
  cycloneDefaultResidual: { closing: number; penetration: number };
}

/**
 * After one step from the same state (reached by `warmup` steps of Cyclone's
 * world), the largest differences between K Jacobi iterations and Cyclone's
 * resolver run to convergence, for each K of `iterations`.
 */
export function compareResolvers(
  scene: ResolverScene,
  iterations: readonly number[],
  skins: ComparisonSkins = DEFAULT_SKINS,
): ResolverComparison[] {
  const count = scene.particles.length;
  const start = Float64Array.from(packParticles(scene.particles));
  for (let s = 0; s < scene.warmup; s++) cycloneStep(scene, start, count, undefined, skins.cyclone);
  const cyclone = start.slice();
  const converged = cycloneStep(scene, cyclone, count, CONVERGED, skins.cyclone);
  const cycloneDefault = start.slice();
  cycloneStep(scene, cycloneDefault, count, undefined, skins.cyclone);
  return iterations.map((k) => compareJacobi(scene, start, cyclone, cycloneDefault, converged, k, skins));
}

function compareJacobi(
  scene: ResolverScene,
  start: Float64Array,
  cyclone: Float64Array,
  cycloneDefault: Float64Array,
  converged: { contacts: number; iterations: number },
  iterations: number,
  skins: ComparisonSkins,
): ResolverComparison {
  const count = scene.particles.length;
  const jacobi = start.slice();
  const settings = resolveContactSettings({
    particleCollisions: scene.pairs,
    restitution: scene.restitution,
    iterations,
    skin: skins.jacobi,
  });
  const radius = new RadiusBound();
  radius.note(largestRadius(jacobi));
  const world = new CpuCollisionWorld(count, settings, radius, true);
  world.colliders = prepareColliders(scene.colliders);
  world.links = prepareLinks(scene.links, count);
  integrate(jacobi, count, scene.dt, VARIANT, identity);
  world.afterIntegrate(jacobi, count, scene.dt, identity);

  return {
    contacts: converged.contacts,
    cycloneIterations: converged.iterations,
    velocity: largestDifference(jacobi, cyclone, count, 'velocity'),
    position: largestDifference(jacobi, cyclone, count, 'position'),
    cycloneDefaultVelocity: largestDifference(cycloneDefault, cyclone, count, 'velocity'),
    cycloneDefaultPosition: largestDifference(cycloneDefault, cyclone, count, 'position'),
    jacobiResidual: residual(scene, jacobi, count, skins.residual),
    cycloneResidual: residual(scene, cyclone, count, skins.residual),
    cycloneDefaultResidual: residual(scene, cycloneDefault, count, skins.residual),
  };
}
