/**
 * Fixed-size GPU records of the emitters and lifecycle (the spawn rules, the
 * per-step emitter frame, the counters, the deaths), declared once: each
 * field's word offset and type, from which the WGSL struct (with offset
 * comments) and the host's packing are both derived, as src/core/layout.ts
 * does for particles. A record is a run of 32-bit words that floats and
 * unsigned integers share through two views of one buffer; an integer never
 * travels through a float (a bit pattern read as a NaN may be quietened by a
 * float load or store).
 */

export type WordType = 'f32' | 'u32' | 'vec2u' | 'vec3f' | 'vec4u';

export interface WordField {
  /** Word (4-byte) offset inside the record. */
  readonly at: number;
  readonly type: WordType;
}

const WORDS: Record<WordType, number> = { f32: 1, u32: 1, vec2u: 2, vec3f: 3, vec4u: 4 };
/** WGSL's alignment of each type, in words (uniform and storage agree for these). */
const ALIGN: Record<WordType, number> = { f32: 1, u32: 1, vec2u: 2, vec3f: 4, vec4u: 4 };

export interface RecordSpec<F extends Record<string, WordField>> {
  readonly name: string;
  readonly fields: F;
  /** Words a record, a multiple of 4 so an array of records has a 16-byte stride (uniform arrays need it). */
  readonly words: number;
  /** Members appended after the fields, e.g. `emitters: array<EmitterState, 32>`, with their word offset. */
  readonly tail?: readonly { readonly at: number; readonly declaration: string; readonly words: number }[];
}

export function defineRecord<F extends Record<string, WordField>>(spec: RecordSpec<F>): RecordSpec<F> {
  // Checked once, when the module loads: a mistake here is a programming error.
  const entries = Object.entries(spec.fields).sort((a, b) => a[1].at - b[1].at);
  let next = 0;
  for (const [field, f] of entries) {
    if (f.at !== next) throw new Error(`${spec.name}.${field} at word ${f.at} leaves a gap after word ${next}`);
    if (f.at % ALIGN[f.type] !== 0)
      throw new Error(`${spec.name}.${field}: a ${f.type} must start at a multiple of ${ALIGN[f.type]} words`);
    next = f.at + WORDS[f.type];
  }
  for (const member of spec.tail ?? []) {
    if (member.at !== next) throw new Error(`${spec.name}: tail member at word ${member.at}, fields end at ${next}`);
    next = member.at + member.words;
  }
  if (next !== spec.words || spec.words % 4 !== 0) {
    throw new Error(`${spec.name}: members cover ${next} of ${spec.words} words (a multiple of 4)`);
  }
  return spec;
}

/** The WGSL struct, generated, with byte-offset comments. */
export function wgslRecord<F extends Record<string, WordField>>(spec: RecordSpec<F>): string {
  const members = Object.entries(spec.fields)
    .sort((a, b) => a[1].at - b[1].at)
    .map(([field, f]) => `  ${field}: ${f.type}, // offset ${f.at * 4}`);
  for (const member of spec.tail ?? []) members.push(`  ${member.declaration}, // offset ${member.at * 4}`);
  return [
    `// Generated from src/core/emitters: ${spec.words * 4} bytes a record.`,
    `struct ${spec.name} {`,
    ...members,
    '}',
  ].join('\n');
}

/** `count` packed records with a float and an unsigned view of the same words. */
export class WordRecords<F extends Record<string, WordField>> {
  readonly floats: Float32Array<ArrayBuffer>;
  readonly words: Uint32Array<ArrayBuffer>;
  constructor(
    readonly spec: RecordSpec<F>,
    readonly count: number,
  ) {
    this.floats = new Float32Array(Math.max(count, 1) * spec.words);
    this.words = new Uint32Array(this.floats.buffer);
  }
  /** Word index of `field`'s component `component` in record `record`. */
  at(record: number, field: keyof F, component = 0): number {
    return record * this.spec.words + (this.spec.fields[field] as WordField).at + component;
  }
  f32(record: number, field: keyof F, component = 0): number {
    return this.floats[this.at(record, field, component)] as number;
  }
  u32(record: number, field: keyof F, component = 0): number {
    return this.words[this.at(record, field, component)] as number;
  }
  setF32(record: number, field: keyof F, value: number): this {
    this.floats[this.at(record, field)] = value;
    return this;
  }
  setU32(record: number, field: keyof F, value: number): this {
    this.words[this.at(record, field)] = value;
    return this;
  }
  setVector(record: number, field: keyof F, values: ArrayLike<number>): this {
    const at = this.at(record, field);
    const integer = (this.spec.fields[field] as WordField).type !== 'vec3f';
    for (let c = 0; c < values.length; c++) {
      if (integer) this.words[at + c] = values[c] as number;
      else this.floats[at + c] = values[c] as number;
    }
    return this;
  }
  /** The bytes to upload (at least one record, so a binding is never empty). */
  get bytes(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.floats.buffer);
  }
}
