/**
 * The one way to describe a GPU record or uniform block.
 *
 * A struct is declared once, in TypeScript, as an ordered list of fields.
 * From that one declaration come (1) every field's byte offset, the struct's
 * alignment and size by WGSL's layout rules (WGSL §14.4: a member sits at
 * the next multiple of its alignment; a struct's size rounds up to its
 * largest alignment), (2) its WGSL declaration with offset comments, and
 * (3) typed host views that read and write it through one buffer seen as
 * floats, unsigned and signed integers. No offset is counted by hand.
 *
 * Why one buffer, three views: records mix floats and integers, and an
 * integer must never travel through a float (a bit pattern read as a NaN may
 * be quietened by a float load or store), so each field is read and written
 * through the view of its own scalar kind.
 *
 * Pure data: nothing here knows about the GPU (TypeGPU and webgpu-utils are
 * the models: the schema is the source, the WGSL is printed from it).
 */

/** A WGSL scalar kind; each field is stored through the view of its kind. */
export type ScalarKind = 'f32' | 'u32' | 'i32';

/** The WGSL types a field may have, besides arrays and other structs. */
export type PrimitiveType =
  | 'f32'
  | 'u32'
  | 'i32'
  | 'vec2f'
  | 'vec2u'
  | 'vec2i'
  | 'vec3f'
  | 'vec3u'
  | 'vec3i'
  | 'vec4f'
  | 'vec4u'
  | 'vec4i'
  | 'mat4x4f';

interface PrimitiveInfo {
  readonly size: number;
  readonly align: number;
  readonly components: number;
  readonly scalar: ScalarKind;
}

/** WGSL's size and alignment of each type (the one table; host-shareable address spaces agree for these). */
const PRIMITIVES: Record<PrimitiveType, PrimitiveInfo> = {
  f32: { size: 4, align: 4, components: 1, scalar: 'f32' },
  u32: { size: 4, align: 4, components: 1, scalar: 'u32' },
  i32: { size: 4, align: 4, components: 1, scalar: 'i32' },
  vec2f: { size: 8, align: 8, components: 2, scalar: 'f32' },
  vec2u: { size: 8, align: 8, components: 2, scalar: 'u32' },
  vec2i: { size: 8, align: 8, components: 2, scalar: 'i32' },
  vec3f: { size: 12, align: 16, components: 3, scalar: 'f32' },
  vec3u: { size: 12, align: 16, components: 3, scalar: 'u32' },
  vec3i: { size: 12, align: 16, components: 3, scalar: 'i32' },
  vec4f: { size: 16, align: 16, components: 4, scalar: 'f32' },
  vec4u: { size: 16, align: 16, components: 4, scalar: 'u32' },
  vec4i: { size: 16, align: 16, components: 4, scalar: 'i32' },
  mat4x4f: { size: 64, align: 16, components: 16, scalar: 'f32' },
};

/** A fixed-size array member, e.g. `array<EmitterFrame, 32>`. */
export interface ArrayType {
  readonly element: PrimitiveType | StructDef;
  readonly count: number;
}

export type FieldType = PrimitiveType | StructDef | ArrayType;

/** A field: its type, and optionally a note printed beside it in the WGSL. */
export type FieldSpec = FieldType | { readonly type: FieldType; readonly doc?: string };

export type FieldSpecs = Record<string, FieldSpec>;

/** `array<element, count>`. */
export function arrayOf(element: PrimitiveType | StructDef, count: number): ArrayType {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`arrayOf: count = ${count} must be an integer >= 1`);
  return { element, count };
}

/** Where one field lives and how it is stored. */
export interface FieldLayout {
  readonly name: string;
  readonly type: FieldType;
  /** Byte offset inside the struct. */
  readonly offset: number;
  readonly size: number;
  readonly align: number;
  /** Scalar components of a primitive field (0 for arrays and structs). */
  readonly components: number;
  /** The view a primitive field is read through (undefined for arrays and structs). */
  readonly scalar: ScalarKind | undefined;
  readonly doc: string | undefined;
}

function isStruct(type: FieldType): type is StructDef {
  return type instanceof StructDef;
}

function isArray(type: FieldType): type is ArrayType {
  return typeof type === 'object' && !isStruct(type);
}

