/**
 * What happens after each integration step, in order, on either backend
 * (the GPU system encodes the same sequence with src/gpu/collisions/collisions.ts):
 *
 * 1. the colliders (src/core/collisions/colliders.ts), once;
 * 2. with links or particle-particle collisions: the grid is built, then each
 *    of `iterations` Jacobi iterations counts the active contacts, resolves
 *    them into corrections, and applies them in a colliders pass (so the
 *    world has the last word each iteration: nothing ends inside a collider).
 *
 * This file holds the options, their validation, and the CPU sequence.
 */
import type { HealthRecord } from '../nonFinite';
import type { Rounding } from '../integrate';
import { FLOATS_PER_PARTICLE, attributeOffset } from '../layout';
import type { FloatArray } from '../particles';
import { COLLISION_RULES, checkFlag, checkKeys, checkObject, isUnitInterval, check } from './check';
import { collide } from './collide';
import { prepareColliders, type ColliderInit, type PackedColliders } from './colliders';
import { CpuContacts, MODE_COUNT, MODE_RESOLVE, type ContactParams } from './contacts';
import { CpuGrid, gridSpacing } from './grid';
import { noLinks, prepareLinks, type LinkInit, type PackedLinks } from './links';

/** The `collisions` option of a system: its colliders, links and the contact resolver's settings. */
export interface CollisionOptions {
  /** The world's colliders, tested in this order. Also settable later with setColliders. */
  colliders?: ColliderInit[];
  /** Cables and rods. Also settable later with setLinks. */
  links?: LinkInit[];
  /** Collisions between particles, as spheres of each particle's radius. Default false. */
  particleCollisions?: boolean;
  /** Restitution of particle-particle contacts, in [0, 1]. Default 0.5. */
  restitution?: number;
  /** Jacobi iterations of the contact resolver per step (links and particle contacts). Default 8. */
  iterations?: number;
  /**
   * A contact exists from this distance before touching: its velocity is
   * resolved, its position only once it penetrates, so a resting particle
   * stays at rest through float rounding. Default 1e-4 (scene units).
   */
  skin?: number;
}

/** The contact resolver's settings, checked and with the defaults filled in. */
export interface ContactSettings {
  /** Whether particles collide with each other, as spheres of their radius. */
  readonly particleCollisions: boolean;
  /** Restitution of particle-particle contacts, in [0, 1]. */
  readonly restitution: number;
  /** Jacobi iterations of the resolver per step. */
  readonly iterations: number;
  /** Distance before touching from which a contact exists, scene units. */
  readonly skin: number;
}

/** The settings a system gets when it names none: no particle collisions, restitution 0.5, 8 iterations, skin 1e-4. */
export const DEFAULT_CONTACT_SETTINGS: ContactSettings = {
  particleCollisions: false,
  restitution: 0.5,
  iterations: 8,
  skin: 1e-4,
};
export const MAX_ITERATIONS = 256;

export const OPTION_KEYS = ['colliders', 'links', 'particleCollisions', 'restitution', 'iterations', 'skin'] as const;

/** Validates the solver settings (not the colliders and links: see prepareCollisionInputs). */
export function resolveContactSettings(options: CollisionOptions | undefined, what = 'collisions'): ContactSettings {
  if (options === undefined) return DEFAULT_CONTACT_SETTINGS;
  const o = checkObject(what, options);
  checkKeys(what, o, OPTION_KEYS);
  const d = DEFAULT_CONTACT_SETTINGS;
  return {
    particleCollisions:
      o.particleCollisions === undefined
        ? d.particleCollisions
        : checkFlag(`${what}.particleCollisions`, o.particleCollisions),
    restitution: check.number(
      `${what}.restitution`,
      o.restitution ?? d.restitution,
      COLLISION_RULES.restitution,
      isUnitInterval,
    ),
    iterations: check.number(
      `${what}.iterations`,
      o.iterations ?? d.iterations,
      COLLISION_RULES.iterations,
      (x) => Number.isInteger(x) && x >= 1 && x <= MAX_ITERATIONS,
    ),
    skin: check.number(`${what}.skin`, o.skin ?? d.skin, COLLISION_RULES.skin, (x) => x >= 0 && x <= 1),
  };
}

