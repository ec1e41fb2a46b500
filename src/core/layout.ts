/**
 * The particle layout, defined once.
 *
 * Every particle is a run of vec4f "lanes" in one packed buffer (array of
 * structs). Each lane has four float components; each named attribute occupies
 * one to four consecutive components of one lane. The WGSL struct, the CPU
 * reference's Float32Array indexing and the host's typed views are all derived
 * from this table, so adding an attribute (age, lifetime, colour...) is one
 * entry here.
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
