/**
 * Cyclone's ParticleForceRegistry as host-side data, shared by both backends:
 * generators added, updated and removed here; each system packs them (once per
 * change and dt) and applies them before every step. Every method validates
 * before it changes anything, so a refused call leaves the registry as it was.
 */
import { SparkworksInputError } from '../errors';
import {
  checkGenerator,
  checkLinks,
  checkTarget,
  refuse,
  type ForceGenerator,
  type ForceTarget,
  type SpringLink,
  type StoredGenerator,
} from './generators';
import {
  MAX_FORCE_GENERATORS,
  NO_MASK,
  packForces,
  type ForceComposition,
  type PackEntry,
  type PackedForces,
} from './records';

interface Entry {
  readonly handle: ForceHandle;
  generator: StoredGenerator;
  readonly first: number;
  readonly end: number;
  readonly indices: readonly number[] | null;
}

/** A registered generator: read it, update its parameters, or remove it through the registry. */
export class ForceHandle {
  /** @internal */
  constructor(
    private readonly registry: ForceRegistry,
    /** A number unique within its registry, from 1 in order of registration. */
    readonly id: number,
  ) {}

  /** The generator as stored (vectors as arrays, defaults filled in). */
  get generator(): StoredGenerator {
    return this.registry.entryOf(this).generator;
  }

  /** Whether it is still registered. */
  get registered(): boolean {
    return this.registry.has(this);
  }

  /**
   * Changes parameters (any subset; the type stays): validated as a whole,
   * applied from the next step. No pipeline is rebuilt, only the record rewritten.
   */
  update(parameters: Partial<ForceGenerator>): void {
    this.registry.updateEntry(this, parameters);
  }
}

/** Bitmask words for an index-list target: bit (i - first) set for each index i. */
function maskWords(first: number, end: number, indices: readonly number[]): Uint32Array {
  const words = new Uint32Array(Math.ceil((end - first) / 32));
  for (const index of indices) {
    const bit = index - first;
    words[bit >>> 5] = ((words[bit >>> 5] as number) | (1 << (bit & 31))) >>> 0;
  }
  return words;
}

/**
 * Cyclone's ParticleForceRegistry (`system.forces`): the force generators a
 * system applies to their targets before every step, in registry order.
 */
export class ForceRegistry {
  private readonly list: Entry[] = [];
  private nextId = 1;
  /** Bumped by every change: the GPU uploads a new table slot when it moves. */
  version = 0;
  /**
   * Bumped when the index-list bitmasks change (a list target added or removed).
   * @internal
   */
  masksVersion = 0;
  private maskCache: { words: Uint32Array; offsets: number[] } | null = null;
  private packCache: { version: number; dt: number; packed: PackedForces } | null = null;
  private closedBy: string | null = null;

  constructor(
    /** The system's particle count, which targets must fit in. */
    readonly capacity: number,
  ) {}

  /** Refuses every later change, naming `owner` (the system that was destroyed). */
  close(owner: string): void {
    this.closedBy = owner;
  }

  private checkOpen(): void {
    if (this.closedBy) throw new Error(`this ${this.closedBy} has been destroyed: its forces cannot change`);
  }

  /** Number of registered generators. */
  get size(): number {
    return this.list.length;
  }

  /** The handles, in registry (application) order. */
  get handles(): readonly ForceHandle[] {
    return this.list.map((entry) => entry.handle);
  }

  /**
   * Registers `generator` for `target` (default: every particle), applied
   * after the generators already registered. Returns its handle.
   */
  add(generator: ForceGenerator, target: ForceTarget = 'all'): ForceHandle {
    this.checkOpen();
    if (this.list.length >= MAX_FORCE_GENERATORS) {
      throw new SparkworksInputError(
        `cannot add a ${(generator as { type?: unknown })?.type} force: a system holds at most ${MAX_FORCE_GENERATORS} generators (one uniform block)`,
        'forces',
        this.list.length,
      );
    }
    const stored = checkGenerator(generator);
    const { first, end, indices } = checkTarget(target, this.capacity);
    const handle = new ForceHandle(this, this.nextId++);
    this.list.push({ handle, generator: stored, first, end, indices });
    this.changed(indices !== null);
    return handle;
  }

