/**
 * The snapshot container: a versioned, checksummed, self-describing binary
 * that holds named sections. What the sections mean is
 * src/core/snapshot/systemSnapshot.ts; this file only writes and checks the
 * container, so a corrupt or truncated file is refused before any section is
 * read (never half-loaded).
 *
 * Layout, little-endian (docs/snapshots.md):
 *
 *   0   8 bytes   magic "SPKWSNAP"
 *   8   u32       format version (SNAPSHOT_VERSION)
 *   12  u32       header bytes (48 + 24 per section)
 *   16  u64       total bytes
 *   24  u32       CRC-32 of every byte from 28 to the end
 *   28  u32       capacity
 *   32  u32       integrator (index in INTEGRATION_ORDERS)
 *   36  u32       damping (index in DAMPING_MODES)
 *   40  u32       flags: 1 = emitters (lifecycle sections), 2 = float64 records
 *   44  u32       section count
 *   48  per section: 4 ASCII bytes tag, u32 element kind, u64 offset, u64 bytes
 *
 * Sections start on 8-byte boundaries, so each can be viewed in place.
 */
import CRC32 from 'crc-32';
import { snapshotRefusal } from '../errors';
import { DAMPING_MODES, INTEGRATION_ORDERS, type Variant } from '../variants';

/** The format version this Sparkworks writes, and the newest it reads. */
export const SNAPSHOT_VERSION = 1;
/** The oldest version this Sparkworks reads. */
export const OLDEST_SNAPSHOT_VERSION = 1;

const MAGIC = 'SPKWSNAP';
const FIXED_HEADER_BYTES = 48;
const SECTION_ENTRY_BYTES = 24;
const CHECKSUMMED_FROM = 28;

/** The header flags. */
export const SNAPSHOT_FLAGS = { emitters: 1, float64: 2 } as const;

/** How a section's bytes are to be viewed. */
export const ELEMENT_KINDS = ['bytes', 'u32', 'f32', 'f64', 'utf8'] as const;
export type ElementKind = (typeof ELEMENT_KINDS)[number];

/** The deprecated alias stays importable from here for code that did. */
export { SnapshotError } from '../errors';

/** One section: a four-letter tag and its bytes. */
export interface Section {
  readonly tag: string;
  readonly kind: ElementKind;
  readonly bytes: Uint8Array;
}

