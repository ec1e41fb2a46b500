/**
 * The particle layout, defined once.
 *
 * Every particle is a run of vec4f "lanes" in one packed buffer (array of
 * structs). Each lane has four float components; each named attribute occupies
 * one to four consecutive components of one lane. The WGSL struct, the CPU
 * reference's Float32Array indexing and the host's typed views are all derived
 * from this table and the Particle struct declared with the schema
 * (src/core/schema.ts), so adding an attribute is one entry here (age, lifetime,
 * colour and the rest of a particle's life are entries of the life record at
 * the end of this module).
 *
 * Why packed vec4 lanes: in storage a vec3f has a 16-byte stride anyway, so the
 * scalars ride in the spare fourth slot (Cyclone's state fits 64 bytes), and on
 * the software adapter one packed buffer of vec4 loads measured faster than
 * separate per-field buffers (see the benchmark in the README).
 */

import { defineStruct, StructArray } from './schema';

/** Lane names, in memory order; these are the WGSL struct's members. */
export const LANES = ['positionInverseMass', 'velocityDamping', 'accelerationRadius', 'forceAccumSpare'] as const;
export type LaneName = (typeof LANES)[number];

/** Where one attribute lives in the particle record: a lane, a first component and a size. */
export interface AttributeSpec {
  /** The vec4 lane that holds it. */
  readonly lane: LaneName;
  /** First component within the lane (0 = x). */
  readonly component: number;
  /** Number of float components (1 = scalar, 3 = vec3). */
  readonly size: 1 | 2 | 3 | 4;
}

/** Named attributes and where they live. The one place to add a field. */
export const ATTRIBUTES = {
  /** Position, m: xyz of the first lane (bytes 0-11). */
  position: { lane: 'positionInverseMass', component: 0, size: 3 },
  /** 1/mass (0: immovable): w of the first lane (bytes 12-15). */
  inverseMass: { lane: 'positionInverseMass', component: 3, size: 1 },
  /** Velocity, m/s: xyz of the second lane (bytes 16-27). */
  velocity: { lane: 'velocityDamping', component: 0, size: 3 },
  /** Share of velocity kept (per second or per step): w of the second lane (bytes 28-31). */
  damping: { lane: 'velocityDamping', component: 3, size: 1 },
  /** Constant acceleration, m/s² (Cyclone keeps gravity here): xyz of the third lane (bytes 32-43). */
  acceleration: { lane: 'accelerationRadius', component: 0, size: 3 },
  /** Force accumulator, N, cleared by every step: xyz of the fourth lane (bytes 48-59). */
  forceAccum: { lane: 'forceAccumSpare', component: 0, size: 3 },
  /** Collision radius (0: a point); negative marks a killed particle (src/core/collisions/colliders.ts). */
  radius: { lane: 'accelerationRadius', component: 3, size: 1 },
} as const satisfies Record<string, AttributeSpec>;
/** An attribute of the particle record: `position`, `inverseMass`, `velocity`, ... */
export type AttributeName = keyof typeof ATTRIBUTES;
/** Every attribute, in the order ATTRIBUTES declares them. */
export const ATTRIBUTE_NAMES = Object.keys(ATTRIBUTES) as AttributeName[];

