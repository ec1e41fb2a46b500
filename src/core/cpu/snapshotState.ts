/**
 * The CPU reference's state as a snapshot holds it (src/core/snapshot/
 * systemSnapshot.ts), and back: what CpuParticleSystem.snapshot encodes and
 * what CpuParticleSystem.restore applies to a system it has just created.
 */
import type { CpuCollisionWorld } from '../collisions/world';
import type { CpuLifecycle } from '../emitters/lifecycle';
import type { LifecycleOptions } from '../emitters/options';
import type { ForceRegistry, SpringNetwork } from '../forces/registry';
import { HEALTH, NON_FINITE_POLICIES, type HealthRecord } from '../nonFinite';
import type { FloatArray } from '../particles';
import type { SystemState } from '../snapshot/systemSnapshot';
import type { Variant } from '../variants';
import type { Precision } from './options';

/** The parts of a CPU system a snapshot holds, as the system exposes them. */
export interface CpuSnapshotParts {
  readonly capacity: number;
  readonly variant: Variant;
  readonly precision: Precision;
  /** Packed records, FLOATS_PER_PARTICLE floats a particle. */
  readonly state: FloatArray;
  readonly forces: ForceRegistry;
  readonly springs: SpringNetwork;
  readonly collisions: CpuCollisionWorld;
  readonly lifecycle: CpuLifecycle | null;
  time: number;
  stepCount: number;
}

/**
 * Everything needed to continue `system` bit for bit; `health` and
 * `lifecycleOptions` are what the system keeps to itself (its non-finite
 * record, and its emitter options as plain data, null without emitters).
 */
export function cpuSystemState(
  system: CpuSnapshotParts,
  health: HealthRecord,
  lifecycleOptions: LifecycleOptions | null,
): SystemState {
  const lifecycle = system.lifecycle;
  const healthWords = new Uint32Array(HEALTH.words);
  healthWords[HEALTH.nonFinite] = health.nonFinite;
  healthWords[HEALTH.firstIndex] = health.firstIndex;
  healthWords[HEALTH.policy] = NON_FINITE_POLICIES.indexOf(health.policy);
  return {
    config: {
      format: 'sparkworks-snapshot',
      backend: 'cpu',
      capacity: system.capacity,
      variant: system.variant,
      precision: system.precision,
      nonFinite: health.policy,
      lifecycle: lifecycleOptions,
      contactSettings: system.collisions.settings,
      forces: system.forces.entries(),
      springs: system.springs.links,
      emitterRuntime: lifecycle ? lifecycle.emitters.runtime() : null,
      radiusBound: system.collisions.radius.value,
      time: system.time,
      stepCount: system.stepCount,
      nonFiniteReported: health.reportedCount,
    },
    particles: system.state,
    colliders: system.collisions.colliders,
    links: system.collisions.links,
    health: healthWords,
    lifecycle: lifecycle
      ? {
          life: lifecycle.life.words,
          lists: lifecycle.lists,
          freeList: lifecycle.freeList,
          counters: lifecycle.counters.words,
          ruleStats: lifecycle.ruleStats,
        }
      : null,
  };
}

/**
 * Applies a decoded snapshot to `system`, created from the snapshot's own
 * creation options (and `health`, its non-finite record), so that it
 * continues where the snapshot was taken.
 */
export function applyCpuSystemState(
  system: CpuSnapshotParts,
  health: HealthRecord,
  { config, particles, colliders, links, health: healthWords, lifecycle }: SystemState,
): void {
  for (const { generator, target } of config.forces) system.forces.add(generator, target);
  system.springs.setLinks(config.springs);
  if (config.emitterRuntime && system.lifecycle) system.lifecycle.emitters.restore(config.emitterRuntime);
  system.collisions.colliders = colliders;
  system.collisions.links = links;
  system.collisions.radius.value = config.radiusBound;
  health.restore(
    healthWords[HEALTH.nonFinite] as number,
    healthWords[HEALTH.firstIndex] as number,
    config.nonFiniteReported,
  );
  system.state.set(particles);
  if (lifecycle && system.lifecycle) {
    system.lifecycle.life.words.set(lifecycle.life);
    system.lifecycle.lists.set(lifecycle.lists);
    system.lifecycle.freeList.set(lifecycle.freeList);
    system.lifecycle.counters.words.set(lifecycle.counters);
    system.lifecycle.ruleStats.set(lifecycle.ruleStats);
  }
  system.time = config.time;
  system.stepCount = config.stepCount;
}
