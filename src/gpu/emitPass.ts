/**
 * The emission kernel (shaders/emit.wgsl, with shaders/spawn.wgsl and
 * shaders/pcg.wgsl): one invocation per granted request, dispatched
 * indirectly with the count planEmit wrote.
 */
import type { LifeBuffers } from './lifeBuffers';
import { shaders } from '../shaders';
import { ARGS } from './indirectArgs';
import { LiveKernel } from './liveKernel';
import type { ParticleBuffer } from './particleBuffer';

/** Created synchronously: the caller's error scopes catch any failure. Recorded after planEmit. */
export function createEmitPass(
  device: GPUDevice,
  particles: ParticleBuffer,
  buffers: LifeBuffers,
  workgroupSize: number,
): LiveKernel {
  return LiveKernel.create(device, particles, {
    name: 'EmitPass',
    file: 'emit.wgsl',
    code: shaders.emit(),
    constants: { WORKGROUP_SIZE: workgroupSize, CAPACITY: buffers.capacity },
    bindings: [
      ['storage', buffers.life],
      ['storage', buffers.lists],
      ['read-only-storage', buffers.freeList],
      ['read-only-storage', buffers.deaths],
      ['read-only-storage', buffers.counters],
      ['storage', buffers.ruleStats],
      ['uniform', buffers.rules],
    ],
    frame: buffers.frameBinding,
    args: buffers.args,
    argsOffset: ARGS.emit * 4,
  });
}
