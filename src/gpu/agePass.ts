/**
 * The ageing kernel (shaders/age.wgsl): one invocation per live particle,
 * dispatched indirectly with the live count planStep wrote.
 */
import type { LifeBuffers } from './lifeBuffers';
import { shaders } from '../shaders';
import { ARGS } from './indirectArgs';
import { LiveKernel } from './liveKernel';
import type { ParticleBuffer } from './particleBuffer';

/** Created synchronously: the caller's error scopes catch any failure. Recorded after planStep, the step and the collisions. */
export function createAgePass(
  device: GPUDevice,
  particles: ParticleBuffer,
  buffers: LifeBuffers,
  workgroupSize: number,
): LiveKernel {
  return LiveKernel.create(device, particles, {
    name: 'AgePass',
    file: 'age.wgsl',
    code: shaders.age(),
    constants: { WORKGROUP_SIZE: workgroupSize, CAPACITY: buffers.capacity },
    bindings: [
      ['storage', buffers.life],
      ['read-only-storage', buffers.lists],
      ['storage', buffers.flags],
      ['read-only-storage', buffers.counters],
      ['uniform', buffers.rules],
    ],
    frame: buffers.frameBinding,
    args: buffers.args,
    argsOffset: ARGS.live * 4,
  });
}
