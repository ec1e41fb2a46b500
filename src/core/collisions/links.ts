/**
 * Links (Millington, chapter 7): cables (a maximum length) and rods (a fixed
 * length) between two particles, or from a particle to a fixed anchor point
 * (Cyclone's ParticleCableConstraint and ParticleRodConstraint). They are
 * contacts like any other: a stretched cable or a rod off its length is a
 * contact with a penetration, resolved with the rest by shaders/collisions/contacts.wgsl.
 * Here: validation, the packed records and the per-particle index (which links
 * touch which particle, in link order). No GPU imports.
 */
import {
  COLLISION_RULES,
  checkKeys,
  checkObject,
  checkVec3,
  isPositiveFinite32,
  isUnitInterval,
  refuse,
  check,
} from './check';
import { defineStruct, type StructArray } from '../schema';

interface LinkEnds {
  /** The first particle. */
  a: number;
  /** The second particle; give `b` or `anchor`, not both. */
  b?: number;
  /** A fixed point in the world instead of a second particle. */
  anchor?: ArrayLike<number>;
}
/** Pulls its ends together once they are `maxLength` apart; never pushes. */
export interface CableLink extends LinkEnds {
  /** Selects Cyclone's ParticleCable (ParticleCableConstraint with an anchor). */
  type: 'cable';
  /** The length past which the cable goes taut, m, > 0. */
  maxLength: number;
  /** Share of the separating speed given back when the cable goes taut, in [0, 1]. Default 0. */
  restitution?: number;
}
/** Holds its ends exactly `length` apart, pulling and pushing, with no bounce (restitution 0, as in Cyclone). */
export interface RodLink extends LinkEnds {
  /** Selects Cyclone's ParticleRod (ParticleRodConstraint with an anchor). */
  type: 'rod';
  /** The length it holds, m, > 0. */
  length: number;
}
/** Any link: a cable or a rod, told apart by `type`. */
export type LinkInit = CableLink | RodLink;

/** Every link type a system accepts. */
export const LINK_TYPES = ['cable', 'rod'] as const;
export const LINK_CABLE = 0;
export const LINK_ROD = 1;
/** `b` of a link to an anchor. */
export const NO_PARTICLE = 0xffffffff;
/** Links a system may have at once (4,194,304). */
export const MAX_LINKS = 1 << 22;

/** The link record (32 bytes); shaders/collisions/contacts.wgsl's `Link` is generated from it. */
export const LINK = defineStruct('Link', {
  a: 'u32',
  b: 'u32',
  kind: 'u32',
  length: { type: 'f32', doc: "a cable's maxLength, a rod's length" },
  anchor: 'vec3f',
  restitution: 'f32',
});
export const LINK_WORDS = LINK.words;
/** Word offsets of the fields, for the CPU twins' reads. */
export const LINK_AT = LINK.wordOffsets;

export function wgslLinkStruct(): string {
  return LINK.wgsl();
}

/** The links packed for the GPU and the CPU twin. */
export interface PackedLinks {
  readonly records: StructArray<typeof LINK.fields>;
  /**
   * The links of each particle, as the shader reads them: `capacity + 1`
   * starts, then the link indices of particle 0, of particle 1, ... (each
   * link listed under both its particles, in link order).
   */
  readonly index: Uint32Array<ArrayBuffer>;
}

/** The keys each link type may have (the scene's JSON Schema lists them too). */
export const LINK_KEYS = {
  cable: ['type', 'a', 'b', 'anchor', 'maxLength', 'restitution'],
  rod: ['type', 'a', 'b', 'anchor', 'length'],
} as const;

function checkParticle(what: string, value: unknown, capacity: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= capacity) {
    refuse(what, value, `must be a particle index, an integer in [0, ${capacity - 1}] (the capacity is ${capacity})`);
  }
  return value;
}

/**
 * Validates links against a system of `capacity` particles and packs them.
 * Throws SparkworksInputError naming the first bad value (e.g.
 * `links[3].maxLength`) and its limit before returning anything.
 */
