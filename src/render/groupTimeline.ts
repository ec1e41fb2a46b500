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

export const GROUP_KINDS = { hidden: 0, rocket: 1, burst: 2 } as const;
export type GroupKind = keyof typeof GROUP_KINDS;

export class GroupTimeline {
  readonly buffer: GPUBuffer;
  /** Per group: birth time, lifetime, hue, kind. */
  private readonly data: Float32Array<ArrayBuffer>;
  private dirtyFrom = Infinity;
  private dirtyTo = -1;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    readonly groups: number,
    readonly groupSize: number,
    label = 'GroupTimeline',
  ) {
    this.data = new Float32Array(groups * 4);
    this.buffer = device.createBuffer({
      label: `${label}.buffer`,
      size: Math.max(16, this.data.byteLength),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
  }

  /** Records group `group`'s (re)launch. Uploaded by the next `upload()`. */
  set(group: number, kind: GroupKind, birth: number, lifetime: number, hue: number): void {
    this.data.set([birth, lifetime, hue, GROUP_KINDS[kind]], group * 4);
    this.dirtyFrom = Math.min(this.dirtyFrom, group);
    this.dirtyTo = Math.max(this.dirtyTo, group);
  }

  kind(group: number): GroupKind {
    const value = this.data[group * 4 + 3];
    return value === GROUP_KINDS.rocket ? 'rocket' : value === GROUP_KINDS.burst ? 'burst' : 'hidden';
  }

  birth(group: number): number {
    return this.data[group * 4] as number;
  }

  lifetime(group: number): number {
    return this.data[group * 4 + 1] as number;
  }

  /** Writes the groups changed since the last upload through the queue. */
  upload(): void {
    if (this.destroyed || this.dirtyTo < 0) return;
    this.device.queue.writeBuffer(
      this.buffer,
      this.dirtyFrom * 16,
      this.data,
      this.dirtyFrom * 4,
      (this.dirtyTo - this.dirtyFrom + 1) * 4,
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
