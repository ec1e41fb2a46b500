/**
 * The particle layout, defined once.
 *
 * Every particle is a run of vec4f "lanes" in one packed buffer (array of
 * structs). Each lane has four float components; each named attribute occupies
 * one to four consecutive components of one lane. The WGSL struct, the CPU
 * reference's Float32Array indexing and the host's typed views are all derived
 * from this table, so adding an attribute is one entry here (age, lifetime,
 * colour and the rest of a particle's life are entries of the life record at
 * the end of this module).
 *
 * Why packed vec4 lanes: in storage a vec3f has a 16-byte stride anyway, so the
 * scalars ride in the spare fourth slot (Cyclone's state fits 64 bytes), and on
 * the software adapter one packed buffer of vec4 loads measured faster than
 * separate per-field buffers (see the benchmark in the README).
 */

export interface AttributeSpec {
  /** Lane (vec4) index within the particle. */
  readonly lane: number;
  /** First component within the lane (0 = x). */
  readonly component: number;
  /** Number of float components (1 = scalar, 3 = vec3). */
  readonly size: 1 | 2 | 3 | 4;
}

/** Lane names, in memory order; these become the WGSL struct's members. */
export const LANES = ['positionInverseMass', 'velocityDamping', 'accelerationRadius', 'forceAccumSpare'] as const;
export type LaneName = (typeof LANES)[number];

/** Named attributes and where they live. The one place to add a field. */
export const ATTRIBUTES = {
  position: { lane: 0, component: 0, size: 3 },
  inverseMass: { lane: 0, component: 3, size: 1 },
  velocity: { lane: 1, component: 0, size: 3 },
  damping: { lane: 1, component: 3, size: 1 },
  acceleration: { lane: 2, component: 0, size: 3 },
  forceAccum: { lane: 3, component: 0, size: 3 },
  /** Collision radius (0: a point); negative marks a killed particle (src/core/collisions/colliders.ts). */
  radius: { lane: 2, component: 3, size: 1 },
} as const satisfies Record<string, AttributeSpec>;
export type AttributeName = keyof typeof ATTRIBUTES;
export const ATTRIBUTE_NAMES = Object.keys(ATTRIBUTES) as AttributeName[];

export const FLOATS_PER_LANE = 4;
export const LANES_PER_PARTICLE = LANES.length;
export const FLOATS_PER_PARTICLE = LANES_PER_PARTICLE * FLOATS_PER_LANE;
export const BYTES_PER_PARTICLE = FLOATS_PER_PARTICLE * 4;

/** Float offset of an attribute's first component inside one particle record. */
export function attributeOffset(name: AttributeName): number {
  const spec: AttributeSpec = ATTRIBUTES[name];
  return spec.lane * FLOATS_PER_LANE + spec.component;
}

/** Float index of `name`'s component `component` of particle `index` in a packed array. */
export function floatIndex(index: number, name: AttributeName, component = 0): number {
  return index * FLOATS_PER_PARTICLE + attributeOffset(name) + component;
}

const SWIZZLE = 'xyzw';

/** The WGSL swizzle that selects an attribute from its lane, e.g. `.xyz` or `.w`. */
export function attributeSwizzle(name: AttributeName): string {
  const spec: AttributeSpec = ATTRIBUTES[name];
  return '.' + SWIZZLE.slice(spec.component, spec.component + spec.size);
}

const WGSL_TYPES = { 1: 'f32', 2: 'vec2f', 3: 'vec3f', 4: 'vec4f' } as const;

