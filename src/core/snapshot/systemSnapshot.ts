/**
 * What a snapshot holds, on either backend: everything a particle system
 * needs to continue bit for bit. The configuration travels as JSON (its
 * creation options, forces, springs, emitter settings, time), the state as
 * raw words in the layouts both backends share (particle records, colliders,
 * links, the lifecycle's lists, life records and counters, the health
 * record), so a snapshot taken on the GPU restores on the CPU reference and
 * back. The container itself is src/core/snapshot/format.ts.
 */
import type { ParticleSystemOptions } from '../api';
import { COLLIDER, type PackedColliders } from '../collisions/colliders';
import { LINK, indexLinks, type PackedLinks } from '../collisions/links';
import { DEFAULT_CONTACT_SETTINGS, type ContactSettings } from '../collisions/world';
import { LIFE_COUNTERS, RULE_STATS_WORDS } from '../emitters/gpuRecords';
import type { LifecycleOptions } from '../emitters/options';
import type { EmitterRuntime } from '../emitters/params';
import type { ForceTarget, SpringLink, StoredGenerator } from '../forces/generators';
import { FLOATS_PER_PARTICLE, WORDS_PER_LIFE } from '../layout';
import { HEALTH, type NonFinitePolicy } from '../nonFinite';
import { snapshotRefusal } from '../errors';
import { StructArray } from '../schema';
import type { Variant } from '../variants';
import {
  SNAPSHOT_FLAGS,
  jsonSection,
  readContainer,
  readContainerSliced,
  readJsonSection,
  section,
  sectionView,
  writeContainer,
  writeContainerSliced,
  type Container,
  type Section,
  type SnapshotBytes,
} from './format';

/** The JSON part of a snapshot: how to rebuild the system, and the host-side state. */
export interface SnapshotConfig {
  /** Always `sparkworks-snapshot`. */
  readonly format: 'sparkworks-snapshot';
  /** The backend that took it (either restores it). */
  readonly backend: 'gpu' | 'cpu';
  /** Particle slots. */
  readonly capacity: number;
  /** The integrator and damping it steps with. */
  readonly variant: Variant;
  /** `float64` only from a CPU reference in float64 precision. */
  readonly precision: 'float32' | 'float64';
  /** The non-finite policy it was created with. */
  readonly nonFinite: NonFinitePolicy;
  /** The emitter options the system was created with (absent without emitters). */
  readonly lifecycle: LifecycleOptions | null;
  /** The contact resolver's settings. */
  readonly contactSettings: ContactSettings;
  /** The registry's generators in order, with their targets. */
  readonly forces: readonly {
    /** The generator as stored (defaults filled in). */
    generator: StoredGenerator;
    /** Its particles, as `forces.add` takes them. */
    target: ForceTarget;
  }[];
  /** The pair springs, as `springs.setLinks` takes them. */
  readonly springs: readonly Required<SpringLink>[];
  /** Each emitter's rate, cumulative burst total, centre and velocity (null without emitters). */
  readonly emitterRuntime: readonly EmitterRuntime[] | null;
  /** The largest radius ever written, which sizes the collision grid's cells. */
  readonly radiusBound: number;
  /** Seconds simulated: the sum of every step's dt. */
  readonly time: number;
  /** Steps taken since the system was first created. */
  readonly stepCount: number;
  /** The non-finite count the last NonFiniteStateError reported (policy `throw`). */
  readonly nonFiniteReported: number;
}

/** The lifecycle's persistent words, in the layout both backends share (src/gpu/lifecycle/lifeBuffers.ts). */
export interface LifecycleWords {
  /** The life records (LIFE), one a slot. */
  readonly life: Uint32Array;
  /** Both live lists (2 x capacity). */
  readonly lists: Uint32Array;
  /** The free list, bottom to top (its length is the capacity; the counters say how many are free). */
  readonly freeList: Uint32Array;
  /** The lifecycle's counters (LIFE_COUNTERS): live and free counts, each emitter's state. */
  readonly counters: Uint32Array;
  /** Births per spawn rule, then deaths per spawn rule. */
  readonly ruleStats: Uint32Array;
}

/** A whole system's state, decoded. */
export interface SystemState {
  /** The configuration and host-side state (section CONF). */
  readonly config: SnapshotConfig;
  /** Packed particle records (Float64Array only for precision `float64`). */
  readonly particles: Float32Array | Float64Array;
  /** The colliders' packed records. */
  readonly colliders: PackedColliders;
  /** The cables' and rods' packed records, with their per-particle index. */
  readonly links: PackedLinks;
  /** The health record's words (HEALTH): non-finite count, first index, policy. */
  readonly health: Uint32Array;
  /** The lifecycle's words; null without emitters. */
  readonly lifecycle: LifecycleWords | null;
}

const TAG = {
  config: 'CONF',
  particles: 'PART',
  colliders: 'COLL',
  links: 'LINK',
  health: 'HLTH',
  life: 'LIFE',
  lists: 'LIST',
  freeList: 'FREE',
  counters: 'CNTR',
  ruleStats: 'RSTA',
} as const;

/** Encodes a system's state as a snapshot (format.ts's container). */
export function encodeSnapshot(state: SystemState): Uint8Array {
  const { header, sections } = containerOf(state);
  return writeContainer(header, sections);
}

/** encodeSnapshot, checksummed in slices that yield to the event loop (a page's frames go on meanwhile). */
export function encodeSnapshotSliced(state: SystemState): Promise<Uint8Array> {
  const { header, sections } = containerOf(state);
  return writeContainerSliced(header, sections);
}

