/**
 * Owns the contact passes (shaders/collisions/contacts.wgsl): the candidate lists
 * made once a step after the grid, the count and resolve dispatches of each
 * Jacobi iteration (and the listing mode the tests use), the link buffers, and
 * the per-particle counts and corrections that shaders/collisions/collide.wgsl applies.
 */
import type { PackedLinks } from '../../core/collisions/links';
import { Kernel } from '../shared/kernel';
import type { GridPass } from './gridPass';
import type { ParticleBuffer } from '../shared/particleBuffer';
import { shaders } from '../../shaders';
import { CONTACT_PARAMS } from '../../shaders/params';
import { UniformRing } from '../shared/uniformRing';

export const CONTACT_MODES = { count: 0, resolve: 1, list: 2, candidates: 3 } as const;
/**
 * Room for each particle's candidates (the particles in the 27 cells around
 * its own): twice the 13.5 of the benchmark's scene (half a particle a cell),
 * so that a particle seldom walks the grid instead; less where the device's
 * buffers are smaller.
 */
export const MAX_CANDIDATES = 32;

/**
 * Room for each particle's near list (the candidates in reach, which
 * MODE_COUNT keeps for MODE_RESOLVE): about two in the benchmark's scene, up
 * to twelve or so in a pile of equal balls; a longer list is filtered again.
 */
export const NEAR_ROOM = 8;

/**
 * How far past its reach a particle's wide list (its candidates kept across
 * a step's iterations) reaches, as a share of the grid's cell: the lists stay
 * valid until a particle has moved half of it within the step
 * (shaders/collisions/contacts.wgsl); about 3 of the benchmark scene's 13.5 candidates.
 */
export const LIST_MARGIN = 0.1;

/** Words a particle of the active buffer holds besides its candidates: active counts, candidates found, near count and list. */
const WORDS_BESIDE_CANDIDATES = 3 + NEAR_ROOM;

/**
 * The most bytes a slot takes in one of the resolver's buffers (each one
 * binding): two vec4 of corrections (with the grid two more, the position
 * copy), and with the grid the active buffer's words beside the candidates
 * (the candidates shrink to fit, down to none) and the grid's 32-byte cell
 * record.
 */
export function contactSlotBytes(grid: boolean): number {
  return Math.max(32, grid ? Math.max(4 * (2 + 1 + NEAR_ROOM), 16 * DELTA_VECTORS_WITH_GRID) : 4 * 2);
}

/**
 * The vec4 a particle of the deltas buffer holds with the grid: its position
 * correction and velocity change, then (from vec4 2 * capacity) the position
 * copy: each particle's position and radius, then its velocity, written by the
 * candidate lists and by each iteration's apply pass. The count's candidate
 * test reads a candidate's 16 bytes there instead of its 64-byte record.
 */
const DELTA_VECTORS_WITH_GRID = 4;

/** Where the position copy starts in the deltas buffer, in vec4 (with the grid; shaders/collisions/contacts.wgsl positionCopy). */
export function positionCopyIndex(capacity: number): number {
  return 2 * capacity;
}

/**
 * The active buffer's last word (with the grid): whether the kept lists went
 * stale, after each particle's counts, candidates and near list
 * (shaders/collisions/contacts.wgsl, staleWord).
 */
export function staleWordIndex(capacity: number, candidates: number): number {
  return (3 + candidates + NEAR_ROOM) * capacity;
}

/** The active buffer's words past the per-particle ones: the stale word. */
const ACTIVE_TAIL_WORDS = 1;

/** The candidates a particle has room for, with the active counts and near lists, in one buffer the device allows. */
export function candidateRoom(capacity: number, limits: GPUSupportedLimits): number {
  // Besides: the kept lists' stale word.
  const words = Math.floor(Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize) / 4) - ACTIVE_TAIL_WORDS;
  return Math.max(0, Math.min(MAX_CANDIDATES, Math.floor(words / Math.max(capacity, 1)) - WORDS_BESIDE_CANDIDATES));
}
export type ContactModeName = keyof typeof CONTACT_MODES;
type ModeKernels = Record<ContactModeName, Kernel>;