function typeName(type: FieldType): string {
  if (typeof type === 'string') return type;
  if (isStruct(type)) return type.name;
  return `array<${typeName(type.element)}, ${type.count}>`;
}

function roundUp(value: number, multiple: number): number {
  return Math.ceil(value / multiple) * multiple;
}

function sizeAndAlign(type: FieldType): { size: number; align: number } {
  if (typeof type === 'string') return PRIMITIVES[type];
  if (isStruct(type)) return { size: type.size, align: type.align };
  const element = sizeAndAlign(type.element);
  const stride = roundUp(element.size, element.align);
  return { size: stride * type.count, align: element.align };
}

/** A struct declared once: offsets, WGSL and host views all come from here. */
export class StructDef<F extends FieldSpecs = FieldSpecs> {
  /** Each field's layout, in declaration (= memory) order. */
  readonly layout: { readonly [K in keyof F]: FieldLayout };
  /** Byte offset of each field. */
  readonly offsets: { readonly [K in keyof F]: number };
  /** Word (4-byte) offset of each field, for CPU twins that index a record's words directly. */
  readonly wordOffsets: { readonly [K in keyof F]: number };
  readonly align: number;
  /** Bytes, rounded up to the alignment: the stride of an array of these. */
  readonly size: number;
  /** 32-bit words of one record. */
  readonly words: number;

  constructor(
    readonly name: string,
    readonly fields: F,
    /** Printed above the WGSL declaration. */
    readonly doc?: string,
  ) {
    const layout: Record<string, FieldLayout> = {};
    const offsets: Record<string, number> = {};
    let end = 0;
    let align = 4;
    for (const [field, spec] of Object.entries(fields)) {
      const type = typeof spec === 'object' && 'type' in spec ? spec.type : (spec as FieldType);
      const doc = typeof spec === 'object' && 'type' in spec ? spec.doc : undefined;
      const { size, align: fieldAlign } = sizeAndAlign(type);
      const offset = roundUp(end, fieldAlign);
      const primitive = typeof type === 'string' ? PRIMITIVES[type] : undefined;
      layout[field] = {
        name: field,
        type,
        offset,
        size,
        align: fieldAlign,
        components: primitive?.components ?? 0,
        scalar: primitive?.scalar,
        doc,
      };
      offsets[field] = offset;
      end = offset + size;
      align = Math.max(align, fieldAlign);
    }
    if (end === 0) throw new Error(`struct ${name} has no fields`);
    this.layout = layout as { [K in keyof F]: FieldLayout };
    this.offsets = offsets as { [K in keyof F]: number };
    this.wordOffsets = Object.fromEntries(Object.entries(offsets).map(([k, v]) => [k, v / 4])) as {
      [K in keyof F]: number;
    };
    this.align = align;
    this.size = roundUp(end, align);
    this.words = this.size / 4;
  }

  /** The WGSL declaration, generated, with byte offsets (and any padding the rules add) in comments. */
  wgsl(): string {
    const members = Object.values<FieldLayout>(this.layout).map(
      (f) => `  ${f.name}: ${typeName(f.type)}, // offset ${f.offset}${f.doc ? `: ${f.doc}` : ''}`,
    );
    return [
      `// Generated from src/core/schema.ts: ${this.size} bytes${this.doc ? `. ${this.doc}` : ''}`,
      `struct ${this.name} {`,
      ...members,
      '}',
    ].join('\n');
  }

  /** `count` records on the host (at least one, so a binding made from them is never empty). */
  array(count: number): StructArray<F> {
    return new StructArray(this, count);
  }

  /** One record on the host, e.g. a uniform block. */
  value(): StructValue<F> {
    return new StructValue(this);
  }
}

/** Declares a struct; its fields lie in memory in the order they are listed. */
export function defineStruct<F extends FieldSpecs>(name: string, fields: F, doc?: string): StructDef<F> {
  return new StructDef(name, fields, doc);
}

/**
 * `count` packed records over one buffer, read and written field by field
 * through the view of each field's scalar kind. It may be a window into a
 * larger buffer (an array member of another struct): pass `buffer` and
 * `byteOffset`.
 */
