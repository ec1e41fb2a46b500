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

/** What a group is, as the shader reads it: a number per kind. */
export const GROUP_KINDS = {
  /** Not drawn. */
  hidden: 0,
  /** One particle drawn for the group (its particles share one state until it bursts), warm and larger. */
  rocket: 1,
  /** Every particle drawn, coloured by the group's hue, fading and resizing over its life. */
  burst: 2,
} as const;
/** A group's kind: `hidden`, `rocket` or `burst`. */
export type GroupKind = keyof typeof GROUP_KINDS;

/** One group's record, declared with the schema (shaders/render/records.wgsl reads `array<GroupLife>`). */
export const GROUP_LIFE = defineStruct('GroupLife', {
  birth: { type: 'f32', doc: 'seconds, the time of the (re)launch' },
  lifetime: 'f32',
  hue: { type: 'f32', doc: 'in [0, 1)' },
  kind: { type: 'f32', doc: '0 hidden, 1 rocket, 2 burst (GROUP_KINDS)' },
});

/**
 * Per-group life data for ParticlePass's `life` colour mode: when each group
 * of `groupSize` particles was (re)launched, how long it lives, its hue and kind.
 */
export class GroupTimeline {
  /** The GPU copy of the records (read-only storage for ParticlePass); written by `upload()`. */
  readonly buffer: GPUBuffer;
  private readonly data: StructArray<typeof GROUP_LIFE.fields>;
  private dirtyFrom = Infinity;
  private dirtyTo = -1;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    /** Number of groups. */
    readonly groups: number,
    /** Particles a group: group g is particles [g * groupSize, (g + 1) * groupSize). */
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

  /** Group `group`'s kind, as last set. */
  kind(group: number): GroupKind {
    const value = this.data.get(group, 'kind');
    return value === GROUP_KINDS.rocket ? 'rocket' : value === GROUP_KINDS.burst ? 'burst' : 'hidden';
  }

  /** Group `group`'s launch time, seconds, as last set. */
  birth(group: number): number {
    return this.data.get(group, 'birth');
  }

  /** Group `group`'s lifetime, seconds, as last set. */
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

  /** Frees the buffer. Safe twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.buffer.destroy();
  }
}
