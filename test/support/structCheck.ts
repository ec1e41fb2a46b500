/**
 * Proves a schema struct's offsets are the ones the WGSL compiler uses: a
 * kernel writes a distinct number into every scalar component of every field
 * (recursing into nested structs and arrays) of a storage struct generated
 * from the schema, and the host reads each one back through StructArray at
 * the offset the schema computed. A wrong offset, alignment or size reads
 * another field's number (or 0).
 */
import { StructArray, type FieldLayout, type StructDef } from '../../src/core/schema';
import { runKernel } from './runKernel';

interface Leaf {
  /** WGSL lvalue, e.g. `out.emitters[3].center`. */
  readonly path: string;
  /** Word index in the host buffer. */
  readonly word: number;
  readonly components: number;
  readonly scalar: 'f32' | 'u32' | 'i32';
}

/** Every primitive field inside `struct` (all array elements), with its word index. */
function leaves(struct: StructDef, path: string, baseWord: number, out: Leaf[]): Leaf[] {
  for (const f of Object.values<FieldLayout>(struct.layout)) {
    const at = `${path}.${f.name}`;
    const word = baseWord + f.offset / 4;
    if (f.scalar) {
      out.push({ path: at, word, components: f.components, scalar: f.scalar });
    } else if (typeof f.type === 'object' && 'count' in f.type) {
      const element = f.type.element;
      const stride = f.size / f.type.count / 4;
      for (let i = 0; i < f.type.count; i++) {
        if (typeof element === 'string') {
          const probe: Leaf[] = [];
          // A primitive element: its components and kind from a one-field struct's layout.
          out.push(...leavesOfPrimitive(element, `${at}[${i}]`, word + i * stride, probe));
        } else {
          leaves(element, `${at}[${i}]`, word + i * stride, out);
        }
      }
    } else {
      leaves(f.type as StructDef, at, word, out);
    }
  }
  return out;
}

function leavesOfPrimitive(type: string, path: string, word: number, out: Leaf[]): Leaf[] {
  const scalar = type.endsWith('u') || type === 'u32' ? 'u32' : type.endsWith('i') || type === 'i32' ? 'i32' : 'f32';
  const components = type === 'mat4x4f' ? 16 : /vec(\d)/.exec(type) ? Number(/vec(\d)/.exec(type)![1]) : 1;
  out.push({ path, word, components, scalar });
  return out;
}

/** The structs `root` depends on, each once, dependencies first. */
function declarations(root: StructDef, seen = new Set<StructDef>()): string[] {
  const out: string[] = [];
  for (const f of Object.values<FieldLayout>(root.layout)) {
    const nested = typeof f.type === 'object' ? ('count' in f.type ? f.type.element : f.type) : null;
    if (nested && typeof nested === 'object' && !seen.has(nested)) out.push(...declarations(nested as StructDef, seen));
  }
  if (!seen.has(root)) {
    seen.add(root);
    out.push(root.wgsl());
  }
  return out;
}

/** Writes marker k + 1 into every component; returns the mismatches as readable lines (empty: all agree). */
export async function checkStructOnGpu(device: GPUDevice, struct: StructDef): Promise<string[]> {
  // Two records, so an array's stride (the struct's size) is checked too.
  const all = [0, 1].flatMap((r) => leaves(struct, `out[${r}]`, r * struct.words, []));
  let marker = 1;
  const expected: { leaf: Leaf; values: number[] }[] = [];
  const statements = all.map((leaf) => {
    const values = Array.from({ length: leaf.components }, () => marker++);
    expected.push({ leaf, values });
    const literal = (v: number) => (leaf.scalar === 'f32' ? `${v}.0` : leaf.scalar === 'u32' ? `${v}u` : `${v}i`);
    if (leaf.components === 1) return `  ${leaf.path} = ${literal(values[0]!)};`;
    if (leaf.components === 16) return `  ${leaf.path} = mat4x4f(${values.map(literal).join(', ')});`;
    const type = `vec${leaf.components}${leaf.scalar === 'f32' ? 'f' : leaf.scalar === 'u32' ? 'u' : 'i'}`;
    return `  ${leaf.path} = ${type}(${values.map(literal).join(', ')});`;
  });
  const code = [
    ...declarations(struct),
    `@group(0) @binding(0) var<storage, read_write> out: array<${struct.name}, 2>;`,
    '@compute @workgroup_size(1) fn main() {',
    ...statements,
    '}',
  ].join('\n');
  const [words] = await runKernel(device, code, [{ bytes: 2 * struct.size }], 1);
  const records = StructArray.from(struct, words as Uint32Array);
  const views = { f32: records.floats, u32: records.words, i32: records.ints };
  const problems: string[] = [];
  for (const { leaf, values } of expected) {
    values.forEach((value, c) => {
      const got = views[leaf.scalar][leaf.word + c];
      if (got !== value)
        problems.push(`${leaf.path}[${c}]: schema word ${leaf.word + c} holds ${got}, the GPU wrote ${value}`);
    });
  }
  return problems;
}
