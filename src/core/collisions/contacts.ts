/**
 * The CPU twin of shaders/collisions/contacts.wgsl: Cyclone's particle contacts (links
 * and particle-particle collisions) resolved by Jacobi iterations with mass
 * splitting, line for line in the shader's order, including the order in
 * which each particle sums its contacts (its links in link order, then its
 * neighbours cell by cell, each cell's particles by index). With
 * `round = Math.fround` every operation rounds to float32 as the GPU does.
 */
import { safeLength } from '../safeLength';
import { OFFSET, FLOATS_PER_PARTICLE } from '../layout';
import type { Rounding } from '../integrate';
import type { FloatArray } from '../particles';
import { dot3 } from './collide';
import { CpuGrid, bucketOf } from './grid';
import { LINK_CABLE, LINK_AT, LINK_WORDS, NO_PARTICLE, type PackedLinks } from './links';

export const MODE_COUNT = 0;
export const MODE_RESOLVE = 1;
export const MODE_LIST = 2;
export type ContactMode = typeof MODE_COUNT | typeof MODE_RESOLVE | typeof MODE_LIST;
/** Neighbours MODE_LIST records per particle (it counts them all). */
export const MAX_LISTED = 8;
/** The candidate test before the square root keeps a pair by this relative slack; the exact test follows. */
export const REACH_SLACK = Math.fround(1.0001);

export interface ContactParams {
  dt: number;
  skin: number;
  /** Restitution of particle-particle contacts. */
  restitution: number;
  /** Particle-particle contacts through the grid. */
  pairs: boolean;
}

/** One side of a contact as visitContact reads it: velocity, acceleration, inverse mass (an anchor: all 0). */
class ContactBody {
  vx = 0;
  vy = 0;
  vz = 0;
  ax = 0;
  ay = 0;
  az = 0;
  inverseMass = 0;

  /** Particle `index`'s values from the packed state. */
  load(state: FloatArray, index: number): this {
    const at = index * FLOATS_PER_PARTICLE;
    this.vx = state[at + VELOCITY] as number;
    this.vy = state[at + VELOCITY + 1] as number;
    this.vz = state[at + VELOCITY + 2] as number;
    this.ax = state[at + ACCELERATION] as number;
    this.ay = state[at + ACCELERATION + 1] as number;
    this.az = state[at + ACCELERATION + 2] as number;
    this.inverseMass = state[at + INVERSE_MASS] as number;
    return this;
  }

  /** An anchor: immovable, at rest. */
  anchor(): this {
    this.vx = this.vy = this.vz = this.ax = this.ay = this.az = this.inverseMass = 0;
    return this;
  }
}

const { POSITION, INVERSE_MASS, VELOCITY, ACCELERATION, RADIUS } = OFFSET;

export class CpuContacts {
  /** Active contacts per particle: closing ones in the low 16 bits, penetrating ones above. */
  readonly active: Uint32Array;
  /** Two xyzw per particle: the position correction, then the velocity change. */
  readonly deltas: FloatArray;
  /** MODE_LIST: up to MAX_LISTED neighbours per particle (NO_PARTICLE after the last). */
  readonly listed: Uint32Array;
  /**
   * When set, MODE_RESOLVE adds here (per axis) how much momentum its float32
   * rounding may create or destroy: for each particle with contacts,
   * m u ((terms + 2) sum |term| + |v|), the rounding of each impulse term, of
   * their sum and of adding it to v (test/contacts.test.ts derives it). The
   * exact terms cancel pair by pair, so this bounds the momentum change.
   */
  audit: Float64Array | null = null;
  private auditTerms = 0;
  private readonly auditSum = new Float64Array(3);

  // The shader's private accumulators.
  private closing = 0;
  private penetrating = 0;
  private mx = 0;
  private my = 0;
  private mz = 0;
  private vx = 0;
  private vy = 0;
  private vz = 0;
  private listedCount = 0;
  // The two sides of the contact being visited (scratch: no allocation per contact).
  private readonly bodyA = new ContactBody();
  private readonly bodyB = new ContactBody();

  private mode: ContactMode = MODE_COUNT;
  private state!: FloatArray;
  private params!: ContactParams;
  private round!: Rounding;

  constructor(
    readonly capacity: number,
    float64 = false,
  ) {
    this.active = new Uint32Array(capacity);
    this.deltas = float64 ? new Float64Array(capacity * 8) : new Float32Array(capacity * 8);
    this.listed = new Uint32Array(capacity * MAX_LISTED);
  }