  /** Unregisters a generator; false if it was not registered here (already removed). */
  remove(handle: ForceHandle): boolean {
    this.checkOpen();
    const at = this.list.findIndex((entry) => entry.handle === handle);
    if (at < 0) return false;
    const [entry] = this.list.splice(at, 1);
    this.changed(entry?.indices != null);
    return true;
  }

  /**
   * The generators in order with their targets, as `add` takes them (for a snapshot).
   * @internal
   */
  entries(): { generator: StoredGenerator; target: ForceTarget }[] {
    return this.list.map(({ generator, first, end, indices }) => ({
      generator,
      target:
        indices !== null
          ? { indices: [...indices] }
          : first === 0 && end === this.capacity
            ? 'all'
            : { start: first, count: end - first },
    }));
  }

  /** Unregisters every generator. */
  clear(): void {
    if (this.list.length === 0) return;
    const hadMasks = this.list.some((entry) => entry.indices !== null);
    this.list.length = 0;
    this.changed(hadMasks);
  }

  /**
   * Each generator's type and target mode, in order: what the GPU pass's code depends on.
   * @internal
   */
  get composition(): ForceComposition {
    return this.list.map((entry) => ({
      type: entry.generator.type,
      target: entry.indices !== null ? 'mask' : entry.first === 0 && entry.end === this.capacity ? 'all' : 'range',
    }));
  }

  /** @internal */
  has(handle: ForceHandle): boolean {
    return this.list.some((entry) => entry.handle === handle);
  }

  /** @internal */
  entryOf(handle: ForceHandle): Entry {
    const entry = this.list.find((e) => e.handle === handle);
    if (!entry) {
      throw new SparkworksInputError(`force ${handle.id} is not registered (it was removed)`, 'handle', handle.id);
    }
    return entry;
  }

  /** @internal */
  updateEntry(handle: ForceHandle, parameters: Partial<ForceGenerator>): void {
    this.checkOpen();
    const entry = this.entryOf(handle);
    if (parameters === null || typeof parameters !== 'object')
      refuse('update', parameters, 'must be an object of parameters');
    const type = (parameters as { type?: unknown }).type;
    if (type !== undefined && type !== entry.generator.type) {
      refuse('update.type', type, `a force keeps its type (${entry.generator.type}): remove it and add a new one`);
    }
    entry.generator = checkGenerator({ ...entry.generator, ...parameters } as ForceGenerator, 'update');
    this.changed(false);
  }

  private changed(masks: boolean): void {
    this.version++;
    // The cache holds an offset per generator: any change moves them (a generator added or removed),
    // while the GPU re-uploads the words only when a list itself changed (masksVersion).
    this.maskCache = null;
    if (masks) this.masksVersion++;
  }

  private masks(): { words: Uint32Array; offsets: number[] } {
    if (!this.maskCache) {
      const parts: Uint32Array[] = [];
      const offsets: number[] = [];
      let total = 0;
      for (const entry of this.list) {
        if (entry.indices === null) {
          offsets.push(NO_MASK);
          continue;
        }
        const words = maskWords(entry.first, entry.end, entry.indices);
        offsets.push(total);
        parts.push(words);
        total += words.length;
      }
      const words = new Uint32Array(total);
      let at = 0;
      for (const part of parts) {
        words.set(part, at);
        at += part.length;
      }
      this.maskCache = { words, offsets };
    }
    return this.maskCache;
  }

  /**
   * Every index-list target's bitmask, concatenated (what shaders/forces/forces.wgsl reads as `masks`).
   * @internal
   */
  get maskWords(): Uint32Array {
    return this.masks().words;
  }

