/**
 * The GPU system's own options beside the ones both backends take
 * (ParticleSystemOptions), their checks, and what they make a system need
 * beside its particle records.
 */
import type { ParticleSystemOptions } from '../../core/api';
import { SparkworksInputError } from '../../core/errors';
import type { ContactOrder } from '../collisions/contactOrder';
import { contactSlotBytes } from '../collisions/contactPass';
import type { DispatchMode } from '../device/device';
import { LIFE_SLOT_BYTES } from '../lifecycle/lifeBuffers';
import { STORAGE_BESIDE_PARTICLES, type ChunkingOptions } from '../shared/particleBuffer';

export interface GpuParticleSystemOptions extends ParticleSystemOptions {
  /** Invocations per workgroup for every per-particle pass. Default 256, the fastest measured by `npm run bench` (about 1.1x 64 on SwiftShader). */
  workgroupSize?: number;
  /**
   * Run the field forces inside the step's pass (shaders/forces/integrateForces.wgsl)
   * rather than as a pass of their own before it. Default true; the results
   * agree within float32 rounding (fma contraction may differ). Over every
   * slot, and over the live list of a system with emitters; not with pair
   * springs, whose forces add after the field forces'.
   */
  fuseForces?: boolean;
  /**
   * Run the colliders inside the step's pass (shaders/collisions/fusedColliders.wgsl,
   * compiled for the collider set's kinds) rather than as a pass of their
   * own after it, when they are all the collisions a step has (no links, no
   * particle-particle contacts, no collider that sticks). Default true; the
   * results are the colliders pass's, bit for bit where the adapter rounds
   * each operation. With emitters the step over the live particles then also
   * turns the touches into collision events.
   */
  fuseColliders?: boolean;
  /**
   * Particles per storage buffer, a power of two: the records are split
   * into chunks of this many (each pass binds them all and reaches a slot
   * through src/core/layout.ts's particle store). By default a system is one
   * buffer up to what one storage binding holds (maxStorageBufferBindingSize
   * / 64 particles) and chunks of the largest power of two of that beyond
   * it. Results are bit-identical either way; set it to test chunking at
   * small sizes.
   */
  chunkParticles?: number;
  /**
   * Ignored: a system with emitters dispatches the passes whose size the GPU
   * decides one way, over fixed bounds (the capacity) whose invocations past
   * the GPU's counts return at once.
   *
   * @deprecated Has no effect and is ignored; it will be removed.
   */
  dispatch?: DispatchMode | 'auto';
  /**
   * Ignored: the particle-particle contact resolver has one order, every
   * pass over every slot.
   *
   * @deprecated Has no effect and is ignored; it will be removed.
   */
  contactOrder?: ContactOrder | 'auto';
}

/** Invocations per workgroup of every per-particle pass unless `workgroupSize` says otherwise. */
export const DEFAULT_WORKGROUP_SIZE = 256;

/**
 * What this system's passes need beside the particle records, which bounds
 * its chunks and capacity (src/gpu/shared/particleBuffer.ts): the storage buffers a
 * pass binds beside them (the lifecycle's and the contact resolver's, or the
 * step's and its forces' and colliders'), and the largest per-slot record kept
 * in one binding (the life records; the contact resolver's corrections,
 * candidates and grid cells).
 */
export function besideParticles(options: GpuParticleSystemOptions, lifecycle: boolean): ChunkingOptions {
  const collisions = options.collisions;
  const grid = collisions?.particleCollisions === true;
  const contacts = collisions !== undefined && (grid || (collisions.links?.length ?? 0) > 0);
  const slots = [
    ...(lifecycle ? [{ bytes: LIFE_SLOT_BYTES, what: "its emitters' life records" }] : []),
    ...(contacts ? [{ bytes: contactSlotBytes(grid), what: "its contact resolver's records" }] : []),
  ].sort((a, b) => b.bytes - a.bytes);
  return {
    besideParticles: contacts ? STORAGE_BESIDE_PARTICLES.contacts : STORAGE_BESIDE_PARTICLES.step,
    ...(slots[0] ? { slotBytes: slots[0].bytes, slotRecords: slots[0].what } : {}),
  };
}

/** `options`' workgroup size (checked against `device`), and its other GPU options checked; throws SparkworksInputError. */
export function checkWorkgroupOptions(device: GPUDevice, options: GpuParticleSystemOptions): number {
  const workgroupSize = options.workgroupSize ?? DEFAULT_WORKGROUP_SIZE;
  const maxInvocations = device.limits.maxComputeInvocationsPerWorkgroup;
  if (!Number.isInteger(workgroupSize) || workgroupSize < 1 || workgroupSize > maxInvocations) {
    throw new SparkworksInputError(
      `workgroupSize = ${workgroupSize} must be an integer in [1, ${maxInvocations}] (the device's maxComputeInvocationsPerWorkgroup)`,
      'workgroupSize',
      workgroupSize,
      `must be an integer in [1, ${maxInvocations}]`,
    );
  }
  if (options.fuseForces !== undefined && typeof options.fuseForces !== 'boolean') {
    throw new SparkworksInputError(
      `fuseForces = ${String(options.fuseForces)} must be true or false`,
      'fuseForces',
      options.fuseForces,
      'must be true or false',
    );
  }
  if (options.fuseColliders !== undefined && typeof options.fuseColliders !== 'boolean') {
    throw new SparkworksInputError(
      `fuseColliders = ${String(options.fuseColliders)} must be true or false`,
      'fuseColliders',
      options.fuseColliders,
      'must be true or false',
    );
  }
  return workgroupSize;
}
