/**
 * Cyclone's own contact resolution, on the CPU, to measure how the GPU's
 * Jacobi iterations (src/core/collisions/contacts.ts) differ from it:
 * ParticleContactResolver::resolveContacts resolves the contact with the
 * largest closing velocity first, one at a time, each with the particles'
 * full inverse masses, and after each moves the penetration of the contacts
 * sharing a particle by the movement along their (fixed) normals. Contacts are
 * generated once, from the state after the step (Cyclone's generateContacts):
 * links, particle pairs (by brute force) and planes (as Cyclone's ground
 * contacts; other colliders are not part of this comparison).
 *
 * Which contacts are Cyclone's depends on `skin`: Cyclone's cable is a contact
 * once `length >= maxLength` (plinks.cpp), which `penetration > -skin` gives
 * with skin = Number.MIN_VALUE; 0 misses a cable exactly at its length, and
 * the library's 1e-4 adds nearly taut cables Cyclone never generates. With
 * Number.MIN_VALUE one step agrees with Cyclone's C++ within 1e-8 in 375 of 400
 * bridge states; the rest come from a rod exactly at its length (no contact in
 * Cyclone, one of depth 0 here), rounding in another order (Math.hypot, a
 * division by the length, the impulse grouped differently), and Cyclone's
 * reuse of a contact's stale particleMovement when it resolves it without
 * penetration (docs/collisions.md).
 */
import { OFFSET, FLOATS_PER_PARTICLE } from '../layout';
import type { FloatArray } from '../particles';
import { COLLIDER, COLLIDER_WORDS, KIND_PLANE, type PackedColliders } from './colliders';
import { LINK_CABLE, LINK_AT, LINK_WORDS, NO_PARTICLE, type PackedLinks } from './links';

export interface SequentialContact {
  /** particle[0]. */
  a: number;
  /** particle[1], or -1 for the world (an anchor or a plane). */
  b: number;
  normal: [number, number, number];
  penetration: number;
  restitution: number;
}

const { POSITION, VELOCITY, ACCELERATION, INVERSE_MASS, RADIUS } = OFFSET;

const at = (state: FloatArray, i: number, offset: number, c: number) =>
  state[i * FLOATS_PER_PARTICLE + offset + c] as number;

/** The contacts of a state, with the same tests and normals as the GPU's passes (float64). */
export function generateContacts(
  state: FloatArray,
  count: number,
  options: {
    links?: PackedLinks;
    pairs?: boolean;
    pairRestitution?: number;
    colliders?: PackedColliders;
    skin: number;
  },
): SequentialContact[] {
  const contacts: SequentialContact[] = [];
  const { skin } = options;
  if (options.links) {
    const { floats, words, count: linkCount } = options.links.records;
    const F = LINK_AT;
    for (let l = 0; l < linkCount; l++) {
      const k = l * LINK_WORDS;
      const a = words[k + F.a] as number;
      const b = words[k + F.b] as number;
      const length = floats[k + F.length] as number;
      const pB = [0, 1, 2].map((c) =>
        b === NO_PARTICLE ? (floats[k + F.anchor + c] as number) : at(state, b, POSITION, c),
      );
      const d = pB.map((x, c) => x - at(state, a, POSITION, c));
      const current = Math.hypot(...d);
      if (!(current > 0)) continue;
      let n = d.map((x) => x / current);
      let penetration = current - length;
      let restitution = floats[k + F.restitution] as number;
      if ((words[k + F.kind] as number) === LINK_CABLE) {
        if (!(penetration > -skin)) continue;
      } else {
        if (!(current > length)) {
          n = n.map((x) => -x);
          penetration = length - current;
        }
        restitution = 0;
      }
      contacts.push({
        a,
        b: b === NO_PARTICLE ? -1 : b,
        normal: n as [number, number, number],
        penetration,
        restitution,
      });
    }
  }
  if (options.pairs) {
    for (let a = 0; a < count; a++) {
      for (let b = a + 1; b < count; b++) {
        const rA = at(state, a, RADIUS, 0);
        const rB = at(state, b, RADIUS, 0);
        if (rA < 0 || rB < 0 || !(rA + rB > 0)) continue;
        if (at(state, a, INVERSE_MASS, 0) <= 0 && at(state, b, INVERSE_MASS, 0) <= 0) continue;
        const d = [0, 1, 2].map((c) => at(state, a, POSITION, c) - at(state, b, POSITION, c));
        const distance = Math.hypot(...d);
        const penetration = rA + rB - distance;
        if (!(penetration > -skin)) continue;
        const n = distance > 0 ? d.map((x) => x / distance) : [0, 1, 0];
        contacts.push({
          a,
          b,
          normal: n as [number, number, number],
          penetration,
          restitution: options.pairRestitution ?? 0,
        });
      }
    }
  }
  if (options.colliders) {
    const { floats, words } = options.colliders;
    const F = COLLIDER.wordOffsets;
    for (let c = 0; c < options.colliders.count; c++) {
      const k = c * COLLIDER_WORDS;
      if ((words[k + F.kind] as number) !== KIND_PLANE) continue;
      const n = [0, 1, 2].map((j) => floats[k + F.axis0 + j] as number) as [number, number, number];
      for (let i = 0; i < count; i++) {
        if (at(state, i, INVERSE_MASS, 0) <= 0) continue;
        const distance =
          n.reduce((sum, x, j) => sum + x * at(state, i, POSITION, j), 0) - (floats[k + F.size] as number);
        const penetration = at(state, i, RADIUS, 0) - distance;
        if (!(penetration > -skin)) continue;
        contacts.push({ a: i, b: -1, normal: n, penetration, restitution: floats[k + F.restitution] as number });
      }
    }
  }
  return contacts;
}