  /** One dispatch of shaders/collisions/contacts.wgsl in `mode` over particles [0, count). */
  run(
    mode: ContactMode,
    state: FloatArray,
    count: number,
    links: PackedLinks,
    grid: CpuGrid | null,
    params: ContactParams,
    round: Rounding,
  ): void {
    this.mode = mode;
    this.state = state;
    this.params = params;
    this.round = round;
    // Each invocation reads the state (and, resolving, the counts) and writes
    // only its own slot, so sequential invocations see what parallel ones would.
    for (let index = 0; index < count; index++) {
      this.closing = 0;
      this.penetrating = 0;
      this.mx = this.my = this.mz = 0;
      this.vx = this.vy = this.vz = 0;
      this.listedCount = 0;
      this.auditTerms = 0;
      this.auditSum[0] = this.auditSum[1] = this.auditSum[2] = 0;
      const base = index * FLOATS_PER_PARTICLE;
      if (mode === MODE_LIST) {
        this.listed.fill(NO_PARTICLE, index * MAX_LISTED, (index + 1) * MAX_LISTED);
        if (params.pairs && grid && (state[base + RADIUS] as number) >= 0) this.visitNeighbours(index, grid);
        this.active[index] = this.listedCount;
        continue;
      }
      if ((state[base + INVERSE_MASS] as number) > 0) {
        this.visitLinks(index, links);
        if (params.pairs && grid) this.visitNeighbours(index, grid);
      }
      if (mode === MODE_COUNT) {
        this.active[index] = Math.min(this.closing, 0xffff) | (Math.min(this.penetrating, 0xffff) << 16);
      } else {
        const d = index * 8;
        this.deltas[d] = this.mx;
        this.deltas[d + 1] = this.my;
        this.deltas[d + 2] = this.mz;
        this.deltas[d + 3] = 0;
        this.deltas[d + 4] = this.vx;
        this.deltas[d + 5] = this.vy;
        this.deltas[d + 6] = this.vz;
        this.deltas[d + 7] = 0;
        if (this.audit && this.auditTerms > 0) {
          const mass = 1 / (state[base + INVERSE_MASS] as number);
          for (let c = 0; c < 3; c++) {
            const v = Math.abs(state[base + VELOCITY + c] as number);
            this.audit[c]! += mass * 2 ** -24 * ((this.auditTerms + 2) * (this.auditSum[c] as number) + v);
          }
        }
      }
    }
  }

  /**
   * visitContact of the shader: one contact between A and B (B an anchor when
   * b is NO_PARTICLE), their velocities, accelerations and inverse masses in
   * bodyA and bodyB.
   */
  private visitContact(
    selfIsA: boolean,
    a: number,
    b: number,
    nx: number,
    ny: number,
    nz: number,
    penetration: number,
    restitution: number,
  ): void {
    const { bodyA: A, bodyB: B } = this;
    const wA = A.inverseMass;
    const wB = B.inverseMass;
    const round = this.round;
    const separatingVelocity = dot3(round(A.vx - B.vx), round(A.vy - B.vy), round(A.vz - B.vz), nx, ny, nz, round);
    const isClosing = separatingVelocity < 0;
    const isPenetrating = penetration > 0;
    if (this.mode === MODE_COUNT) {
      if (isClosing) this.closing++;
      if (isPenetrating) this.penetrating++;
      return;
    }
    const countsA = this.active[a] as number;
    const countsB = b !== NO_PARTICLE ? (this.active[b] as number) : 0;
    const share = selfIsA ? wA : -wB;
    if (isClosing) {
      let newSepVelocity = round(-separatingVelocity * restitution);
      const accCausedSepVelocity = round(
        dot3(round(A.ax - B.ax), round(A.ay - B.ay), round(A.az - B.az), nx, ny, nz, round) * this.params.dt,
      );
      if (accCausedSepVelocity < 0) {
        newSepVelocity = round(newSepVelocity + round(restitution * accCausedSepVelocity));
        newSepVelocity = Math.max(newSepVelocity, 0);
      }
      const deltaVelocity = round(newSepVelocity - separatingVelocity);
      const splitInverseMass = round(round(wA * (countsA & 0xffff)) + round(wB * (countsB & 0xffff)));
      if (splitInverseMass > 0) {
        const impulse = round(deltaVelocity / splitInverseMass);
        const tx = round(round(nx * impulse) * share);
        const ty = round(round(ny * impulse) * share);
        const tz = round(round(nz * impulse) * share);
        this.vx = round(this.vx + tx);
        this.vy = round(this.vy + ty);
        this.vz = round(this.vz + tz);
        if (this.audit) {
          this.auditTerms++;
          this.auditSum[0]! += Math.abs(tx);
          this.auditSum[1]! += Math.abs(ty);
          this.auditSum[2]! += Math.abs(tz);
        }
      }
    }
    if (isPenetrating) {
      const splitInverseMass = round(round(wA * (countsA >>> 16)) + round(wB * (countsB >>> 16)));
      if (splitInverseMass > 0) {
        const move = round(penetration / splitInverseMass);
        this.mx = round(this.mx + round(round(nx * move) * share));
        this.my = round(this.my + round(round(ny * move) * share));
        this.mz = round(this.mz + round(round(nz * move) * share));
      }
    }
  }

