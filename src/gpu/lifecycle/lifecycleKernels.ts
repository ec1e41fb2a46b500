/**
 * The lifecycle's per-particle kernels, each declared as data: its WGSL, its
 * constants, the lifecycle buffers it binds (group 1, in binding order) and
 * the bound its dispatch covers. LiveKernel (src/gpu/lifecycle/liveKernel.ts) builds
 * and records them.
 */
import { shaders } from '../../shaders';
import type { LifeBuffers } from './lifeBuffers';
import { LiveKernel, type LiveKernelSpec } from './liveKernel';
import type { ParticleBuffer } from '../shared/particleBuffer';

export interface LifecycleKernels {
  /**
   * shaders/lifecycle/age.wgsl: one invocation per live index, over the capacity,
   * for a step whose ageing the step did not do in the same pass: `age` ages
   * and judges, `judgeAgain` (ALREADY_AGED) judges again, without ageing, after the passes that ran between the
   * step and the lifecycle.
   */
  readonly age: LiveKernel;
  readonly judgeAgain: LiveKernel;
  /**
   * shaders/lifecycle/countDeaths.wgsl: (deaths, children, records) a word of the death
   * bits, and the deaths per rule, scanned as the scan's level 0 (a
   * workgroup a block of words); over a full pool's blocks.
   */
  readonly countDeaths: LiveKernel;
  /**
   * shaders/lifecycle/compact.wgsl: the deaths onto the free list, their live indices
   * and records (payloads), by the scan's prefix sums; over a full pool's words.
   */
  readonly compact: LiveKernel;
  /**
   * shaders/lifecycle/fill.wgsl: survivors past the new live count into the holes, and the inverse map of the moved
   * and the born; over the capacity, the invocations past the larger of the death and birth counts
   * planEmit wrote returning at once.
   */
  readonly fill: LiveKernel;
  /** shaders/lifecycle/emit.wgsl (with spawn.wgsl and pcg.wgsl): one invocation per granted request (planEmit's count), over the capacity. */
  readonly emit: LiveKernel;
}

/**
 * The constants of a kernel that judges deaths (shaders/lifecycle/lifeDeath.wgsl, dies):
 * the floor every spawn rule shares, written in, when they share one.
 */
export function deathConstants(buffers: LifeBuffers): Record<string, number> {
  const floor = buffers.lifecycle.rules.sharedFloor;
  return floor === null ? {} : { SHARED_FLOOR: 1, FLOOR: floor };
}