function separatingVelocity(state: FloatArray, contact: SequentialContact): number {
  let s = 0;
  for (let c = 0; c < 3; c++) {
    const relative = at(state, contact.a, VELOCITY, c) - (contact.b >= 0 ? at(state, contact.b, VELOCITY, c) : 0);
    s += relative * (contact.normal[c] as number);
  }
  return s;
}

/**
 * ParticleContactResolver::resolveContacts over `contacts`, in place on
 * `state` (float64 arithmetic). Returns the iterations used. Cyclone's
 * ParticleWorld runs it with twice as many iterations as contacts.
 */
export function resolveSequential(
  state: FloatArray,
  contacts: SequentialContact[],
  iterations: number,
  dt: number,
): number {
  const inverseMass = (i: number) => (i >= 0 ? at(state, i, INVERSE_MASS, 0) : 0);
  const add = (i: number, offset: number, v: number[], scale: number) => {
    for (let c = 0; c < 3; c++)
      state[i * FLOATS_PER_PARTICLE + offset + c] = at(state, i, offset, c) + (v[c] as number) * scale;
  };
  let used = 0;
  for (; used < iterations; used++) {
    let max = Number.MAX_VALUE;
    let worst = -1;
    contacts.forEach((contact, i) => {
      const sepVel = separatingVelocity(state, contact);
      if (sepVel < max && (sepVel < 0 || contact.penetration > 0)) {
        max = sepVel;
        worst = i;
      }
    });
    if (worst < 0) break;
    const contact = contacts[worst] as SequentialContact;
    const { a, b, normal: n } = contact;
    const totalInverseMass = inverseMass(a) + inverseMass(b);
    // resolveVelocity
    const sepVel = separatingVelocity(state, contact);
    if (sepVel <= 0 && totalInverseMass > 0) {
      let newSepVelocity = -sepVel * contact.restitution;
      let accCaused = 0;
      for (let c = 0; c < 3; c++) {
        accCaused += (at(state, a, ACCELERATION, c) - (b >= 0 ? at(state, b, ACCELERATION, c) : 0)) * (n[c] as number);
      }
      accCaused *= dt;
      if (accCaused < 0) newSepVelocity = Math.max(newSepVelocity + contact.restitution * accCaused, 0);
      const impulse = (newSepVelocity - sepVel) / totalInverseMass;
      add(a, VELOCITY, n, impulse * inverseMass(a));
      if (b >= 0) add(b, VELOCITY, n, -impulse * inverseMass(b));
    }
    // resolveInterpenetration, then the other contacts' penetrations
    const move: [number[], number[]] = [
      [0, 0, 0],
      [0, 0, 0],
    ];
    if (contact.penetration > 0 && totalInverseMass > 0) {
      const perInverseMass = contact.penetration / totalInverseMass;
      move[0] = n.map((x) => x * perInverseMass * inverseMass(a));
      move[1] = n.map((x) => -x * perInverseMass * inverseMass(b));
      add(a, POSITION, move[0], 1);
      if (b >= 0) add(b, POSITION, move[1], 1);
    }
    const along = (v: number[], normal: number[]) => v.reduce((s, x, c) => s + x * (normal[c] as number), 0);
    for (const other of contacts) {
      if (other.a === a) other.penetration -= along(move[0], other.normal);
      else if (b >= 0 && other.a === b) other.penetration -= along(move[1], other.normal);
      if (other.b >= 0) {
        if (other.b === a) other.penetration += along(move[0], other.normal);
        else if (b >= 0 && other.b === b) other.penetration += along(move[1], other.normal);
      }
    }
  }
  return used;
}

/**
 * What Cyclone's ParticleWorld::runPhysics does after integrating: generate
 * the contacts, then resolve them, by default with twice as many iterations
 * as contacts (its default), or with `maxIterations` (the resolver stops on
 * its own once no contact is closing or penetrating). Float64, in place.
 */
export function resolveAsCyclone(
  state: FloatArray,
  count: number,
  options: Parameters<typeof generateContacts>[2],
  dt: number,
  maxIterations?: number,
): { contacts: number; iterations: number } {
  const contacts = generateContacts(state, count, options);
  const iterations = resolveSequential(state, contacts, maxIterations ?? contacts.length * 2, dt);
  return { contacts: contacts.length, iterations };
}