  /** visitLinks of the shader. */
  private visitLinks(self: number, links: PackedLinks): void {
    const { state, round } = this;
    const skin = this.params.skin;
    const F = LINK_AT;
    const { floats, words } = links.records;
    const index = links.index;
    const refs = this.capacity + 1;
    const end = index[self + 1] as number;
    for (let r = index[self] as number; r < end; r++) {
      const k = (index[refs + r] as number) * LINK_WORDS;
      const a = words[k + F.a] as number;
      const b = words[k + F.b] as number;
      const kind = words[k + F.kind] as number;
      const length = floats[k + F.length] as number;
      const A = a * FLOATS_PER_PARTICLE;
      let pBx = floats[k + F.anchor] as number;
      let pBy = floats[k + F.anchor + 1] as number;
      let pBz = floats[k + F.anchor + 2] as number;
      if (b !== NO_PARTICLE) {
        const B = b * FLOATS_PER_PARTICLE;
        pBx = state[B + POSITION] as number;
        pBy = state[B + POSITION + 1] as number;
        pBz = state[B + POSITION + 2] as number;
      }
      const dx = round(pBx - (state[A + POSITION] as number));
      const dy = round(pBy - (state[A + POSITION + 1] as number));
      const dz = round(pBz - (state[A + POSITION + 2] as number));
      const length2 = dot3(dx, dy, dz, dx, dy, dz, round);
      if (!(length2 > 0)) continue;
      const currentLength = safeLength(dx, dy, dz, length2, round);
      let nx = round(dx / currentLength);
      let ny = round(dy / currentLength);
      let nz = round(dz / currentLength);
      let penetration = round(currentLength - length);
      let restitution = floats[k + F.restitution] as number;
      if (kind === LINK_CABLE) {
        if (!(penetration > -skin)) continue;
      } else {
        if (!(currentLength > length)) {
          nx = -nx;
          ny = -ny;
          nz = -nz;
          penetration = round(length - currentLength);
        }
        restitution = 0;
      }
      this.bodyA.load(state, a);
      if (b === NO_PARTICLE) this.bodyB.anchor();
      else this.bodyB.load(state, b);
      this.visitContact(self === a, a, b, nx, ny, nz, penetration, restitution);
    }
  }

  /** visitNeighbours of the shader: the 27 cells around this particle's, each pair seen from its lower index. */
  private visitNeighbours(self: number, grid: CpuGrid): void {
    const { state, round } = this;
    const { skin, restitution } = this.params;
    const { starts, entries, cells, mask } = grid;
    if ((cells[self * 4 + 3] as number) < 0) return;
    const hx = cells[self * 4] as number;
    const hy = cells[self * 4 + 1] as number;
    const hz = cells[self * 4 + 2] as number;
    for (let dz = -1; dz <= 1; dz++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const cx = hx + dx;
          const cy = hy + dy;
          const cz = hz + dz;
          const bucket = bucketOf(cx, cy, cz, mask);
          const end = starts[bucket + 1] as number;
          for (let s = starts[bucket] as number; s < end; s++) {
            const other = entries[s] as number;
            if (other === self) continue;
            const o = other * 4;
            if (cells[o] !== cx || cells[o + 1] !== cy || cells[o + 2] !== cz) continue;
            const selfIsA = self < other;
            const a = selfIsA ? self : other;
            const b = selfIsA ? other : self;
            const A = a * FLOATS_PER_PARTICLE;
            const B = b * FLOATS_PER_PARTICLE;
            const rA = state[A + RADIUS] as number;
            const rB = state[B + RADIUS] as number;
            if (rA < 0 || rB < 0) continue;
            const reach = round(rA + rB);
            if (!(reach > 0)) continue;
            const px = round((state[A + POSITION] as number) - (state[B + POSITION] as number));
            const py = round((state[A + POSITION + 1] as number) - (state[B + POSITION + 1] as number));
            const pz = round((state[A + POSITION + 2] as number) - (state[B + POSITION + 2] as number));
            const distance2 = dot3(px, py, pz, px, py, pz, round);
            const limit = round(reach + skin);
            if (!(distance2 < round(round(limit * limit) * REACH_SLACK))) continue;
            const distance = round(Math.sqrt(distance2));
            let nx = 0;
            let ny = 1;
            let nz = 0;
            if (distance > 0) {
              nx = round(px / distance);
              ny = round(py / distance);
              nz = round(pz / distance);
            }
            const penetration = round(reach - distance);
            if (!(penetration > -skin)) continue;
            if (this.mode === MODE_LIST) {
              if (this.listedCount < MAX_LISTED) this.listed[self * MAX_LISTED + this.listedCount] = other;
              this.listedCount++;
              continue;
            }
            this.bodyA.load(state, a);
            this.bodyB.load(state, b);
            this.visitContact(selfIsA, a, b, nx, ny, nz, penetration, restitution);
          }
        }
      }
    }
  }
}