function capitalized(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** `getPosition(p)` and `setPosition(&p, value)` for one attribute, from its slot. */
function wgslAccessors(name: AttributeName): string {
  const spec: AttributeSpec = ATTRIBUTES[name];
  const lane = LANES[spec.lane];
  const type = WGSL_TYPES[spec.size];
  const components = [0, 1, 2, 3].map((c) => {
    const inside = c - spec.component;
    if (inside < 0 || inside >= spec.size) return `(*p).${lane}.${SWIZZLE[c]}`;
    return spec.size === 1 ? 'value' : `value.${SWIZZLE[inside]}`;
  });
  return [
    `fn get${capitalized(name)}(p: Particle) -> ${type} { return p.${lane}${attributeSwizzle(name)}; }`,
    `fn set${capitalized(name)}(p: ptr<function, Particle>, value: ${type}) { (*p).${lane} = vec4f(${components.join(', ')}); }`,
  ].join('\n');
}

/**
 * The WGSL declaration of the particle struct, with byte-offset comments, and
 * a getter and setter per attribute so shaders name attributes, never slots.
 * Generated, never hand-written.
 */
export function wgslParticleStruct(): string {
  const members = LANES.map((lane, laneIndex) => {
    const held = ATTRIBUTE_NAMES.filter((n) => ATTRIBUTES[n].lane === laneIndex)
      .map((n) => `${n}${attributeSwizzle(n)}`)
      .join(', ');
    return `  ${lane}: vec4f, // offset ${laneIndex * 16}: ${held || 'spare'}`;
  });
  return [
    `// Generated from src/core/layout.ts: ${BYTES_PER_PARTICLE} bytes a particle.`,
    'struct Particle {',
    ...members,
    '}',
    `const LANES_PER_PARTICLE: u32 = ${LANES_PER_PARTICLE}u;`,
    ...ATTRIBUTE_NAMES.map(wgslAccessors),
  ].join('\n');
}

// ---------------------------------------------------------------------------
// The life record (systems with emitters, src/core/emitters)
//
// A second per-particle record, beside the step's 64-byte Particle, for
// particles that are born, age and die.
//
// Why a second record rather than lanes in Particle: the step (and the
// forces) read and write exactly Cyclone's state, 64 bytes a particle, which
// the benchmark target caps; one spare float is left, and age, lifetime,
// colour, size, rule and generation need six words. Widening Particle would
// make every step, with or without emitters, move more bytes. The life record
// is touched only by the lifecycle passes (age, compact, emit) and the draw,
// so a system without emitters does not even allocate it.
//
// Why a struct of 32-bit scalars (not vec4f lanes): it mixes floats and
// integers. The colour is rgba8 packed in a u32 (WGSL's pack4x8unorm), kept
// as an integer: bitcast into a float lane, a colour with alpha 255 is a NaN
// bit pattern, which a float load or store may quieten. Two views of one
// buffer (Float32Array and Uint32Array) read it on the host.

export type LifeWordType = 'f32' | 'u32';

export interface LifeFieldSpec {
  /** Word (4-byte) offset inside the record. */
  readonly word: number;
  readonly type: LifeWordType;
}

/** The life record's fields. The one place to add a lifecycle attribute. */
export const LIFE_FIELDS = {
  /** Seconds since birth (Cyclone's firework counts its fuse down; this counts up to `lifetime`). */
  age: { word: 0, type: 'f32' },
  /** Seconds a particle lives: it dies at the end of the step in which age > lifetime. +Infinity: never. */
  lifetime: { word: 1, type: 'f32' },
  /** Drawn size (world units), for rendering. */
  size: { word: 2, type: 'f32' },
  /** rgba8 packed as WGSL's pack4x8unorm (r in the low byte), for rendering. */
  color: { word: 3, type: 'u32' },
  /** The spawn rule it obeys at death (payload, floor): an emitter's or a firework rule's index; NO_RULE for permanent particles. */
  rule: { word: 4, type: 'u32' },
  /** 1 while the slot holds a live particle, 0 while it is on the free list. */
  alive: { word: 5, type: 'u32' },
  /** How many particles this slot has held, so a renderer can tell a recycled slot from the same particle. */
  generation: { word: 6, type: 'u32' },
  spare: { word: 7, type: 'u32' },
} as const satisfies Record<string, LifeFieldSpec>;
export type LifeFieldName = keyof typeof LIFE_FIELDS;
export const LIFE_FIELD_NAMES = Object.keys(LIFE_FIELDS) as LifeFieldName[];

/** Words (and bytes) a life record: 8 words, a 16-byte multiple so records stay vec4-aligned. */
export const WORDS_PER_LIFE = 8;
export const BYTES_PER_LIFE = WORDS_PER_LIFE * 4;

/** The rule of a particle that no emitter made (a permanent particle): no payload, never dies of age. */
export const NO_RULE = 0xffffffff;

/** Word index of `field` of slot `slot` in a packed life array. */
export function lifeIndex(slot: number, field: LifeFieldName): number {
  return slot * WORDS_PER_LIFE + LIFE_FIELDS[field].word;
}

/** The WGSL declaration of the life record, with byte offsets. Generated, never hand-written. */
export function wgslLifeStruct(): string {
  const members = LIFE_FIELD_NAMES.map((name) => {
    const spec = LIFE_FIELDS[name];
    return `  ${name}: ${spec.type}, // offset ${spec.word * 4}`;
  });
  return [
    `// Generated from src/core/layout.ts: ${BYTES_PER_LIFE} bytes a particle.`,
    'struct Life {',
    ...members,
    '}',
  ].join('\n');
}

/** Packed life records on the host: a float and an unsigned view of the same words. */
export class LifeRecords {
  readonly floats: Float32Array<ArrayBuffer>;
  readonly words: Uint32Array<ArrayBuffer>;
  constructor(readonly count: number) {
    this.floats = new Float32Array(Math.max(count, 1) * WORDS_PER_LIFE);
    this.words = new Uint32Array(this.floats.buffer);
  }
  /** From words read back from the GPU (copied). */
  static from(words: Uint32Array): LifeRecords {
    const records = new LifeRecords(words.length / WORDS_PER_LIFE);
    records.words.set(words);
    return records;
  }
  get(slot: number, field: LifeFieldName): number {
    const at = lifeIndex(slot, field);
    return (LIFE_FIELDS[field].type === 'f32' ? this.floats[at] : this.words[at]) as number;
  }
  set(slot: number, field: LifeFieldName, value: number): void {
    const at = lifeIndex(slot, field);
    if (LIFE_FIELDS[field].type === 'f32') this.floats[at] = value;
    else this.words[at] = value;
  }
}
