/** The API both backends share: the GPU system and the CPU reference. */
import type { ColliderInit } from './collisions/colliders';
import type { LinkInit } from './collisions/links';
import type { CollisionOptions } from './collisions/world';
import type { EmitterSet } from './emitters/emitterSet';
import type { LifecycleOptions } from './emitters/options';
import type { LifecycleSnapshot, LifecycleStats } from './emitters/stats';
import type { ForceRegistry, SpringNetwork } from './forces/registry';
import type { ParticleArrays, ParticleInit, ParticleSnapshot, SettableField } from './particles';
import type { DampingMode, IntegrationOrder, Variant } from './variants';
import type { NonFinitePolicy, NonFiniteStats } from './nonFinite';

/** What a particle system is created with, on either backend: its capacity, step variant, collisions and emitters. */
export interface ParticleSystemOptions {
  /** Number of particle slots, fixed for the system's life. */
  capacity: number;
  /** Default `explicit` (Cyclone). */
  integrator?: IntegrationOrder;
  /** Default `per-second` (Cyclone). */
  damping?: DampingMode;
  /** Colliders, links and the contact resolver's settings (src/core/collisions/world.ts). Default: none. */
  collisions?: CollisionOptions;
  /**
   * Emitters (src/core/emitters/params.ts): particles born, aged, killed and
   * recycled on the GPU. With emitters or fireworks, slots [permanent,
   * capacity) start free and only live particles are stepped; without them,
   * every slot is live, as before. Default: none.
   */
  emitters?: LifecycleOptions['emitters'];
  /** Cyclone's firework rules, launched by emitters and by each other's payloads. Default: none. */
  fireworks?: LifecycleOptions['fireworks'];
  /**
   * With emitters: slots [0, permanent) never die and are the ones
   * writeParticles, writeAttributes, writePacked, setField and addForces
   * address. Default 0.
   */
  permanent?: number;
  /**
   * What happens to a particle whose position or velocity becomes NaN or
   * infinite: `report` (counted in readStats, the default), `park` (counted,
   * and made immovable and collision-free), or `throw` (counted, and the next
   * read throws a NonFiniteStateError). See src/core/nonFinite.ts.
   */
  nonFinite?: NonFinitePolicy;
}

/** What `readStats()` returns: the lifecycle's counts and the non-finite count. */
export type SystemStats = LifecycleStats & NonFiniteStats;

/** The calls both backends answer alike: `ParticleSystem` (GPU, async) and `CpuParticleSystem` (the reference, synchronous). */
export interface ParticleSystemApi {
  /** Number of particle slots, fixed at creation. */
  readonly capacity: number;
  /** The integrator and damping mode compiled in at creation. */
  readonly variant: Variant;
  /** Sets whole particles from `start` (force accumulators cleared). */
  writeParticles(start: number, particles: readonly ParticleInit[]): void | Promise<void>;
  /**
   * Sets whole particles from `start`, as writeParticles does, from one array
   * per attribute (typed arrays, xyz per particle for vectors: the shape
   * `read()` returns); attributes left out take Cyclone's defaults. The same
   * rules as writeParticles, checked in one pass per array before anything is
   * written.
   */
  writeAttributes(start: number, attributes: ParticleArrays): void | Promise<void>;
  /**
   * Sets whole particles from `start` from packed records in the layout of
   * src/core/layout.ts (FLOATS_PER_PARTICLE floats a particle, as
   * `readPacked()` returns them), force accumulators included; every float
   * must be finite, and inverse mass, damping and radius follow
   * writeParticles' rules.
   */
  writePacked(start: number, records: Float32Array): void | Promise<void>;
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
  /** The emitters' rates, bursts and motion (src/core/emitters/emitterSet.ts); null without emitters. */
  readonly emitters: EmitterSet | null;
  /**
   * Live, free, emitted, killed and shortfall counts, read back without
   * stalling a frame (the GPU resolves when it reaches the copy). Without
   * emitters: every slot live, nothing born or killed.
   */
  readStats(): Promise<SystemStats>;
  /** The live and free lists and the life records (a read that waits for the GPU); null without emitters. */
  readLifecycle(): Promise<LifecycleSnapshot | null>;
  /** Particles [start, start + count), one array per attribute. */
  read(start?: number, count?: number): Promise<ParticleSnapshot>;
  /** Particles [start, start + count) as packed records in the layout of src/core/layout.ts. */
  readPacked(start?: number, count?: number): Promise<Float32Array>;
  /** Seconds simulated: the sum of every step's dt (a restored system continues its snapshot's). */
  readonly time: number;
  /** Steps taken since creation (a restored system continues its snapshot's count). */
  readonly stepCount: number;
  /**
   * Everything needed to continue bit for bit, as a versioned, checksummed
   * binary (docs/snapshots.md), which `ParticleSystem.restore` and
   * `CpuParticleSystem.restore` rebuild on either backend.
   */
  snapshot(): Uint8Array | Promise<Uint8Array>;
  /** Frees what the system created (safe twice); later calls are refused. The device, if any, stays the caller's. */
  destroy(): void;
}