  /**
   * The table for a step of `dt` (float32), cached until the registry or dt changes.
   * @internal
   */
  pack(dt: number): PackedForces {
    const cache = this.packCache;
    if (cache && cache.version === this.version && cache.dt === dt) return cache.packed;
    const { offsets } = this.masks();
    const entries: PackEntry[] = this.list.map((entry, k) => ({
      generator: entry.generator,
      first: entry.first,
      end: entry.end,
      maskWord: offsets[k] as number,
    }));
    const packed = packForces(entries, dt);
    this.packCache = { version: this.version, dt, packed };
    return packed;
  }
}

/**
 * The links in compressed rows over the particles [first, first + count):
 * row i's ends are `ends[2e], ends[2e + 1]` (other particle, link index) for
 * e in [offsets[i], offsets[i + 1]), in link order.
 */
export interface SpringRows {
  readonly first: number;
  readonly count: number;
  readonly offsets: Uint32Array;
  readonly ends: Uint32Array;
  /** restLength, stiffness per link (float64 as given). */
  readonly params: Float64Array;
  readonly params32: Float32Array;
  /** 1 for a bungee. */
  readonly bungee: Uint32Array;
}

/** At most this many links (2^24): far beyond a demo, and the rows stay well inside a storage binding. */
export const MAX_SPRING_LINKS = 1 << 24;

/** The springs between particle pairs, set as a whole list from the host. */
export class SpringNetwork {
  private stored: Required<SpringLink>[] = [];
  private rowsCache: SpringRows | null = null;
  /** Bumped by every setLinks: the GPU re-uploads the rows when it moves. */
  version = 0;
  private closedBy: string | null = null;

  constructor(
    /** The system's particle count, which link ends must be below. */
    readonly capacity: number,
  ) {}

  /** Refuses every later change, naming `owner` (the system that was destroyed). */
  close(owner: string): void {
    this.closedBy = owner;
  }

  /** Number of links. */
  get size(): number {
    return this.stored.length;
  }

  /** The links as stored (defaults filled in), in the order given to `setLinks`. */
  get links(): readonly Readonly<Required<SpringLink>>[] {
    return this.stored;
  }

  /** Replaces every link; validates them all first (indices in range, no self-links, k >= 0). */
  setLinks(links: readonly SpringLink[]): void {
    if (this.closedBy) throw new Error(`this ${this.closedBy} has been destroyed: its springs cannot change`);
    if (Array.isArray(links) && links.length > MAX_SPRING_LINKS) {
      refuse('links.length', links.length, `at most ${MAX_SPRING_LINKS} links`);
    }
    this.stored = checkLinks(links, this.capacity);
    this.rowsCache = null;
    this.version++;
  }

  /**
   * The rows, built once per setLinks by a counting sort over both ends.
   * @internal
   */
  get rows(): SpringRows {
    if (!this.rowsCache) this.rowsCache = buildRows(this.stored);
    return this.rowsCache;
  }
}

function buildRows(links: readonly Required<SpringLink>[]): SpringRows {
  let first = Infinity;
  let last = -1;
  for (const { a, b } of links) {
    first = Math.min(first, a, b);
    last = Math.max(last, a, b);
  }
  if (last < 0) first = 0;
  const count = last + 1 - first;
  const offsets = new Uint32Array(count + 1);
  for (const { a, b } of links) {
    offsets[a - first + 1] = (offsets[a - first + 1] as number) + 1;
    offsets[b - first + 1] = (offsets[b - first + 1] as number) + 1;
  }
  for (let i = 0; i < count; i++) offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number);
  const fill = offsets.slice(0, count);
  const ends = new Uint32Array(4 * links.length);
  const params = new Float64Array(2 * links.length);
  const bungee = new Uint32Array(links.length);
  links.forEach(({ a, b, restLength, stiffness, kind }, link) => {
    for (const [self, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const e = fill[self - first] as number;
      fill[self - first] = e + 1;
      ends[2 * e] = other;
      ends[2 * e + 1] = link;
    }
    params[2 * link] = restLength;
    params[2 * link + 1] = stiffness;
    bungee[link] = kind === 'bungee' ? 1 : 0;
  });
  return { first, count, offsets, ends, params, params32: Float32Array.from(params), bungee };
}
