/**
 * Per-group life data for the `life` colour mode: particles [g * groupSize,
 * (g + 1) * groupSize) form group g, and the host records when the group was
 * (re)launched, how long it lives, its hue and what it is. The shader reads it
 * to colour, size and fade every particle over its group's life, so a burst
 * of thousands of particles is described by one vec4 from the host.
 *
 * This is render data only: the particle state has no age attribute, and
 * until the emitters issue lands, launches are the host's.
 */

import { defineStruct, type StructArray } from '../core/schema';

export const GROUP_KINDS = { hidden: 0, rocket: 1, burst: 2 } as const;
export type GroupKind = keyof typeof GROUP_KINDS;

/** One group's record, declared with the schema (shaders/render/records.wgsl reads `array<GroupLife>`). */
export const GROUP_LIFE = defineStruct('GroupLife', {
  birth: { type: 'f32', doc: 'seconds, the time of the (re)launch' },
  lifetime: 'f32',
  hue: { type: 'f32', doc: 'in [0, 1)' },
  kind: { type: 'f32', doc: '0 hidden, 1 rocket, 2 burst (GROUP_KINDS)' },
});

export class GroupTimeline {
  readonly buffer: GPUBuffer;
  private readonly data: StructArray<typeof GROUP_LIFE.fields>;
  private dirtyFrom = Infinity;
  private dirtyTo = -1;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    readonly groups: number,
    readonly groupSize: number,
    label = 'GroupTimeline',
  ) {
    this.data = GROUP_LIFE.array(groups);
    this.buffer = device.createBuffer({
      label: `${label}.buffer`,
      size: this.data.bytes.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
  }

  /** Records group `group`'s (re)launch. Uploaded by the next `upload()`. */
  set(group: number, kind: GroupKind, birth: number, lifetime: number, hue: number): void {
    this.data.set(group, 'birth', birth).set(group, 'lifetime', lifetime).set(group, 'hue', hue);
    this.data.set(group, 'kind', GROUP_KINDS[kind]);
    this.dirtyFrom = Math.min(this.dirtyFrom, group);
    this.dirtyTo = Math.max(this.dirtyTo, group);
  }

  kind(group: number): GroupKind {
    const value = this.data.get(group, 'kind');
    return value === GROUP_KINDS.rocket ? 'rocket' : value === GROUP_KINDS.burst ? 'burst' : 'hidden';
  }

  birth(group: number): number {
    return this.data.get(group, 'birth');
  }

  lifetime(group: number): number {
    return this.data.get(group, 'lifetime');
  }

  /** Writes the groups changed since the last upload through the queue. */
  upload(): void {
    if (this.destroyed || this.dirtyTo < 0) return;
    this.device.queue.writeBuffer(
      this.buffer,
      this.dirtyFrom * GROUP_LIFE.size,
      this.data.floats,
      this.dirtyFrom * GROUP_LIFE.words,
      (this.dirtyTo - this.dirtyFrom + 1) * GROUP_LIFE.words,
    );
    this.dirtyFrom = Infinity;
    this.dirtyTo = -1;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.buffer.destroy();
  }
}
