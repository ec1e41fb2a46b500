/**
 * The GPU half of a snapshot: the buffers that hold a system's persistent
 * state (particle records, health record, the lifecycle's life records,
 * lists and counters) copied out in one submission and mapped when the GPU
 * gets there, so taking a snapshot never stalls a frame; and written back
 * when a system is restored. What the words mean is
 * src/core/snapshot/systemSnapshot.ts.
 */
import { LIFE_COUNTERS } from '../../core/emitters/gpuRecords';
import type { LifecycleWords } from '../../core/snapshot/systemSnapshot';
import { ARGS } from '../../shaders/indirectArgs';
import { highWaterOf, liveIndexMap, type LifeBuffers } from '../lifecycle/lifeBuffers';
import type { ParticleBuffer } from '../shared/particleBuffer';

/** The buffers a snapshot reads and a restore writes. */
export interface PersistentBuffers {
  /** The particle records, in one buffer or in chunks. */
  readonly particles: Pick<ParticleBuffer, 'forEachChunk' | 'write' | 'capacity'>;
  readonly health: GPUBuffer;
  readonly lifecycle: Pick<
    LifeBuffers,
    'life' | 'lists' | 'freeList' | 'counters' | 'ruleStats' | 'args' | 'liveIndexOf' | 'highWater' | 'capacity'
  > | null;
}

/** The words read back: particle records as floats, the rest as u32. */
export interface PersistentWords {
  readonly particles: Float32Array<ArrayBuffer>;
  readonly health: Uint32Array<ArrayBuffer>;
  readonly lifecycle: LifecycleWords | null;
}

/** The sizes of the ranges copied, in bytes (each buffer's own size, rounded to 4 by its owner). */
function ranges(
  buffers: PersistentBuffers,
  bytes: { particles: number; health: number; lifecycle: LifecycleBytes | null },
) {
  // The particle records first, chunk by chunk: together they are the one range 'particles'.
  const list: { name: string; buffer: GPUBuffer; offset: number; size: number }[] = [];
  const recordBytes = bytes.particles / buffers.particles.capacity;
  buffers.particles.forEachChunk(0, buffers.particles.capacity, (buffer, at, _first, n) =>
    list.push({ name: 'particles', buffer, offset: at * recordBytes, size: n * recordBytes }),
  );
  list.push({ name: 'health', buffer: buffers.health, offset: 0, size: bytes.health });
  const life = buffers.lifecycle;
  if (life && bytes.lifecycle) {
    for (const name of ['life', 'lists', 'freeList', 'counters', 'ruleStats'] as const) {
      list.push({ name, buffer: life[name], offset: 0, size: bytes.lifecycle[name] });
    }
  }
  return list;
}

/** The lifecycle's words a snapshot holds, in bytes per buffer. */
export type LifecycleBytes = Record<'life' | 'lists' | 'freeList' | 'counters' | 'ruleStats', number>;

/**
 * Copies the state into one staging buffer now (after every submitted
 * step) and resolves with it when the GPU has reached the copy.
 */
export async function readPersistent(
  device: GPUDevice,
  buffers: PersistentBuffers,
  bytes: { particles: number; health: number; lifecycle: LifecycleBytes | null },
): Promise<PersistentWords> {
  const parts = ranges(buffers, bytes);
  const total = parts.reduce((sum, part) => sum + part.size, 0);
  const staging = device.createBuffer({
    label: 'snapshot.readback',
    size: total,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  try {
    const encoder = device.createCommandEncoder({ label: 'snapshot.read' });
    let at = 0;
    for (const part of parts) {
      encoder.copyBufferToBuffer(part.buffer, part.offset, staging, at, part.size);
      at += part.size;
    }
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const copy = staging.getMappedRange().slice(0);
    staging.unmap();
    // Each name's parts lie one after another in the staging buffer.
    const words = new Map<string, ArrayBuffer>();
    at = 0;
    for (const name of new Set(parts.map((part) => part.name))) {
      const size = parts.filter((part) => part.name === name).reduce((sum, part) => sum + part.size, 0);
      words.set(name, copy.slice(at, at + size));
      at += size;
    }
    const u32 = (name: string) => new Uint32Array(words.get(name) as ArrayBuffer);
    return {
      particles: new Float32Array(words.get('particles') as ArrayBuffer),
      health: u32('health'),
      lifecycle: buffers.lifecycle
        ? {
            life: u32('life'),
            lists: u32('lists'),
            freeList: u32('freeList'),
            counters: u32('counters'),
            ruleStats: u32('ruleStats'),
          }
        : null,
    };
  } finally {
    staging.destroy();
  }
}

/** Writes restored words into the buffers (ordered before any later submit). */
export function writePersistent(
  device: GPUDevice,
  buffers: PersistentBuffers,
  words: { particles: Float32Array; health: Uint32Array; lifecycle: LifecycleWords | null },
): void {
  const queue = device.queue;
  buffers.particles.write(0, words.particles);
  queue.writeBuffer(buffers.health, 0, words.health as Uint32Array<ArrayBuffer>);
  const life = buffers.lifecycle;
  if (life && words.lifecycle) {
    for (const name of ['life', 'lists', 'freeList', 'counters', 'ruleStats'] as const) {
      queue.writeBuffer(life[name], 0, words.lifecycle[name] as Uint32Array<ArrayBuffer>);
    }
    // The step's inverse map of the live list (src/gpu/lifecycle/lifeBuffers.ts): derived, so not in the snapshot.
    const counters = words.lifecycle.counters;
    const F = LIFE_COUNTERS.wordOffsets;
    const map = liveIndexMap(
      words.lifecycle.lists,
      counters[F.live] as number,
      counters[F.parity] as number,
      life.capacity,
    );
    queue.writeBuffer(life.liveIndexOf, 0, map);
    // So is the step's bound past every live slot: the restored live list's.
    const highWater = highWaterOf(
      words.lifecycle.lists,
      counters[F.live] as number,
      counters[F.parity] as number,
      life.capacity,
    );
    queue.writeBuffer(life.highWater, 0, new Uint32Array([highWater, 0, 0, 0]));
    // The draws' indirect arguments, which the emit plan writes each step from the live count
    // (shaders/lifecycle/lifePlan.wgsl): derived, so not in the snapshot, but a paused restored system must draw.
    const live = words.lifecycle.counters[LIFE_COUNTERS.wordOffsets.live] as number;
    const draw = (at: number, args: number[]) => queue.writeBuffer(life.args, at * 4, new Uint32Array(args));
    draw(ARGS.drawQuads, [6 * live, 1, 0, 0]);
    draw(ARGS.drawInstanced, [6, live, 0, 0]);
    draw(ARGS.drawPoints, [live, 1, 0, 0]);
  }
}