/** Created synchronously: the caller's error scopes catch any failure. Recorded after the step and the collisions. */
export function createLifecycleKernels(
  device: GPUDevice,
  particles: ParticleBuffer,
  buffers: LifeBuffers,
  workgroupSize: number,
): LifecycleKernels {
  const overLiveList = { WORKGROUP_SIZE: workgroupSize, CAPACITY: buffers.capacity };
  const payloads = { HAS_PAYLOADS: buffers.lifecycle.rules.hasPayloads ? 1 : 0 };
  // Each kernel's count is at most its bound, which its dispatch covers: the capacity, or a word per 32 slots.
  // The kernel's own guard against the GPU's count turns the rest away.
  const words = buffers.levels[0] as number;
  const kernel = ({ bound, ...spec }: Omit<LiveKernelSpec, 'dispatch'> & { bound: number }) =>
    LiveKernel.create(device, particles, { ...spec, dispatch: { count: bound } });
  const age = (alreadyAged: boolean) =>
    kernel({
      name: alreadyAged ? 'AgePass(judgeAgain)' : 'AgePass',
      file: 'age.wgsl',
      code: (store) => shaders.age(store),
      constants: {
        ...overLiveList,
        ...deathConstants(buffers),
        ALREADY_AGED: alreadyAged ? 1 : 0,
        EVENT_BITS_AT: buffers.eventBitsAt,
      },
      bindings: [
        ['storage', buffers.life],
        ['read-only-storage', buffers.lists],
        ['storage', buffers.dead],
        ['read-only-storage', buffers.counters],
        ['uniform', buffers.rules],
      ],
      frame: buffers.frameBinding,
      bound: buffers.capacity,
      perChunk: 'owner',
    });
  return {
    age: age(false),
    judgeAgain: age(true),
    countDeaths: LiveKernel.create(device, particles, {
      name: 'CountDeathsPass',
      file: 'countDeaths.wgsl',
      code: (store) => shaders.countDeaths(store),
      // Its workgroups are the scan's (shaders/shared/blockScan.wgsl, THREADS), not WORKGROUP_SIZE.
      constants: { CAPACITY: buffers.capacity, ...payloads, EVENT_BITS_AT: buffers.eventBitsAt },
      bindings: [
        ['read-only-storage', buffers.life],
        ['read-only-storage', buffers.lists],
        ['read-only-storage', buffers.dead],
        // Level 0 of the scan, at the start of `scanned`.
        ['storage', buffers.levelOutputs[0] as GPUBufferBinding],
        ['read-only-storage', buffers.counters],
        ['uniform', buffers.rules],
        ['storage', buffers.ruleStats],
        // Level 1's items.
        ['storage', buffers.levelInputs[0] as GPUBuffer],
      ],
      // A workgroup a block of words.
      dispatch: buffers.scanDispatch(0),
      perChunk: 'unread',
    }),
    compact: kernel({
      name: 'CompactPass',
      file: 'compact.wgsl',
      code: (store) => shaders.compact(store),
      constants: {
        ...overLiveList,
        ...payloads,
        BLOCK_OFFSETS_AT: buffers.blockOffsetsAt,
        DEAD_INDEX_AT: buffers.deadIndexAt,
        EVENT_BITS_AT: buffers.eventBitsAt,
      },
      bindings: [
        ['read-only-storage', buffers.life],
        ['read-only-storage', buffers.lists],
        ['storage', buffers.freeList],
        ['read-only-storage', buffers.scanned],
        ['storage', buffers.deaths],
        ['read-only-storage', buffers.counters],
        ['storage', buffers.dead],
        ['uniform', buffers.rules],
      ],
      bound: words,
      perChunk: 'owner',
    }),
    fill: kernel({
      name: 'FillPass',
      file: 'fill.wgsl',
      code: () => shaders.fill(),
      constants: { ...overLiveList, DEAD_INDEX_AT: buffers.deadIndexAt, BLOCK_OFFSETS_AT: buffers.blockOffsetsAt },
      bindings: [
        ['storage', buffers.lists],
        ['read-only-storage', buffers.dead],
        ['read-only-storage', buffers.counters],
        ['storage', buffers.liveIndexOf],
        ['read-only-storage', buffers.freeList],
        ['storage', buffers.highWater],
        ['read-only-storage', buffers.scanned],
      ],
      bound: buffers.capacity,
      perChunk: 'unread',
    }),
    emit: kernel({
      name: 'EmitPass',
      file: 'emit.wgsl',
      code: (store) => shaders.emit(store),
      constants: {
        ...overLiveList,
        ...payloads,
        ...particles.health.constants,
        SPAWN_SHAPES: buffers.lifecycle.rules.shapes,
        SPAWN_VELOCITY_MODES: buffers.lifecycle.rules.velocityModes,
      },
      bindings: [
        ['storage', buffers.life],
        ['storage', buffers.lists],
        ['read-only-storage', buffers.freeList],
        ['read-only-storage', buffers.deaths],
        ['read-only-storage', buffers.counters],
        ['storage', buffers.ruleStats],
        ['uniform', buffers.rules],
        // The health record (src/gpu/shared/health.ts): a particle born non-finite is counted.
        ['storage', particles.health.buffer],
      ],
      frame: buffers.frameBinding,
      bound: buffers.capacity,
      perChunk: 'owner',
    }),
  };
}