export function prepareLinks(links: readonly LinkInit[], capacity: number, what = 'links'): PackedLinks {
  if (!Array.isArray(links)) refuse(what, links, 'must be an array of links');
  if (links.length > MAX_LINKS) refuse(`${what}.length`, links.length, `at most ${MAX_LINKS} links`);
  const records = LINK.array(links.length);
  links.forEach((input, i) => {
    const at = `${what}[${i}]`;
    const link = checkObject(at, input);
    const type = link.type as LinkInit['type'];
    if (!LINK_TYPES.includes(type)) refuse(`${at}.type`, link.type, `must be one of ${LINK_TYPES.join(', ')}`);
    checkKeys(at, link, LINK_KEYS[type]);
    const a = checkParticle(`${at}.a`, link.a, capacity);
    let b = NO_PARTICLE;
    let anchor = [0, 0, 0];
    if (link.b !== undefined && link.anchor !== undefined)
      refuse(`${at}.anchor`, link.anchor, 'give b or anchor, not both');
    if (link.b === undefined && link.anchor === undefined) {
      refuse(`${at}.b`, undefined, 'a link needs a second particle b or an anchor [x, y, z]');
    }
    if (link.b !== undefined) {
      b = checkParticle(`${at}.b`, link.b, capacity);
      if (b === a) refuse(`${at}.b`, b, `must differ from a (${a}): a link joins two particles`);
    } else {
      anchor = checkVec3(`${at}.anchor`, link.anchor);
    }
    const lengthKey = type === 'cable' ? 'maxLength' : 'length';
    const length = check.number(
      `${at}.${lengthKey}`,
      link[lengthKey],
      `${lengthKey} ${COLLISION_RULES.positive}`,
      isPositiveFinite32,
    );
    const restitution =
      type === 'cable'
        ? check.number(`${at}.restitution`, link.restitution ?? 0, COLLISION_RULES.restitution, isUnitInterval)
        : 0;
    records.set(i, 'a', a);
    records.set(i, 'b', b);
    records.set(i, 'kind', type === 'cable' ? LINK_CABLE : LINK_ROD);
    records.set(i, 'length', length);
    records.set(i, 'anchor', anchor);
    records.set(i, 'restitution', restitution);
  });
  return indexLinks(records, capacity) as PackedLinks;
}

/**
 * The per-particle index of packed link records (PackedLinks.index); null
 * when a record names a particle past `capacity` (only a damaged snapshot can).
 */
export function indexLinks(records: StructArray<typeof LINK.fields>, capacity: number): PackedLinks | null {
  const F = LINK_AT;
  const words = records.words;
  const count = records.count;
  const perParticle = new Uint32Array(capacity + 1);
  for (let i = 0; i < count; i++) {
    const a = words[i * LINK_WORDS + F.a] as number;
    const b = words[i * LINK_WORDS + F.b] as number;
    if (a >= capacity || (b !== NO_PARTICLE && b >= capacity)) return null;
    perParticle[a + 1]! += 1;
    if (b !== NO_PARTICLE) perParticle[b + 1]! += 1;
  }
  // Starts by a prefix sum, then each link under its particles in link order.
  const index = new Uint32Array(capacity + 1 + Math.max(count * 2, 1));
  for (let i = 0; i < capacity; i++) index[i + 1] = (index[i] as number) + (perParticle[i + 1] as number);
  const fill = index.slice(0, capacity);
  for (let i = 0; i < count; i++) {
    const a = words[i * LINK_WORDS + F.a] as number;
    const b = words[i * LINK_WORDS + F.b] as number;
    index[capacity + 1 + fill[a]!++] = i;
    if (b !== NO_PARTICLE) index[capacity + 1 + fill[b]!++] = i;
  }
  return { records, index };
}

/** No links: one empty record and a zero index, so the buffers still bind. */
export function noLinks(capacity: number): PackedLinks {
  return { records: LINK.array(0), index: new Uint32Array(capacity + 2) };
}
