/** The API both backends share: the GPU system and the CPU reference. */
import type { ColliderInit } from './collisions/colliders';
import type { LinkInit } from './collisions/links';
import type { CollisionOptions } from './collisions/world';
import type { ForceRegistry, SpringNetwork } from './forces/registry';
import type { ParticleInit, ParticleSnapshot, SettableField } from './particles';
import type { DampingMode, IntegrationOrder, Variant } from './variants';

export interface ParticleSystemOptions {
  /** Number of particle slots, fixed for the system's life. */
  capacity: number;
  /** Default `explicit` (Cyclone). */
  integrator?: IntegrationOrder;
  /** Default `per-second` (Cyclone). */
  damping?: DampingMode;
  /** Colliders, links and the contact resolver's settings (src/core/collisions/world.ts). Default: none. */
  collisions?: CollisionOptions;
}

export interface ParticleSystemApi {
  readonly capacity: number;
  readonly variant: Variant;
  /** Sets whole particles from `start` (force accumulators cleared). */
  writeParticles(start: number, particles: readonly ParticleInit[]): void | Promise<void>;
  /**
   * Cyclone's setters in bulk: `values` holds one entry per particle (xyz for
   * vectors) from `start`; `mass` is stored as its inverse.
   */
  setField(field: SettableField, start: number, values: ArrayLike<number>): void | Promise<void>;
  /** Adds forces (xyz per particle from `start`) to the accumulators (Cyclone's addForce). */
  addForces(start: number, forces: ArrayLike<number>): void | Promise<void>;
  /**
   * Cyclone's ParticleForceRegistry: generators (gravity, drag, springs to
   * anchors, fields...) applied to their targets before every step.
   */
  readonly forces: ForceRegistry;
  /** Springs and bungees between particle pairs, applied after the registry's generators. */
  readonly springs: SpringNetwork;
  /**
   * Adds the registry's and the springs' forces for a step of `dt` to the
   * accumulators, without integrating (Cyclone's updateForces); `step` does
   * this itself before integrating.
   */
  accumulateForces(dt: number): void | Promise<void>;
  /** One step of `dt` seconds: forces accumulate, then the step integrates and clears them. */
  step(dt: number): void | Promise<void>;
  /** `steps` steps of `dt`, recorded together (one command buffer on the GPU). */
  stepMany(dt: number, steps: number): void | Promise<void>;
  /** Replaces the world's colliders, applied after every step in this order. */
  setColliders(colliders: readonly ColliderInit[]): void | Promise<void>;
  /** Replaces the cables and rods, resolved with the particle contacts after every step. */
  setLinks(links: readonly LinkInit[]): void | Promise<void>;
  /** Particles [start, start + count), one array per attribute. */
  read(start?: number, count?: number): Promise<ParticleSnapshot>;
  /** Particles [start, start + count) as packed records in the layout of src/core/layout.ts. */
  readPacked(start?: number, count?: number): Promise<Float32Array>;
  destroy(): void;
}
