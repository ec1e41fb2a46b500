/**
 * The compaction kernel (shaders/compact.wgsl): survivors into the other live
 * list, deaths onto the free list and into the deaths buffer, by the scan's
 * prefix sums. Dispatched indirectly like the ageing.
 */
import type { LifeBuffers } from './lifeBuffers';
import { shaders } from '../shaders';
import { ARGS } from './indirectArgs';
import { LiveKernel } from './liveKernel';
import type { ParticleBuffer } from './particleBuffer';

/** Created synchronously: the caller's error scopes catch any failure. Recorded after the scan. */
export function createCompactPass(
  device: GPUDevice,
  particles: ParticleBuffer,
  buffers: LifeBuffers,
  workgroupSize: number,
): LiveKernel {
  return LiveKernel.create(device, particles, {
    name: 'CompactPass',
    file: 'compact.wgsl',
    code: shaders.compact(),
    constants: {
      WORKGROUP_SIZE: workgroupSize,
      CAPACITY: buffers.capacity,
      HAS_PAYLOADS: buffers.lifecycle.rules.hasPayloads ? 1 : 0,
      LEVEL1_AT: buffers.level1At,
    },
    bindings: [
      ['storage', buffers.life],
      ['storage', buffers.lists],
      ['storage', buffers.freeList],
      ['read-only-storage', buffers.scanned],
      ['storage', buffers.deaths],
      ['read-only-storage', buffers.counters],
      ['storage', buffers.ruleStats],
    ],
    args: buffers.args,
    argsOffset: ARGS.live * 4,
  });
}
