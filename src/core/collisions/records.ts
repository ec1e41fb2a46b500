/**
 * Fixed-size GPU records (colliders, links) declared once: each field's word
 * offset and type, from which both the WGSL struct and the host's packing are
 * derived, as src/core/layout.ts does for particles. A record is a run of
 * 32-bit words; floats and unsigned integers share it through two views.
 */

export type WordType = 'f32' | 'u32' | 'vec3f';

export interface FieldSpec {
  /** Word (4-byte) offset inside the record. */
  readonly at: number;
  readonly type: WordType;
}

const WORDS: Record<WordType, number> = { f32: 1, u32: 1, vec3f: 3 };

/** The WGSL struct for a record, with offset comments; checks the fields tile it with WGSL's alignment. */
export function wgslRecordStruct(name: string, fields: Record<string, FieldSpec>, words: number): string {
  const entries = Object.entries(fields).sort((a, b) => a[1].at - b[1].at);
  let next = 0;
  const members = entries.map(([field, spec]) => {
    if (spec.at !== next) throw new Error(`${name}.${field} at word ${spec.at} leaves a gap after word ${next}`);
    if (spec.type === 'vec3f' && spec.at % 4 !== 0) throw new Error(`${name}.${field}: a vec3f must start a lane`);
    next = spec.at + WORDS[spec.type];
    return `  ${field}: ${spec.type}, // offset ${spec.at * 4}`;
  });
  if (next !== words || words % 4 !== 0) throw new Error(`${name}: fields cover ${next} of ${words} words`);
  return [
    `// Generated from src/core/collisions: ${words * 4} bytes a record.`,
    `struct ${name} {`,
    ...members,
    '}',
  ].join('\n');
}

/** A packed array of records with a float and an unsigned view of the same words. */
export class PackedRecords {
  readonly floats: Float32Array;
  readonly words: Uint32Array;
  constructor(
    readonly count: number,
    readonly wordsPerRecord: number,
  ) {
    this.floats = new Float32Array(Math.max(count, 1) * wordsPerRecord);
    this.words = new Uint32Array(this.floats.buffer);
  }
  setF32(record: number, field: FieldSpec, value: number): void {
    this.floats[record * this.wordsPerRecord + field.at] = value;
  }
  setU32(record: number, field: FieldSpec, value: number): void {
    this.words[record * this.wordsPerRecord + field.at] = value;
  }
  setVec3(record: number, field: FieldSpec, value: ArrayLike<number>): void {
    const at = record * this.wordsPerRecord + field.at;
    this.floats[at] = value[0] as number;
    this.floats[at + 1] = value[1] as number;
    this.floats[at + 2] = value[2] as number;
  }
  /** The bytes to upload (at least one record, so a binding is never empty). */
  get bytes(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.floats.buffer as ArrayBuffer);
  }
}
