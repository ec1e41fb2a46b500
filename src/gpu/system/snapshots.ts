/**
 * A GPU system's snapshots (docs/snapshots.md): what the host holds of its
 * configuration, taken with the copy of its buffers in one call so steps
 * recorded while the copy is in flight change neither; and a restored
 * system's host state and buffers set from a decoded snapshot.
 */
import { LIFE_COUNTERS, RULE_STATS_WORDS } from '../../core/emitters/gpuRecords';
import { SparkworksInputError } from '../../core/errors';
import type { ForceRegistry, SpringNetwork } from '../../core/forces/registry';
import { BYTES_PER_LIFE, BYTES_PER_PARTICLE } from '../../core/layout';
import { HEALTH } from '../../core/nonFinite';
import { encodeSnapshotSliced, type SystemState } from '../../core/snapshot/systemSnapshot';
import { readWithinScopes } from '../device/errors';
import type { SystemParts } from './assembly';
import { readPersistent, writePersistent, type PersistentBuffers } from './snapshotTransfer';

/** What a snapshot reads of a system besides its parts. */
export interface SnapshotSource {
  readonly device: GPUDevice;
  readonly capacity: number;
  readonly parts: SystemParts;
  readonly forces: ForceRegistry;
  readonly springs: SpringNetwork;
  readonly time: number;
  readonly stepCount: number;
  /** The buffers that hold the persistent state. */
  readonly persistent: PersistentBuffers;
}

/** The buffers that hold a system's persistent state. */
export function persistentBuffersOf(parts: SystemParts): PersistentBuffers {
  return { particles: parts.state, health: parts.state.health.buffer, lifecycle: parts.lifecycle?.buffers ?? null };
}

/** The snapshot of `source`: its host state now, its buffers when the GPU reaches the copy. */
export async function takeSnapshot(source: SnapshotSource): Promise<Uint8Array> {
  const { parts, capacity } = source;
  const config = {
    format: 'sparkworks-snapshot' as const,
    backend: 'gpu' as const,
    capacity,
    variant: parts.variant,
    precision: 'float32' as const,
    nonFinite: parts.health.policy,
    lifecycle: parts.lifecycleOptions,
    contactSettings: parts.collisionSettings,
    forces: source.forces.entries(),
    springs: [...source.springs.links],
    emitterRuntime: parts.lifecycle ? parts.lifecycle.emitters.runtime() : null,
    radiusBound: parts.radii.value,
    time: source.time,
    stepCount: source.stepCount,
    nonFiniteReported: parts.health.reportedCount,
  };
  const { colliderRecords: colliders, linkRecords: links } = parts;
  const words = await readWithinScopes(source.device, 'snapshot', () =>
    readPersistent(source.device, source.persistent, {
      particles: capacity * BYTES_PER_PARTICLE,
      health: HEALTH.words * 4,
      lifecycle: parts.lifecycle
        ? {
            life: capacity * BYTES_PER_LIFE,
            lists: 2 * capacity * 4,
            freeList: capacity * 4,
            counters: LIFE_COUNTERS.words * 4,
            ruleStats: RULE_STATS_WORDS * 4,
          }
        : null,
    }),
  );
  parts.loss.check();
  return encodeSnapshotSliced({ config, colliders, links, ...words });
}

/** The particle records of a decoded snapshot, refused unless float32 (the GPU steps in float32). */
export function float32Records(decoded: SystemState): Float32Array {
  if (decoded.particles instanceof Float32Array) return decoded.particles;
  throw new SparkworksInputError(
    'a float64 snapshot (from a CPU reference in float64 precision) cannot restore on the GPU, which steps in float32',
    'precision',
    decoded.config.precision,
  );
}

/** Sets a freshly created system's host state from `decoded` (its buffers: `restoreBuffers`). */
export function restoreHostState(
  parts: SystemParts,
  registries: { forces: ForceRegistry; springs: SpringNetwork },
  decoded: SystemState,
): void {
  const { config } = decoded;
  for (const { generator, target } of config.forces) registries.forces.add(generator, target);
  registries.springs.setLinks(config.springs);
  if (config.emitterRuntime && parts.lifecycle) parts.lifecycle.emitters.restore(config.emitterRuntime);
  parts.radii.value = config.radiusBound;
  parts.health.restore(0, 0, config.nonFiniteReported);
}

/** Records `decoded`'s colliders, links and buffers into the system (inside the caller's submit). */
export function restoreBuffers(
  device: GPUDevice,
  parts: SystemParts,
  collisions: () => NonNullable<SystemParts['collisions']>,
  persistent: PersistentBuffers,
  decoded: SystemState,
): void {
  if (decoded.colliders.count > 0) collisions().setColliders(decoded.colliders);
  if (decoded.links.records.count > 0) collisions().setLinks(decoded.links);
  writePersistent(device, persistent, {
    particles: float32Records(decoded),
    health: decoded.health,
    lifecycle: decoded.lifecycle,
  });
  parts.colliderRecords = decoded.colliders;
  parts.linkRecords = decoded.links;
}