export interface ContactStep {
  count: number;
  dt: number;
  skin: number;
  restitution: number;
  /** With the grid's inverse cell size, or null for links alone. */
  inverseCellSize: number | null;
  /**
   * Whether each particle's wide list (the candidates within reach + skin +
   * margin) may be kept across the step's iterations: only while the resolver's corrections alone move particles
   * between them (no world colliders); true unless said.
   */
  keepLists?: boolean;
}

export class ContactPass {
  /**
   * Active contacts per particle (closing | penetrating << 16); in list mode,
   * neighbours found. Then (from word `capacity`) each particle's number of
   * candidates (with a wide list, 1 + its length above 16 bits), then their
   * lists (a wide list after the candidates), `candidates` words a particle; then (with
   * the grid) each particle's number in reach and their list, NEAR_ROOM words
   * a particle, and one word: whether the kept lists went stale.
   */
  readonly active: GPUBuffer;
  /**
   * Two vec4 a particle: position correction, velocity change (list mode:
   * neighbour indices); with the grid, then the position copy, two vec4 a
   * particle (positionCopyIndex).
   */
  readonly deltas: GPUBuffer;
  private links: GPUBuffer;
  private linkIndex: GPUBuffer;
  private linkCount = 0;
  private readonly placeholders: GPUBuffer[];
  private grid: GridPass | null = null;
  private bindGroup: GPUBindGroup | null = null;
  private readonly params: UniformRing;
  private readonly block = CONTACT_PARAMS.value();
  private destroyed = false;
  /** Where the position copy starts in `deltas`, in vec4; 0: none (links alone). */
  readonly positionCopy: number;
  /** The Jacobi iterations (count, resolve) recorded since the last candidate lists. */
  private iteration = 0;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    private readonly kernels: ModeKernels,
    /** The same without the links' code, used while there are none. */
    private readonly withoutLinks: ModeKernels,
    /** Room for each particle's candidates. */
    readonly candidates: number,
    grid: boolean,
  ) {
    const capacity = particles.capacity;
    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.active = device.createBuffer({
      label: 'ContactPass.active',
      size:
        4 *
        (grid
          ? staleWordIndex(Math.max(capacity, 1), candidates) + ACTIVE_TAIL_WORDS
          : Math.max(capacity, 1) * (2 + candidates)),
      usage: storage,
    });
    this.deltas = device.createBuffer({
      label: 'ContactPass.deltas',
      size: Math.max(capacity, 1) * 16 * (grid ? DELTA_VECTORS_WITH_GRID : 2),
      usage: storage,
    });
    this.positionCopy = grid ? positionCopyIndex(capacity) : 0;
    this.links = device.createBuffer({ label: 'ContactPass.links', size: 32, usage: storage });
    this.linkIndex = device.createBuffer({ label: 'ContactPass.linkIndex', size: (capacity + 2) * 4, usage: storage });
    // Bound in place of the grid's buffers when there are no particle-particle collisions.
    this.placeholders = ['starts', 'entries', 'cells'].map((name) =>
      device.createBuffer({ label: `ContactPass.placeholder(${name})`, size: 16, usage: GPUBufferUsage.STORAGE }),
    );
    this.params = new UniformRing(device, 'ContactPass.params', CONTACT_PARAMS.size, particles.submissions);
  }

  /**
   * Created synchronously: the caller's error scopes catch any failure. With
   * `grid` false (links alone) it makes no room for candidate lists.
   */
  static create(device: GPUDevice, particles: ParticleBuffer, workgroupSize: number, grid: boolean): ContactPass {
    // Links alone need no candidate lists.
    const candidates = grid ? candidateRoom(particles.capacity, device.limits) : 0;
    const constants = (mode: ContactModeName, links = true) => ({
      WORKGROUP_SIZE: workgroupSize,
      MODE: CONTACT_MODES[mode],
      CANDIDATES: candidates,
      LINKS: links ? 1 : 0,
    });
    const count = Kernel.create(device, particles, {
      name: 'ContactPass(count)',
      file: 'contacts.wgsl',
      code: (store) => shaders.contacts(store),
      constants: constants('count'),
      // params; links, linkIndex, the grid's starts, entries and cells; active counts, deltas.
      groups: [
        [
          'uniform-dynamic',
          'read-only-storage',
          'read-only-storage',
          'read-only-storage',
          'read-only-storage',
          'read-only-storage',
          'storage',
          'storage',
        ],
      ],
    });
    // Every kernel is a variant of `count`: one layout, one bind group for all.
    const variant = (mode: ContactModeName, links = true) =>
      count.variant({ name: `ContactPass(${mode}${links ? '' : ', no links'})`, constants: constants(mode, links) });
    const kernels = {
      count,
      resolve: variant('resolve'),
      list: variant('list'),
      candidates: variant('candidates'),
    };
    // The iterations of a system without links (the usual one): their code compiled out.
    const withoutLinks = { ...kernels, count: variant('count', false), resolve: variant('resolve', false) };
    return new ContactPass(device, particles, kernels, withoutLinks, candidates, grid);
  }

  /** Uploads links (replacing the previous ones). */
  setLinks(links: PackedLinks): void {
    const bytes = links.records.bytes;
    if (this.links.size < bytes.byteLength) {
      this.links.destroy();
      this.links = this.device.createBuffer({
        label: 'ContactPass.links',
        size: bytes.byteLength,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      });
      this.bindGroup = null;
    }
    if (this.linkIndex.size < links.index.byteLength) {
      this.linkIndex.destroy();
      this.linkIndex = this.device.createBuffer({
        label: 'ContactPass.linkIndex',
        size: links.index.byteLength,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      });
      this.bindGroup = null;
    }
    this.device.queue.writeBuffer(this.links, 0, bytes);
    this.device.queue.writeBuffer(this.linkIndex, 0, links.index);
    this.linkCount = links.records.count;
  }

  get hasLinks(): boolean {
    return this.linkCount > 0;
  }

  /** Reads the grid's buffers from now on (null: links only). */
  useGrid(grid: GridPass | null): void {
    if (grid !== this.grid) this.bindGroup = null;
    this.grid = grid;
  }

  private currentBindGroup(): GPUBindGroup {
    if (!this.bindGroup) {
      const [starts, entries, cells] = this.grid
        ? [this.grid.starts, this.grid.entries, this.grid.cells]
        : (this.placeholders as [GPUBuffer, GPUBuffer, GPUBuffer]);
      this.bindGroup = this.kernels.count.bindGroup(
        0,
        [this.params.binding, this.links, this.linkIndex, starts, entries, cells, this.active, this.deltas],
        'ContactPass.bindGroup',
      );
    }
    return this.bindGroup;
  }

  /**
   * Records one dispatch of `mode` over particles [0, step.count). With the
   * grid, 'candidates' must follow each rebuild before any other mode, and
   * 'resolve' must follow a 'count' on the same state (it visits the pairs the
   * count found in reach). Each 'resolve' ends an iteration: the next 'count'
   * reads the wide lists the step's first one made (with `step.keepLists`).
   */
  encode(encoder: GPUCommandEncoder, mode: ContactModeName, step: ContactStep): void {
    const grid = step.inverseCellSize !== null ? this.grid : null;
    if (mode === 'candidates') this.iteration = 0;
    const keepLists = grid !== null && this.candidates > 0 && (step.keepLists ?? true);
    const margin = keepLists ? Math.fround(LIST_MARGIN / (step.inverseCellSize as number)) : 0;
    const block = this.block
      .set('count', step.count)
      .set('bucketMask', grid ? grid.buckets - 1 : 0)
      .set('inverseCellSize', step.inverseCellSize ?? 0)
      .set('pairs', grid ? 1 : 0)
      .set('dt', step.dt)
      .set('skin', step.skin)
      .set('restitution', step.restitution)
      .set('linkRefs', this.particles.capacity + 1)
      .set('capacity', this.particles.capacity)
      .set('margin', margin)
      .set('positionCopy', this.positionCopy)
      // Read only with kept lists: otherwise 0, so that every iteration shares one parameter block.
      .set('iteration', keepLists ? this.iteration : 0);
    if (mode === 'resolve') this.iteration++;
    const offset = this.params.offsetFor(block.bytes);
    const pass = encoder.beginComputePass({ label: `ContactPass(${mode})` });
    const kernels = this.linkCount > 0 ? this.kernels : this.withoutLinks;
    kernels[mode].record(pass, [{ group: this.currentBindGroup(), offsets: [offset] }], { count: step.count });
    pass.end();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
    for (const buffer of [this.active, this.deltas, this.links, this.linkIndex, ...this.placeholders]) buffer.destroy();
  }
}
