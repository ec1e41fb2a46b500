/**
 * The lifecycle's per-particle kernels, each declared as data: its WGSL, its
 * constants, the lifecycle buffers it binds (group 1, in binding order) and
 * which indirect count it runs with. LiveKernel (src/gpu/liveKernel.ts) builds
 * and records them.
 */
import { shaders } from '../shaders';
import { INDIRECT_ARGS } from './indirectArgs';
import type { LifeBuffers } from './lifeBuffers';
import { LiveKernel, type LiveKernelSpec } from './liveKernel';
import type { ParticleBuffer } from './particleBuffer';

export interface LifecycleKernels {
  /** shaders/age.wgsl: one invocation per live particle, with the live count planStep wrote. */
  readonly age: LiveKernel;
  /**
   * shaders/compact.wgsl: survivors into the other live list, deaths onto the
   * free list and into the deaths buffer, by the scan's prefix sums; with the live count.
   */
  readonly compact: LiveKernel;
  /** shaders/emit.wgsl (with spawn.wgsl and pcg.wgsl): one invocation per granted request, with the count planEmit wrote. */
  readonly emit: LiveKernel;
}

/** Created synchronously: the caller's error scopes catch any failure. Recorded after planStep, the step and the collisions. */
export function createLifecycleKernels(
  device: GPUDevice,
  particles: ParticleBuffer,
  buffers: LifeBuffers,
  workgroupSize: number,
): LifecycleKernels {
  const overLiveList = { WORKGROUP_SIZE: workgroupSize, CAPACITY: buffers.capacity };
  const kernel = (spec: Omit<LiveKernelSpec, 'args'>) =>
    LiveKernel.create(device, particles, { ...spec, args: buffers.args });
  return {
    age: kernel({
      name: 'AgePass',
      file: 'age.wgsl',
      code: shaders.age(),
      constants: overLiveList,
      bindings: [
        ['storage', buffers.life],
        ['read-only-storage', buffers.lists],
        ['storage', buffers.flags],
        ['read-only-storage', buffers.counters],
        ['uniform', buffers.rules],
      ],
      frame: buffers.frameBinding,
      argsOffset: INDIRECT_ARGS.offsets.live,
    }),
    compact: kernel({
      name: 'CompactPass',
      file: 'compact.wgsl',
      code: shaders.compact(),
      constants: {
        ...overLiveList,
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
      argsOffset: INDIRECT_ARGS.offsets.live,
    }),
    emit: kernel({
      name: 'EmitPass',
      file: 'emit.wgsl',
      code: shaders.emit(),
      constants: { ...overLiveList, ...particles.health.constants },
      bindings: [
        ['storage', buffers.life],
        ['storage', buffers.lists],
        ['read-only-storage', buffers.freeList],
        ['read-only-storage', buffers.deaths],
        ['read-only-storage', buffers.counters],
        ['storage', buffers.ruleStats],
        ['uniform', buffers.rules],
        // The health record (src/gpu/health.ts): a particle born non-finite is counted.
        ['storage', particles.health.buffer],
      ],
      frame: buffers.frameBinding,
      argsOffset: INDIRECT_ARGS.offsets.emit,
    }),
  };
}