/** Float offset of an attribute's first component inside one particle record. */
export function attributeOffset(name: AttributeName): number {
  const spec: AttributeSpec = ATTRIBUTES[name];
  return PARTICLE.offsets[spec.lane] / 4 + spec.component;
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

/** Which attributes a lane holds, e.g. `position.xyz, inverseMass.w`, for the WGSL's offset comments. */
function laneContents(lane: LaneName): string {
  const held = ATTRIBUTE_NAMES.filter((n) => ATTRIBUTES[n].lane === lane).map((n) => `${n}${attributeSwizzle(n)}`);
  return held.join(', ') || 'spare';
}

/** The particle record: four vec4f lanes, declared with the schema. */
export const PARTICLE = defineStruct(
  'Particle',
  Object.fromEntries(LANES.map((lane) => [lane, { type: 'vec4f' as const, doc: laneContents(lane) }])) as Record<
    LaneName,
    { type: 'vec4f'; doc: string }
  >,
);

export const FLOATS_PER_LANE = 4;
export const LANES_PER_PARTICLE = LANES.length;
/** Floats in one particle record (16): the stride of a packed Float32Array. */
export const FLOATS_PER_PARTICLE = PARTICLE.words;
/** Bytes in one particle record (64): the stride of the particle buffer. */
export const BYTES_PER_PARTICLE = PARTICLE.size;

/**
 * Every attribute's float offset inside a particle record (what
 * attributeOffset returns), computed once, named as the CPU twins name them:
 * `const { POSITION, VELOCITY } = OFFSET;`.
 */
export const OFFSET = {
  POSITION: attributeOffset('position'),
  INVERSE_MASS: attributeOffset('inverseMass'),
  VELOCITY: attributeOffset('velocity'),
  DAMPING: attributeOffset('damping'),
  ACCELERATION: attributeOffset('acceleration'),
  RADIUS: attributeOffset('radius'),
  FORCE_ACCUM: attributeOffset('forceAccum'),
} as const;

const WGSL_TYPES = { 1: 'f32', 2: 'vec2f', 3: 'vec3f', 4: 'vec4f' } as const;

function capitalized(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** `getPosition(p)` and `setPosition(&p, value)` for one attribute, from its slot. */
function wgslAccessors(name: AttributeName): string {
  const spec: AttributeSpec = ATTRIBUTES[name];
  const lane = spec.lane;
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
  return [
    PARTICLE.wgsl(),
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

/** The life record. The one place to add a lifecycle attribute. */
export const LIFE = defineStruct('Life', {
  /** Seconds since birth (Cyclone's firework counts its fuse down; this counts up to `lifetime`). */
  age: 'f32',
  /** Seconds a particle lives: it dies at the end of the step in which age > lifetime. +Infinity: never. */
  lifetime: 'f32',
  /** Drawn size (world units), for rendering. */
  size: 'f32',
  /** rgba8 packed as WGSL's pack4x8unorm (r in the low byte), for rendering. */
  color: 'u32',
  /** The spawn rule it obeys at death (payload, floor): an emitter's or a firework rule's index; NO_RULE for permanent particles. */
  rule: 'u32',
  /** 1 while the slot holds a live particle, 0 while it is on the free list. */
  alive: 'u32',
  /** How many particles this slot has held, so a renderer can tell a recycled slot from the same particle. */
  generation: 'u32',
  spare: 'u32',
});
export type LifeFieldName = keyof typeof LIFE.fields;
export const LIFE_FIELD_NAMES = Object.keys(LIFE.fields) as LifeFieldName[];

/** Words (and bytes) a life record: 8 words, a 16-byte multiple so records stay vec4-aligned. */
export const WORDS_PER_LIFE = LIFE.words;
export const BYTES_PER_LIFE = LIFE.size;

/** The rule of a particle that no emitter made (a permanent particle): no payload, never dies of age. */
export const NO_RULE = 0xffffffff;

/** Packed life records on the host: `LIFE.array(count)`, or `StructArray.from(LIFE, words)` from a readback. */
export type LifeRecords = StructArray<typeof LIFE.fields>;

/** Word index of `field` of slot `slot` in a packed life array. */
export function lifeIndex(slot: number, field: LifeFieldName): number {
  return slot * WORDS_PER_LIFE + LIFE.offsets[field] / 4;
}

/** The WGSL declaration of the life record, with byte offsets. Generated, never hand-written. */
export function wgslLifeStruct(): string {
  return LIFE.wgsl();
}

// ---------------------------------------------------------------------------
// The particle store: where shaders read and write particle records
//
// A system's records live in one storage binding, or, when one binding cannot
// hold them (maxStorageBufferBindingSize), in several: chunks of 2^shift
// particles, chunk k in binding k of group 0. Shaders never index the array:
// they call the accessors below with the slot, and the accessors pick the
// chunk, so every pass (the step, forces, springs, colliders, contacts, the
// lifecycle) runs unchanged on a chunked system and a slot means the same
// particle everywhere. With one binding the accessors are plain indexing.

/** How the particle records are split across storage bindings: `chunks` bindings of 2^`shift` particles each. */
export interface ParticleChunking {
  /** Chunks (storage bindings), the last holding what is left of the capacity. */
  readonly chunks: number;
  /** log2 of the particles a chunk holds: slot `i` is in chunk `i >> shift`, at `i & (2^shift - 1)`. */
  readonly shift: number;
}

const LANE_COMPONENTS = ['X', 'Y', 'Z', 'W'] as const;

/** OWN_CHUNK's default: the chunk is the slot's, chosen at run time. */
const ANY_CHUNK = 0xffffffff;

/**
 * `statement(array, index)` for slot `i`: on one binding directly; on
 * chunks, in a switch over the chunk with the slot inside it (every case
 * returns or falls out, so a getter still ends in a return on every path).
 */
function onChunk(
  chunking: ParticleChunking | null,
  statement: (array: string, index: string) => string,
  ownChunk = false,
): string {
  if (!chunking) return statement('particles', 'i');
  if (ownChunk) return statement('particles', `i & 0x${((2 ** chunking.shift - 1) >>> 0).toString(16)}u`);
  const cases = Array.from({ length: chunking.chunks }, (_, k) => {
    const label = k === chunking.chunks - 1 ? 'default' : `case ${k}u`;
    return `    ${label}: { ${statement(`particles${k}`, 'local')} }`;
  });
  const mask = `0x${((2 ** chunking.shift - 1) >>> 0).toString(16)}u`;
  return [`let local = i & ${mask};`, `  switch (chunkOf(i)) {`, ...cases, '  }'].join('\n');
}

/** Where a shader binds the particle store and how it is split (wgslParticleStore). */
export interface ParticleStoreBindings {
  /** The bind group of the store's bindings (default 0). */
  group?: number;
  /** The binding of the store, or of its first chunk (default 0). */
  binding?: number;
  /** The binding of chunk 1 (chunks 2, 3, ... follow it): after a render pass's other storage buffers. */
  moreChunksAt?: number;
  /** How the store is split into chunks; null or absent: one binding. */
  chunking?: ParticleChunking | null;
  /**
   * With `chunking`: one chunk bound (chunk OWN_CHUNK, an override the
   * kernel sets) rather than all, for a kernel run chunk by chunk
   * (src/gpu/shared/kernel.ts, perChunk) whose invocations touch only slots of
   * that chunk (`ownsParticle`). Its pass then binds one storage buffer
   * for the particles however many chunks there are.
   */
  ownChunk?: boolean;
}

/**
 * The particle store's declarations and accessors: `particleAt(i)`,
 * `storeParticle(i, p)`, a getter and a store per lane
 * (`particlePositionInverseMass(i)`, `storePositionInverseMass(i, v)`), a
 * getter and a store per lane component (`particleVelocityDampingX(i)`,
 * `storeForceAccumSpareW(i, x)`) and by lane index
 * (`particleLane(i, lane)`, `storeParticleLane(i, lane, v)`, for the bulk
 * writer). `read` declares the getters only (the render passes). Bindings
 * `binding`, `binding + 1`, ... of `group`, one per chunk.
 */
export function wgslParticleStore(
  access: 'read' | 'read_write',
  { group = 0, binding = 0, moreChunksAt = binding + 1, chunking = null, ownChunk = false }: ParticleStoreBindings = {},
): string {
  const own = ownChunk && chunking !== null;
  const names = chunking && !own ? Array.from({ length: chunking.chunks }, (_, k) => `particles${k}`) : ['particles'];
  const last = names[names.length - 1] as string;
  const count = !chunking
    ? 'return arrayLength(&particles);'
    : own
      ? // The slots up to the end of the bound chunk: what a bounds check on an own slot needs.
        `return OWN_CHUNK * ${2 ** chunking.shift}u + arrayLength(&particles);`
      : `return ${chunking.chunks - 1}u * ${2 ** chunking.shift}u + arrayLength(&${last});`;
  const lines = [
    `// The particle store (src/core/layout.ts, wgslParticleStore): ${chunking ? `${chunking.chunks} chunks of 2^${chunking.shift} particles${own ? ', chunk OWN_CHUNK bound' : ''}` : 'one binding'}.`,
    ...names.map(
      (name, k) =>
        `@group(${group}) @binding(${k === 0 ? binding : moreChunksAt + k - 1}) var<storage, ${access}> ${name}: array<Particle>;`,
    ),
    `fn particleCount() -> u32 { ${count} }`,
    ...(own && chunking
      ? [
          `override OWN_CHUNK: u32 = 0u;`,
          `fn ownsParticle(i: u32) -> bool { return (i >> ${chunking.shift}u) == OWN_CHUNK; }`,
          `fn finalChunkRun() -> bool { return OWN_CHUNK == ${chunking.chunks - 1}u; }`,
        ]
      : [
          // Every slot is reachable, and a kernel runs once: see ownChunk.
          'fn ownsParticle(i: u32) -> bool { return true; }',
          'fn finalChunkRun() -> bool { return true; }',
        ]),
    ...(chunking && !own
      ? [
          // A kernel dispatched chunk by chunk (src/gpu/shared/kernel.ts, perChunk) touches only its own chunk: with
          // OWN_CHUNK set the switch below is on a constant, which the compiler folds to one binding.
          `override OWN_CHUNK: u32 = ${ANY_CHUNK}u;`,
          `fn chunkOf(i: u32) -> u32 { return select(i >> ${chunking.shift}u, OWN_CHUNK, OWN_CHUNK != ${ANY_CHUNK}u); }`,
        ]
      : []),
    `fn particleAt(i: u32) -> Particle {\n  ${onChunk(chunking, (a, j) => `return ${a}[${j}];`, own)}\n}`,
  ];
  for (const lane of LANES) {
    lines.push(
      `fn particle${capitalized(lane)}(i: u32) -> vec4f {\n  ${onChunk(chunking, (a, j) => `return ${a}[${j}].${lane};`, own)}\n}`,
    );
    // Component getters: the software adapter loads every scalar separately, so reading one costs a quarter of the lane.
    LANE_COMPONENTS.forEach((component) => {
      const swizzle = component.toLowerCase();
      lines.push(
        `fn particle${capitalized(lane)}${component}(i: u32) -> f32 {\n  ${onChunk(chunking, (a, j) => `return ${a}[${j}].${lane}.${swizzle};`, own)}\n}`,
      );
    });
  }
  const laneSwitch = (body: (lane: LaneName) => string) =>
    `switch (lane) {\n${LANES.map((lane, k) => `    ${k === LANES.length - 1 ? 'default' : `case ${k}u`}: { ${body(lane)} }`).join('\n')}\n  }`;
  lines.push(
    `fn particleLane(i: u32, lane: u32) -> vec4f {\n  ${laneSwitch((lane) => `return particle${capitalized(lane)}(i);`)}\n}`,
  );
  if (access === 'read_write') {
    lines.push(`fn storeParticle(i: u32, p: Particle) {\n  ${onChunk(chunking, (a, j) => `${a}[${j}] = p;`, own)}\n}`);
    for (const lane of LANES) {
      lines.push(
        `fn store${capitalized(lane)}(i: u32, value: vec4f) {\n  ${onChunk(chunking, (a, j) => `${a}[${j}].${lane} = value;`, own)}\n}`,
      );
      LANE_COMPONENTS.forEach((component) => {
        const swizzle = component.toLowerCase();
        lines.push(
          `fn store${capitalized(lane)}${component}(i: u32, value: f32) {\n  ${onChunk(chunking, (a, j) => `${a}[${j}].${lane}.${swizzle} = value;`, own)}\n}`,
        );
      });
    }
    lines.push(
      `fn storeParticleLane(i: u32, lane: u32, value: vec4f) {\n  ${laneSwitch((lane) => `store${capitalized(lane)}(i, value);`)}\n}`,
    );
  }
  return lines.join('\n');
}