/** Everything the collision options carry, validated before any of it is used. */
export function prepareCollisionInputs(
  options: CollisionOptions | undefined,
  capacity: number,
): { settings: ContactSettings; colliders: PackedColliders | null; links: PackedLinks | null } {
  const settings = resolveContactSettings(options);
  return {
    settings,
    colliders: options?.colliders === undefined ? null : prepareColliders(options.colliders, 'collisions.colliders'),
    links: options?.links === undefined ? null : prepareLinks(options.links, capacity, 'collisions.links'),
  };
}

const RADIUS = attributeOffset('radius');

/** The largest radius among packed particle records (0 if none is larger). */
export function largestRadius(packed: FloatArray): number {
  let largest = 0;
  for (let at = RADIUS; at < packed.length; at += FLOATS_PER_PARTICLE)
    largest = Math.max(largest, packed[at] as number);
  return largest;
}

/**
 * Tracks the largest radius ever written, which sizes the grid's cells: radii
 * only reach the systems through writeParticles and setField, so the host
 * knows an upper bound without reading the GPU back (a bound that only
 * grows: a radius shrunk later leaves the cells wider, still correct).
 */
export class RadiusBound {
  value = 0;
  note(radius: number): void {
    if (radius > this.value) this.value = radius;
  }
  noteAll(values: ArrayLike<number>): void {
    for (let i = 0; i < values.length; i++) this.note(values[i] as number);
  }
}

/** The colliders, links and contact settings of one CPU system, and the sequence it runs after each step. */
export class CpuCollisionWorld {
  colliders: PackedColliders;
  links: PackedLinks;
  readonly contacts: CpuContacts;
  private grid: CpuGrid | null = null;

  constructor(
    readonly capacity: number,
    readonly settings: ContactSettings,
    /** The largest radius written to the system, which sizes the grid's cells. */
    readonly radius: RadiusBound,
    float64: boolean,
  ) {
    this.colliders = prepareColliders([]);
    this.links = noLinks(capacity);
    this.contacts = new CpuContacts(capacity, float64);
  }

  /** True when a step has anything to do here. */
  get active(): boolean {
    return this.colliders.count > 0 || this.hasContacts;
  }

  get hasContacts(): boolean {
    return this.links.records.count > 0 || this.pairs;
  }

  private get pairs(): boolean {
    return this.settings.particleCollisions && this.radius.value > 0;
  }

  /** The grid of the last step (null before one with particle-particle collisions). */
  get lastGrid(): CpuGrid | null {
    return this.grid;
  }

  /** Builds the grid over the current state (the start of the contact iterations). */
  buildGrid(state: FloatArray, count: number, round: Rounding): CpuGrid {
    this.grid ??= new CpuGrid(this.capacity);
    this.grid.build(
      state,
      count,
      gridSpacing(this.radius.value, Math.fround(this.settings.skin)).inverseCellSize,
      round,
    );
    return this.grid;
  }

  contactParams(dt: number): ContactParams {
    return {
      dt: Math.fround(dt),
      skin: Math.fround(this.settings.skin),
      restitution: Math.fround(this.settings.restitution),
      pairs: this.pairs,
    };
  }

  /** Runs after one integration step of `dt` over particles [0, count) of `state`, in place; `health` counts what goes non-finite. */
  afterIntegrate(
    state: FloatArray,
    count: number,
    dt: number,
    round: Rounding,
    health: HealthRecord | null = null,
  ): void {
    const colliderParams = { dt: Math.fround(dt), skin: Math.fround(this.settings.skin) };
    if (this.colliders.count > 0) collide(state, count, this.colliders, colliderParams, round, undefined, health);
    if (!this.hasContacts) return;
    const params = this.contactParams(dt);
    const grid = params.pairs ? this.buildGrid(state, count, round) : null;
    for (let k = 0; k < this.settings.iterations; k++) {
      this.contacts.run(MODE_COUNT, state, count, this.links, grid, params, round);
      this.contacts.run(MODE_RESOLVE, state, count, this.links, grid, params, round);
      collide(state, count, this.colliders, colliderParams, round, this.contacts.deltas, health);
    }
  }
}