export class StructArray<F extends FieldSpecs = FieldSpecs> {
  readonly floats: Float32Array<ArrayBuffer>;
  readonly words: Uint32Array<ArrayBuffer>;
  readonly ints: Int32Array<ArrayBuffer>;
  private readonly stride: number;

  constructor(
    readonly struct: StructDef<F>,
    readonly count: number,
    buffer?: ArrayBuffer,
    byteOffset = 0,
  ) {
    const length = Math.max(count, 1) * struct.words;
    const storage = buffer ?? new ArrayBuffer(length * 4);
    this.floats = new Float32Array(storage, byteOffset, length);
    this.words = new Uint32Array(storage, byteOffset, length);
    this.ints = new Int32Array(storage, byteOffset, length);
    this.stride = struct.words;
  }

  /** From words read back from the GPU (copied). */
  static from<F extends FieldSpecs>(struct: StructDef<F>, words: Uint32Array): StructArray<F> {
    const records = new StructArray(struct, Math.floor(words.length / struct.words));
    records.words.set(words.subarray(0, records.words.length));
    return records;
  }

  /** Word index of component `component` of `field` in record `record`. */
  index(record: number, field: keyof F, component = 0): number {
    return record * this.stride + this.struct.offsets[field] / 4 + component;
  }

  private view(field: keyof F): Float32Array | Uint32Array | Int32Array {
    const scalar = this.struct.layout[field].scalar;
    if (scalar === undefined) throw new TypeError(`${this.struct.name}.${String(field)} is not a scalar or vector`);
    return scalar === 'f32' ? this.floats : scalar === 'u32' ? this.words : this.ints;
  }

  /** Component `component` of a field, through its own kind's view. */
  get(record: number, field: keyof F, component = 0): number {
    return this.view(field)[this.index(record, field, component)] as number;
  }

  /** A vector field's components, into `out` (gl-matrix style). */
  getVector<T extends { [i: number]: number }>(record: number, field: keyof F, out: T): T {
    const view = this.view(field);
    const at = this.index(record, field);
    for (let c = 0; c < this.struct.layout[field].components; c++) out[c] = view[at + c] as number;
    return out;
  }

  /** Sets a scalar, or a vector's leading components from an array. */
  set(record: number, field: keyof F, value: number | ArrayLike<number>): this {
    const view = this.view(field);
    const at = this.index(record, field);
    if (typeof value === 'number') {
      view[at] = value;
    } else {
      const components = this.struct.layout[field].components;
      if (value.length > components) {
        throw new RangeError(
          `${this.struct.name}.${String(field)} holds ${components} components, got ${value.length}`,
        );
      }
      for (let c = 0; c < value.length; c++) view[at + c] = value[c] as number;
    }
    return this;
  }

  /** Records `first`..`first + count` of an array member, as a view of the same bytes. */
  member<G extends FieldSpecs>(record: number, field: keyof F, element: StructDef<G>): StructArray<G> {
    const type = this.struct.layout[field].type;
    if (!isArray(type) || type.element !== element) {
      throw new TypeError(`${this.struct.name}.${String(field)} is not an array of ${element.name}`);
    }
    return new StructArray(
      element,
      type.count,
      this.floats.buffer,
      this.floats.byteOffset + this.index(record, field) * 4,
    );
  }

  /** The bytes to upload. */
  get bytes(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.floats.buffer, this.floats.byteOffset, this.floats.byteLength);
  }
}

/** One record (a uniform block, say): a StructArray of one, addressed by field alone. */
export class StructValue<F extends FieldSpecs = FieldSpecs> {
  readonly records: StructArray<F>;
  constructor(readonly struct: StructDef<F>) {
    this.records = new StructArray(struct, 1);
  }
  get(field: keyof F, component = 0): number {
    return this.records.get(0, field, component);
  }
  set(field: keyof F, value: number | ArrayLike<number>): this {
    this.records.set(0, field, value);
    return this;
  }
  /** An array member of this record as records of `element`. */
  member<G extends FieldSpecs>(field: keyof F, element: StructDef<G>): StructArray<G> {
    return this.records.member(0, field, element);
  }
  /** The bytes to upload (struct.size of them). */
  get bytes(): Uint8Array<ArrayBuffer> {
    return this.records.bytes;
  }
  get buffer(): ArrayBuffer {
    return this.records.floats.buffer;
  }
}
