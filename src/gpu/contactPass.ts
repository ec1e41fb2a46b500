/**
 * Owns the contact passes (shaders/contacts.wgsl): the candidate lists
 * made once a step after the grid, the count and resolve dispatches of each
 * Jacobi iteration (and the listing mode the tests use), the link buffers, and
 * the per-particle counts and corrections that shaders/collide.wgsl applies.
 */
import type { PackedLinks } from '../core/collisions/links';
import { isHardwareDevice, type DispatchMode } from './device';
import { dispatchSize } from './dispatch';
import { Kernel } from './kernel';
import type { GridPass } from './gridPass';
import type { LiveDispatch } from './lifeBuffers';
import type { ParticleBuffer } from './particleBuffer';
import { shaders } from '../shaders';
import { CONTACT_PARAMS } from './passParams';
import { UniformRing } from './uniformRing';

export const CONTACT_MODES = { count: 0, resolve: 1, list: 2, candidates: 3 } as const;
/**
 * Room for each particle's candidates (the particles in the 27 cells around
 * its own): twice the 13.5 of the benchmark's scene (half a particle a cell),
 * so that a particle seldom walks the grid instead; less where the device's
 * buffers are smaller.
 */
export const MAX_CANDIDATES = 32;

/**
 * Room for each grid entry's near list (the candidates in reach, which
 * MODE_COUNT keeps for MODE_RESOLVE): about two in the benchmark's scene, up
 * to twelve or so in a pile of equal balls; a longer list is filtered again.
 */
export const NEAR_ROOM = 8;

/**
 * How far past its reach a particle's wide list (its candidates kept across
 * a step's iterations) reaches, as a share of the grid's cell: the lists stay
 * valid until a particle has moved half of it within the step
 * (shaders/contacts.wgsl); about 3 of the benchmark scene's 13.5 candidates.
 */
export const LIST_MARGIN = 0.1;

/**
 * Where a particle whose candidates overflow its list walks the grid
 * (shaders/contacts.wgsl, WALKS): 'inline', in the count, resolve and list
 * passes themselves; 'apart', in a walk pass of its own after each, dispatched
 * with arguments the candidate lists write, no workgroups while no list
 * overflows. A GPU skips a loop no invocation enters, so inline costs it
 * nothing; a software adapter runs the loop's body once under a lane mask for
 * every invocation, entered or not, and the extra dispatch is the cheaper way.
 */
export type ContactWalk = 'inline' | 'apart';

/**
 * How the resolver's tables (the position copy, the candidate and near lists)
 * are laid out and walked (shaders/contacts.wgsl, ENTRY_ORDER): 'particles',
 * by particle, every pass over every slot in particle order; 'entries', by
 * grid entry, the count and the resolve over the grid's entries alone (in cell
 * order), dispatched with arguments the candidate lists write from the grid's
 * entry count. A pool with emitters has its free slots out of the grid: over
 * the entries, a software adapter, which pays for every invocation, even one
 * that returns at once, no longer pays for them (at 2^18 slots with 26,214
 * live, 442-480 against 834-840 ms a step; docs/collisions.md). Over a nearly
 * full pool the particle order is the cheaper one there (ENTRIES_BELOW); a GPU
 * dispatches directly over every slot and skips the free ones for almost
 * nothing. Either order gives the same bits, so a step may take either.
 */
export type ContactOrder = 'particles' | 'entries';

/**
 * The share of a pool's slots live below which an 'auto' resolver walks the
 * entries: scripts/profile-emitter-contacts.ts found the orders crossing at
 * about 55% live in a pool filled in slot order and about 80% in a churned
 * one, its slots shuffled (docs/collisions.md).
 */
export const ENTRIES_BELOW = 0.75;

/**
 * The orders a system's resolver may take, the first one until a live count
 * is known: `choice` 'auto' (or undefined) gives both, 'entries' first (a
 * pool starts nearly empty), for a pool with emitters under indirect
 * dispatch, where free slots cost; else 'particles'. A named order is the
 * only one.
 */
export function contactOrdersFor(
  choice: ContactOrder | 'auto' | undefined,
  emitters: boolean,
  dispatch: DispatchMode,
): ContactOrder[] {
  if (choice === 'particles' || choice === 'entries') return [choice];
  if (choice !== undefined && choice !== 'auto') {
    throw new TypeError(`contactOrder = ${JSON.stringify(choice)} must be 'auto', 'particles' or 'entries'`);
  }
  return emitters && dispatch === 'indirect' ? ['entries', 'particles'] : ['particles'];
}

