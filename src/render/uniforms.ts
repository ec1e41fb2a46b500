/**
 * Uniform structs defined once, in TypeScript: the WGSL declaration (with
 * byte-offset comments) and the host-side packing are both derived from the
 * same field list, so the two cannot drift apart (webgpu-utils' lesson; the
 * particle layout in src/core/layout.ts works the same way).
 */

export type UniformFieldType = 'f32' | 'u32' | 'vec2f' | 'vec4f' | 'mat4x4f';

/** WGSL's size and alignment rules for uniform-address-space members. */
const SIZE_AND_ALIGN: Record<UniformFieldType, readonly [size: number, align: number]> = {
  f32: [4, 4],
  u32: [4, 4],
  vec2f: [8, 8],
  vec4f: [16, 16],
  mat4x4f: [64, 16],
};

export interface UniformField {
  readonly type: UniformFieldType;
  /** Shown as a comment in the generated WGSL. */
  readonly doc?: string;
}

export class UniformLayout<F extends Record<string, UniformField>> {
  /** Byte offset of each field. */
  readonly offsets: { readonly [K in keyof F]: number };
  /** The struct's size, rounded up to its alignment (16). */
  readonly size: number;

  constructor(
    readonly name: string,
    readonly fields: F,
  ) {
    const offsets: Record<string, number> = {};
    let at = 0;
    for (const [key, field] of Object.entries(fields)) {
      const [size, align] = SIZE_AND_ALIGN[field.type];
      at = Math.ceil(at / align) * align;
      offsets[key] = at;
      at += size;
    }
    this.offsets = offsets as { [K in keyof F]: number };
    this.size = Math.max(16, Math.ceil(at / 16) * 16);
  }

  /** The WGSL struct, generated, with byte offsets. */
  wgsl(): string {
    const members = Object.entries(this.fields).map(
      ([key, field]) =>
        `  ${key}: ${field.type}, // offset ${this.offsets[key as keyof F]}${field.doc ? `: ${field.doc}` : ''}`,
    );
    return [
      `// Generated from src/render (UniformLayout): ${this.size} bytes.`,
      `struct ${this.name} {`,
      ...members,
      '}',
    ].join('\n');
  }

  /** A host-side block of this struct's bytes, written field by field. */
  createData(): UniformData<F> {
    return new UniformData(this);
  }
}

export class UniformData<F extends Record<string, UniformField>> {
  readonly bytes: ArrayBuffer;
  private readonly floats: Float32Array;
  private readonly uints: Uint32Array;

  constructor(readonly layout: UniformLayout<F>) {
    this.bytes = new ArrayBuffer(layout.size);
    this.floats = new Float32Array(this.bytes);
    this.uints = new Uint32Array(this.bytes);
  }

  /** Sets one field: a number for scalars, an array of 2, 4 or 16 floats for vectors and matrices. */
  set(name: keyof F, value: number | ArrayLike<number>): this {
    const at = this.layout.offsets[name] / 4;
    const type = this.layout.fields[name]!.type;
    if (typeof value === 'number') {
      if (type === 'u32') this.uints[at] = value;
      else this.floats[at] = value;
    } else {
      this.floats.set(value, at);
    }
    return this;
  }
}