function containerOf(state: SystemState): { header: Parameters<typeof writeContainer>[0]; sections: Section[] } {
  const { config } = state;
  const float64 = state.particles instanceof Float64Array;
  const sections: Section[] = [
    jsonSection(TAG.config, config),
    section(TAG.particles, float64 ? 'f64' : 'f32', state.particles),
    // Only the records there are: an empty StructArray still holds one record of zeros (so its buffer binds).
    section(TAG.colliders, 'u32', state.colliders.words.subarray(0, state.colliders.count * COLLIDER.words)),
    section(TAG.links, 'u32', state.links.records.words.subarray(0, state.links.records.count * LINK.words)),
    section(TAG.health, 'u32', state.health),
  ];
  const lifecycle = state.lifecycle;
  if (lifecycle) {
    sections.push(
      section(TAG.life, 'u32', lifecycle.life),
      section(TAG.lists, 'u32', lifecycle.lists),
      section(TAG.freeList, 'u32', lifecycle.freeList),
      section(TAG.counters, 'u32', lifecycle.counters),
      section(TAG.ruleStats, 'u32', lifecycle.ruleStats),
    );
  }
  const flags = (lifecycle ? SNAPSHOT_FLAGS.emitters : 0) | (float64 ? SNAPSHOT_FLAGS.float64 : 0);
  return { header: { capacity: config.capacity, variant: config.variant, flags }, sections };
}

function checkConfig(value: unknown, capacity: number): SnapshotConfig {
  const config = value as Partial<SnapshotConfig> | null;
  if (
    config === null ||
    typeof config !== 'object' ||
    config.format !== 'sparkworks-snapshot' ||
    config.capacity !== capacity ||
    !Array.isArray(config.forces) ||
    !Array.isArray(config.springs) ||
    typeof config.time !== 'number' ||
    typeof config.stepCount !== 'number' ||
    typeof config.radiusBound !== 'number' ||
    typeof config.contactSettings !== 'object'
  ) {
    throw snapshotRefusal('snapshot configuration (section CONF) is malformed or disagrees with its header');
  }
  return config as SnapshotConfig;
}

/**
 * Decodes and checks a snapshot: the container (magic, version, length,
 * checksum), then every section's size against the capacity. Throws
 * SparkworksInputError before returning anything.
 */
export function decodeSnapshot(snapshot: SnapshotBytes): SystemState {
  return decodeContainer(readContainer(snapshot));
}

/** decodeSnapshot, checksummed in slices that yield to the event loop (a page's frames go on meanwhile). */
export async function decodeSnapshotSliced(snapshot: SnapshotBytes): Promise<SystemState> {
  return decodeContainer(await readContainerSliced(snapshot));
}

function decodeContainer(container: Container): SystemState {
  const { capacity, flags } = container.header;
  const config = checkConfig(readJsonSection(container, TAG.config), capacity);
  const float64 = (flags & SNAPSHOT_FLAGS.float64) !== 0;
  if (float64 !== (config.precision === 'float64')) {
    throw snapshotRefusal('snapshot header and configuration disagree about the precision');
  }
  const particles = sectionView(container, TAG.particles, float64 ? 'f64' : 'f32', capacity * FLOATS_PER_PARTICLE);
  const colliderSection = container.sections.get(TAG.colliders);
  const colliders = StructArray.from(
    COLLIDER,
    sectionView(container, TAG.colliders, 'u32', (colliderSection?.bytes.byteLength ?? 0) / 4),
  );
  const linkSection = container.sections.get(TAG.links);
  const linkWords = sectionView(container, TAG.links, 'u32', (linkSection?.bytes.byteLength ?? 0) / 4);
  if ((colliderSection?.bytes.byteLength ?? 0) % (COLLIDER.words * 4) !== 0 || linkWords.length % LINK.words !== 0) {
    throw snapshotRefusal('snapshot sections COLL or LINK do not hold whole records');
  }
  const linkRecords = StructArray.from(LINK, linkWords);
  const links = indexLinks(linkRecords, capacity);
  if (!links) throw snapshotRefusal('snapshot section LINK names particles past the capacity');
  const health = sectionView(container, TAG.health, 'u32', HEALTH.words);
  const hasLifecycle = (flags & SNAPSHOT_FLAGS.emitters) !== 0;
  if (hasLifecycle !== (config.lifecycle !== null && config.lifecycle !== undefined)) {
    throw snapshotRefusal('snapshot header and configuration disagree about emitters');
  }
  const lifecycle = hasLifecycle
    ? {
        life: sectionView(container, TAG.life, 'u32', capacity * WORDS_PER_LIFE),
        lists: sectionView(container, TAG.lists, 'u32', 2 * capacity),
        freeList: sectionView(container, TAG.freeList, 'u32', capacity),
        counters: sectionView(container, TAG.counters, 'u32', LIFE_COUNTERS.words),
        ruleStats: sectionView(container, TAG.ruleStats, 'u32', RULE_STATS_WORDS),
      }
    : null;
  return { config, particles, colliders, links, health, lifecycle };
}

/** The options a system is created with to restore `config` (the caller adds its backend's own). */
export function creationOptions(config: SnapshotConfig): ParticleSystemOptions {
  const settings = config.contactSettings;
  const defaults = DEFAULT_CONTACT_SETTINGS;
  // Default settings are left out, as a system created without collisions has them (and no collision passes yet).
  const isDefault = (Object.keys(defaults) as (keyof ContactSettings)[]).every(
    (key) => settings[key] === defaults[key],
  );
  return {
    capacity: config.capacity,
    integrator: config.variant.integrator,
    damping: config.variant.damping,
    nonFinite: config.nonFinite,
    ...(config.lifecycle ?? {}),
    ...(isDefault ? {} : { collisions: { ...settings } }),
  };
}