/** The order for a step of a pool of `capacity` slots with about `live` live (ENTRIES_BELOW). */
export function contactOrderFor(live: number, capacity: number): ContactOrder {
  return live < ENTRIES_BELOW * capacity ? 'entries' : 'particles';
}

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

/** Where the position copy starts in the deltas buffer, in vec4 (with the grid; shaders/contacts.wgsl positionCopy). */
export function positionCopyIndex(capacity: number): number {
  return 2 * capacity;
}

/**
 * The active buffer's last word (with the grid): whether the kept lists went
 * stale, after each particle's counts, candidates and near list
 * (shaders/contacts.wgsl, staleWord).
 */
export function staleWordIndex(capacity: number, candidates: number): number {
  return (3 + candidates + NEAR_ROOM) * capacity;
}

/** After the stale word: the walk pass's dispatch arguments (x, y, z workgroups; walks apart). */
export function walkArgsIndex(capacity: number, candidates: number): number {
  return staleWordIndex(capacity, candidates) + 1;
}

/** After the walk's arguments: the count's and the resolve's over the grid's entries (ContactOrder 'entries'). */
export function entryArgsIndex(capacity: number, candidates: number): number {
  return walkArgsIndex(capacity, candidates) + 3;
}

/** The active buffer's words past the per-particle ones: the stale word, the walk pass's and the entries' arguments. */
const ACTIVE_TAIL_WORDS = 7;

/** The candidates a particle has room for, with the active counts and near lists, in one buffer the device allows. */
export function candidateRoom(capacity: number, limits: GPUSupportedLimits): number {
  // Besides: the kept lists' stale word and the walk pass's arguments.
  const words = Math.floor(Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize) / 4) - ACTIVE_TAIL_WORDS;
  return Math.max(0, Math.min(MAX_CANDIDATES, Math.floor(words / Math.max(capacity, 1)) - WORDS_BESIDE_CANDIDATES));
}
export type ContactModeName = keyof typeof CONTACT_MODES;
/** The modes that visit each particle's contacts, and so may walk the grid. */
type WalkMode = Exclude<ContactModeName, 'candidates'>;
type WalkKernels = Record<WalkMode, Kernel>;

/** One order's kernels (ContactOrder). */
interface OrderKernels {
  kernels: Record<ContactModeName, Kernel>;
  /** The same without the links' code, used while there are none. */
  withoutLinks: Record<ContactModeName, Kernel>;
  /** Walks apart: the walk passes of the count, resolve and list modes, with links' code and without. */
  walkKernels: { links: WalkKernels; withoutLinks: WalkKernels } | null;
}
/** shaders/contacts.wgsl's WALKS: the walk in the pass, the list pass of walks apart, its walk pass. */
const WALKS = { inline: 0, none: 1, only: 2 } as const;

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
  /**
   * How the step lays out and walks the resolver's tables (ContactOrder), read
   * at its candidate lists; one of the pass's `orders`, else the last step's.
   */
  order?: ContactOrder;
  /**
   * A pool with emitters whose grid was built over the live list
   * (GridPass.encode's `live`): the candidate lists, by entry without links,
   * run over the live count's invocations as the step's walk does (the
   * entries are at most the live particles), not over every slot.
   */
  live?: LiveDispatch;
}

export class ContactPass {
  /**
   * Active contacts per particle (closing | penetrating << 16); in list mode,
   * neighbours found. Then (from word `capacity`) each particle's number of
   * candidates (with a wide list, 1 + its length above 16 bits), then their
   * lists (a wide list after the candidates), `candidates` words a particle; then (with
   * the grid) each particle's number in reach and their list, NEAR_ROOM words
   * a particle, and one word: whether the kept lists went stale; then the
   * walk pass's three dispatch arguments (walks apart).
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
  /** The walk pass's dispatch arguments, copied from the active buffer after the candidate lists (walks apart). */
  private readonly walkArgs: GPUBuffer | null;
  /** The count's and the resolve's dispatch arguments, copied from the active buffer after the candidate lists (entries). */
  private readonly entryArgs: GPUBuffer | null;
  private grid: GridPass | null = null;
  private bindGroup: GPUBindGroup | null = null;
  private readonly params: UniformRing;
  private readonly block = CONTACT_PARAMS.value();
  private destroyed = false;
  /** Where the position copy starts in `deltas`, in vec4; 0: none (links alone). */
  readonly positionCopy: number;
  /** The Jacobi iterations (count, resolve) recorded since the last candidate lists. */
  private iteration = 0;