/** The header's fixed fields. */
export interface SnapshotHeader {
  /** The format version it was written in. */
  readonly version: number;
  /** Particle slots of the system it holds. */
  readonly capacity: number;
  /** The integrator and damping the system steps with. */
  readonly variant: Variant;
  /** SNAPSHOT_FLAGS: 1 with emitters, 2 for float64 records. */
  readonly flags: number;
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/** The header and sections in one buffer, its checksum field left 0. */
function assemble(header: Omit<SnapshotHeader, 'version'>, sections: readonly Section[]): Uint8Array {
  const headerBytes = FIXED_HEADER_BYTES + SECTION_ENTRY_BYTES * sections.length;
  let total = align8(headerBytes);
  const offsets = sections.map((section) => {
    if (!/^[A-Z0-9]{4}$/.test(section.tag)) throw new Error(`section tag ${section.tag} must be 4 letters or digits`);
    const at = total;
    total = align8(total + section.bytes.byteLength);
    return at;
  });
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  for (let i = 0; i < MAGIC.length; i++) out[i] = MAGIC.charCodeAt(i);
  view.setUint32(8, SNAPSHOT_VERSION, true);
  view.setUint32(12, headerBytes, true);
  view.setBigUint64(16, BigInt(total), true);
  view.setUint32(28, header.capacity, true);
  view.setUint32(32, INTEGRATION_ORDERS.indexOf(header.variant.integrator), true);
  view.setUint32(36, DAMPING_MODES.indexOf(header.variant.damping), true);
  view.setUint32(40, header.flags, true);
  view.setUint32(44, sections.length, true);
  sections.forEach((section, i) => {
    const entry = FIXED_HEADER_BYTES + SECTION_ENTRY_BYTES * i;
    for (let c = 0; c < 4; c++) out[entry + c] = section.tag.charCodeAt(c);
    view.setUint32(entry + 4, ELEMENT_KINDS.indexOf(section.kind), true);
    view.setBigUint64(entry + 8, BigInt(offsets[i] as number), true);
    view.setBigUint64(entry + 16, BigInt(section.bytes.byteLength), true);
    out.set(section.bytes, offsets[i] as number);
  });
  return out;
}

/** Writes the header and sections into one buffer, checksummed. */
export function writeContainer(header: Omit<SnapshotHeader, 'version'>, sections: readonly Section[]): Uint8Array {
  const out = assemble(header, sections);
  new DataView(out.buffer).setUint32(24, checksum(out), true);
  return out;
}

/** writeContainer, with the checksum computed in slices that yield to the event loop between them (no long task). */
export async function writeContainerSliced(
  header: Omit<SnapshotHeader, 'version'>,
  sections: readonly Section[],
): Promise<Uint8Array> {
  const out = assemble(header, sections);
  new DataView(out.buffer).setUint32(24, await checksumSliced(out), true);
  return out;
}

/** CRC-32 (the zlib polynomial) of the bytes after the checksum field, as an unsigned integer. */
function checksum(bytes: Uint8Array): number {
  return CRC32.buf(bytes.subarray(CHECKSUMMED_FROM)) >>> 0;
}

/**
 * Bytes checksummed between two yields: about 10 ms of CRC-32 here, so a
 * page's frames go on while a snapshot of millions of particles is sealed or
 * checked (64 MiB took 280 ms in one piece on a loaded 2-core machine).
 */
const SLICE_BYTES = 4 << 20;

/** The same CRC-32 as `checksum`, a slice at a time with a macrotask between slices. */
async function checksumSliced(bytes: Uint8Array): Promise<number> {
  let crc = 0;
  for (let at = CHECKSUMMED_FROM; at < bytes.byteLength; at += SLICE_BYTES) {
    if (at > CHECKSUMMED_FROM) await new Promise((resolve) => setTimeout(resolve, 0));
    crc = CRC32.buf(bytes.subarray(at, Math.min(at + SLICE_BYTES, bytes.byteLength)), crc);
  }
  return crc >>> 0;
}

/** A checked container: its header and its sections by tag (views into the given bytes). */
export interface Container {
  readonly header: SnapshotHeader;
  readonly sections: ReadonlyMap<string, Section>;
}

/** Accepts a Uint8Array, an ArrayBuffer or any other view of the snapshot's bytes. */
export type SnapshotBytes = Uint8Array | ArrayBuffer | ArrayBufferView;

function asBytes(snapshot: SnapshotBytes): Uint8Array {
  if (snapshot instanceof Uint8Array) return snapshot;
  if (snapshot instanceof ArrayBuffer) return new Uint8Array(snapshot);
  if (ArrayBuffer.isView(snapshot)) return new Uint8Array(snapshot.buffer, snapshot.byteOffset, snapshot.byteLength);
  throw snapshotRefusal(
    `a snapshot must be bytes (a Uint8Array or ArrayBuffer), not ${snapshot === null ? 'null' : typeof snapshot}`,
  );
}

/**
 * Checks everything about the container before anything is read from it:
 * magic, version, length (truncation), checksum, section bounds.
 */
export function readContainer(snapshot: SnapshotBytes): Container {
  const bytes = checkedCopy(snapshot);
  compareChecksum(bytes, checksum(bytes));
  return parseSections(bytes);
}

/** readContainer, with the checksum computed in slices that yield to the event loop between them. */
export async function readContainerSliced(snapshot: SnapshotBytes): Promise<Container> {
  const bytes = checkedCopy(snapshot);
  compareChecksum(bytes, await checksumSliced(bytes));
  return parseSections(bytes);
}

/** A copy at offset 0 (aligned for its sections' typed views, safe from later changes by the caller), its prefix checked. */
function checkedCopy(snapshot: SnapshotBytes): Uint8Array {
  const bytes = asBytes(snapshot).slice();
  if (bytes.byteLength < FIXED_HEADER_BYTES) {
    throw snapshotRefusal(
      `not a Sparkworks snapshot: ${bytes.byteLength} bytes, shorter than the ${FIXED_HEADER_BYTES}-byte header`,
    );
  }
  const magic = String.fromCharCode(...bytes.subarray(0, 8));
  if (magic !== MAGIC) {
    throw snapshotRefusal(`not a Sparkworks snapshot: it starts ${JSON.stringify(magic)}, not "${MAGIC}"`);
  }
  const view = new DataView(bytes.buffer);
  const version = view.getUint32(8, true);
  if (version > SNAPSHOT_VERSION || version < OLDEST_SNAPSHOT_VERSION) {
    const newer = version > SNAPSHOT_VERSION;
    throw snapshotRefusal(
      `snapshot format version ${version} is ${newer ? 'newer than' : 'older than'} this Sparkworks reads ` +
        `(versions ${OLDEST_SNAPSHOT_VERSION} to ${SNAPSHOT_VERSION})` +
        (newer ? ': update Sparkworks to read it' : ''),
      'snapshot.version',
      version,
    );
  }
  const total = Number(view.getBigUint64(16, true));
  if (total !== bytes.byteLength) {
    throw snapshotRefusal(
      `snapshot is ${total > bytes.byteLength ? 'truncated' : 'longer than written'}: ` +
        `${bytes.byteLength} bytes where its header says ${total}`,
      'snapshot.length',
      bytes.byteLength,
    );
  }
  return bytes;
}

function compareChecksum(bytes: Uint8Array, actual: number): void {
  const stored = new DataView(bytes.buffer).getUint32(24, true);
  if (stored !== actual) {
    throw snapshotRefusal(
      `snapshot is corrupt: its CRC-32 is ${hex(actual)} where its header says ${hex(stored)}`,
      'snapshot.checksum',
      actual,
    );
  }
}

/** The header's fields and the section table of a checked container. */
function parseSections(bytes: Uint8Array): Container {
  const view = new DataView(bytes.buffer);
  const total = bytes.byteLength;
  const headerBytes = view.getUint32(12, true);
  const count = view.getUint32(44, true);
  if (headerBytes !== FIXED_HEADER_BYTES + SECTION_ENTRY_BYTES * count || headerBytes > total) {
    throw snapshotRefusal(`snapshot header is malformed: ${headerBytes} header bytes for ${count} sections`);
  }
  const integrator = INTEGRATION_ORDERS[view.getUint32(32, true)];
  const damping = DAMPING_MODES[view.getUint32(36, true)];
  if (!integrator || !damping) throw snapshotRefusal('snapshot header is malformed: unknown integrator or damping');
  const sections = new Map<string, Section>();
  for (let i = 0; i < count; i++) {
    const entry = FIXED_HEADER_BYTES + SECTION_ENTRY_BYTES * i;
    const tag = String.fromCharCode(...bytes.subarray(entry, entry + 4));
    const kind = ELEMENT_KINDS[view.getUint32(entry + 4, true)];
    const offset = Number(view.getBigUint64(entry + 8, true));
    const length = Number(view.getBigUint64(entry + 16, true));
    if (!kind || offset % 8 !== 0 || offset < headerBytes || offset + length > total || sections.has(tag)) {
      throw snapshotRefusal(`snapshot section ${JSON.stringify(tag)} is malformed (bounds, kind or a repeated tag)`);
    }
    sections.set(tag, { tag, kind, bytes: bytes.subarray(offset, offset + length) });
  }
  return {
    header: {
      version: view.getUint32(8, true),
      capacity: view.getUint32(28, true),
      variant: { integrator, damping },
      flags: view.getUint32(40, true),
    },
    sections,
  };
}

function hex(n: number): string {
  return `0x${n.toString(16).padStart(8, '0')}`;
}

/** A section's bytes as a typed view of `kind` with `elements` elements (checked), or a refusal naming it. */
export function sectionView<T extends 'u32' | 'f32' | 'f64'>(
  container: Container,
  tag: string,
  kind: T,
  elements: number,
): T extends 'u32'
  ? Uint32Array<ArrayBuffer>
  : T extends 'f32'
    ? Float32Array<ArrayBuffer>
    : Float64Array<ArrayBuffer> {
  const section = container.sections.get(tag);
  if (!section) throw snapshotRefusal(`snapshot has no ${tag} section, which this system needs`, `snapshot.${tag}`);
  const size = kind === 'f64' ? 8 : 4;
  if (section.kind !== kind || section.bytes.byteLength !== elements * size) {
    throw snapshotRefusal(
      `snapshot section ${tag} holds ${section.bytes.byteLength} bytes of ${section.kind} where ${elements * size} bytes of ${kind} were expected`,
      `snapshot.${tag}`,
      section.bytes.byteLength,
    );
  }
  const { buffer, byteOffset } = section.bytes;
  const view =
    kind === 'u32'
      ? new Uint32Array(buffer as ArrayBuffer, byteOffset, elements)
      : kind === 'f32'
        ? new Float32Array(buffer as ArrayBuffer, byteOffset, elements)
        : new Float64Array(buffer as ArrayBuffer, byteOffset, elements);
  return view as never;
}

/** A section from a typed array (its bytes are copied when the container is written). */
export function section(tag: string, kind: ElementKind, data: ArrayBufferView): Section {
  return { tag, kind, bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** A UTF-8 JSON section. Non-finite numbers are kept (JSON would write them as null). */
export function jsonSection(tag: string, value: unknown): Section {
  return section(tag, 'utf8', new TextEncoder().encode(JSON.stringify(value, jsonReplacer)));
}

/** A JSON section's value, or a refusal naming it. */
export function readJsonSection(container: Container, tag: string): unknown {
  const found = container.sections.get(tag);
  if (!found || found.kind !== 'utf8') {
    throw snapshotRefusal(`snapshot has no ${tag} section, which this system needs`, `snapshot.${tag}`);
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(found.bytes), jsonReviver);
  } catch (error) {
    throw snapshotRefusal(`snapshot section ${tag} is not valid JSON: ${(error as Error).message}`);
  }
}

const NON_FINITE_KEY = '$nonFinite';

/** Typed arrays as plain arrays, and non-finite numbers as {"$nonFinite": "Infinity"}. */
function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return { [NON_FINITE_KEY]: String(value) };
  if (ArrayBuffer.isView(value) && !(value instanceof DataView))
    return Array.from(value as unknown as ArrayLike<number>);
  return value;
}

function jsonReviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === NON_FINITE_KEY)
      return Number((value as Record<string, string>)[NON_FINITE_KEY]);
  }
  return value;
}

/**
 * A deep copy of options as plain JSON data (typed arrays become arrays;
 * non-finite numbers kept), so a system can keep what it was created with.
 */
export function plainCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, jsonReplacer), jsonReviver) as T;
}