  /** Each order's kernels, made on its first step (one order's at creation). */
  private readonly kernelSets: Partial<Record<ContactOrder, OrderKernels>>;
  /** The order of the step being recorded (chosen at its candidate lists), and of the last one. */
  private stepOrder: ContactOrder;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    /** Makes one order's kernels (variants of one kernel, so one bind group serves every order). */
    private readonly buildKernels: (order: ContactOrder) => OrderKernels,
    /** Room for each particle's candidates. */
    readonly candidates: number,
    grid: boolean,
    private readonly workgroupSize: number,
    /** The orders this pass may lay its tables out in (ContactOrder), the first one until a step asks for another. */
    readonly orders: readonly ContactOrder[],
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
    this.stepOrder = orders[0] as ContactOrder;
    const first = buildKernels(this.stepOrder);
    this.kernelSets = { [this.stepOrder]: first };
    this.walkArgs = first.walkKernels
      ? device.createBuffer({
          label: 'ContactPass.walkArgs',
          size: 12,
          usage: GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_DST,
        })
      : null;
    this.entryArgs = orders.includes('entries')
      ? device.createBuffer({
          label: 'ContactPass.entryArgs',
          size: 12,
          usage: GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_DST,
        })
      : null;
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
   * `grid` false (links alone) it makes no room for candidate lists. `walk`:
   * 'inline' on a hardware adapter, else 'apart' (ContactWalk). `orders`
   * (ContactOrder): the orders its steps may choose, the first one's kernels
   * made now (another's on its first step); 'entries' needs the grid.
   */
  static create(
    device: GPUDevice,
    particles: ParticleBuffer,
    workgroupSize: number,
    grid: boolean,
    walk: ContactWalk = isHardwareDevice(device) ? 'inline' : 'apart',
    orders: readonly ContactOrder[] = ['particles'],
  ): ContactPass {
    // Links alone need no candidate lists.
    const candidates = grid ? candidateRoom(particles.capacity, device.limits) : 0;
    const allowed = orders.filter((order) => order === 'particles' || grid);
    if (allowed.length === 0) allowed.push('particles');
    // Without candidate lists nothing overflows: nothing walks apart.
    const apart = walk === 'apart' && grid;
    const inPass = apart ? WALKS.none : WALKS.inline;
    const constants = (mode: ContactModeName, order: ContactOrder, links = true, walks: number = inPass) => ({
      WORKGROUP_SIZE: workgroupSize,
      MODE: CONTACT_MODES[mode],
      CANDIDATES: candidates,
      LINKS: links ? 1 : 0,
      WALKS: walks,
      ENTRY_ORDER: order === 'entries' ? 1 : 0,
    });
    const first = allowed[0] as ContactOrder;
    const base = Kernel.create(device, particles, {
      name: `ContactPass(count${first === 'entries' ? ', entries' : ''})`,
      file: 'contacts.wgsl',
      code: shaders.contacts(),
      constants: constants('count', first),
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
    // Every kernel is a variant of `base`: one layout, one bind group for every order.
    const build = (order: ContactOrder): OrderKernels => {
      const named = (what: string, links: boolean) =>
        `ContactPass(${what}${links ? '' : ', no links'}${order === 'entries' ? ', entries' : ''})`;
      const variant = (mode: ContactModeName, links = true) =>
        order === first && mode === 'count' && links
          ? base
          : base.variant({ name: named(mode, links), constants: constants(mode, order, links) });
      const walkVariant = (mode: WalkMode, links = true) =>
        base.variant({ name: named(`${mode} walk`, links), constants: constants(mode, order, links, WALKS.only) });
      const kernels = {
        count: variant('count'),
        resolve: variant('resolve'),
        list: variant('list'),
        candidates: variant('candidates'),
      };
      return {
        kernels,
        // The iterations of a system without links (the usual one): their code compiled out; over the entries, the
        // candidate lists' clearing of the particles out of the grid too (shaders/contacts.wgsl).
        withoutLinks: {
          ...kernels,
          count: variant('count', false),
          resolve: variant('resolve', false),
          ...(order === 'entries' ? { candidates: variant('candidates', false) } : {}),
        },
        walkKernels: apart
          ? {
              links: { count: walkVariant('count'), resolve: walkVariant('resolve'), list: walkVariant('list') },
              withoutLinks: {
                count: walkVariant('count', false),
                resolve: walkVariant('resolve', false),
                list: walkVariant('list'),
              },
            }
          : null,
      };
    };
    return new ContactPass(device, particles, build, candidates, grid, workgroupSize, allowed);
  }

  /** The order a step asking for `order` takes: it, where this pass allows it, else the last step's. */
  orderFor(order: ContactOrder | undefined): ContactOrder {
    return order !== undefined && this.orders.includes(order) ? order : this.stepOrder;
  }

  /** The order of the step recorded last (the first of `orders` before any). */
  get order(): ContactOrder {
    return this.stepOrder;
  }

  /** One order's kernels, made on first need (inside the caller's error scopes). */
  private kernelsFor(order: ContactOrder): OrderKernels {
    let set = this.kernelSets[order];
    if (!set) {
      set = this.buildKernels(order);
      this.kernelSets[order] = set;
    }
    return set;
  }

  /** Where a particle whose candidates overflow its list walks the grid (ContactWalk). */
  get walk(): ContactWalk {
    return this.walkArgs ? 'apart' : 'inline';
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
      this.bindGroup = this.kernelsFor(this.stepOrder).kernels.count.bindGroup(
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
    if (mode === 'candidates') {
      this.iteration = 0;
      // The candidate lists lay the step's tables out: the rest of the step walks them in their order.
      this.stepOrder = this.orderFor(step.order);
    }
    const set = this.kernelsFor(this.stepOrder);
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
    const [walkGroupsX, walkGroupsY] = dispatchSize(
      step.count,
      this.workgroupSize,
      this.device.limits.maxComputeWorkgroupsPerDimension,
    );
    block.set('walkGroupsX', walkGroupsX).set('walkGroupsY', walkGroupsY);
    if (mode === 'resolve') this.iteration++;
    const offset = this.params.offsetFor(block.bytes);
    // Walks apart: no walk pass unless a candidate list of this rebuild overflows and sets its arguments.
    const argsOffset = 4 * walkArgsIndex(this.particles.capacity, this.candidates);
    const walkArgs = grid ? this.walkArgs : null;
    if (mode === 'candidates' && walkArgs) encoder.clearBuffer(this.active, argsOffset, 12);
    const pass = encoder.beginComputePass({ label: `ContactPass(${mode})` });
    const links = this.linkCount > 0;
    const kernels = links ? set.kernels : set.withoutLinks;
    const groups = [{ group: this.currentBindGroup(), offsets: [offset] }];
    // Over the grid's entries (ContactOrder 'entries'): the count and the resolve dispatched with the arguments
    // the candidate lists wrote, the entries alone; with links, over 2 * count, the particles out of the grid
    // after the entries (shaders/contacts.wgsl main).
    const entryArgs = grid && this.stepOrder === 'entries' ? this.entryArgs : null;
    const overEntries = entryArgs !== null && (mode === 'count' || mode === 'resolve');
    // The candidate lists by entry over the live count (ContactStep.live): the list's walk or the dense one's.
    const live = mode === 'candidates' && grid && this.stepOrder === 'entries' && !links ? step.live : undefined;
    if (overEntries && !links) kernels[mode].record(pass, groups, { indirect: entryArgs, offset: 0 });
    else if (live) {
      // Invocation k lists entry k either way: the same kernel for both walks.
      for (const walk of [live.stepWalks.list, live.stepWalks.dense]) kernels[mode].record(pass, groups, walk);
    } else kernels[mode].record(pass, groups, { count: overEntries ? 2 * step.count : step.count });
    if (mode !== 'candidates' && walkArgs && set.walkKernels) {
      const walkKernels = links ? set.walkKernels.links : set.walkKernels.withoutLinks;
      walkKernels[mode].record(pass, groups, { indirect: walkArgs, offset: 0 });
    }
    pass.end();
    if (mode === 'candidates' && walkArgs) encoder.copyBufferToBuffer(this.active, argsOffset, walkArgs, 0, 12);
    if (mode === 'candidates' && entryArgs) {
      const at = 4 * entryArgsIndex(this.particles.capacity, this.candidates);
      encoder.copyBufferToBuffer(this.active, at, entryArgs, 0, 12);
    }
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.params.destroy();
    for (const buffer of [this.active, this.deltas, this.links, this.linkIndex, ...this.placeholders]) buffer.destroy();
    this.walkArgs?.destroy();
    this.entryArgs?.destroy();
  }
}
