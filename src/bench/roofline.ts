/**
 * Bytes each case moves a particle-step, counted from what its shader (or
 * loop) actually loads and stores, and the arithmetic from a measured time to
 * bandwidth and to a fraction of a roofline.
 */
import { BYTES_PER_LIFE, BYTES_PER_PARTICLE, FLOATS_PER_LANE } from '../core/layout';
import { SOA_BYTES_READ, SOA_BYTES_WRITTEN } from './soaPass';

const LANE_BYTES = FLOATS_PER_LANE * 4;

export interface ByteCount {
  read: number;
  written: number;
}

/** Bytes a particle-step for each kind of case. */
export const BYTES = {
  /**
   * integrate.wgsl once a step has cleared the force accumulators and nothing
   * wrote one since (every timed step of a case: StepParams.forceAccumulator 0):
   * loads position|inverseMass, velocity|damping and acceleration|radius,
   * stores the first two; the accumulator lane is neither read nor cleared.
   */
  step: { read: 3 * LANE_BYTES, written: 2 * LANE_BYTES },
  /**
   * integrate.wgsl under registry gravity (every movable particle's own
   * acceleration +0: ACCELERATION_LANE false, the system's choice, which the
   * case checks): loads position|inverseMass and velocity|damping, stores
   * both; neither the acceleration|radius lane nor the accumulator is read.
   */
  stepWithoutAccelerationLane: { read: 2 * LANE_BYTES, written: 2 * LANE_BYTES },
  /** integrate.wgsl with the accumulator lane (after addForces, a write, a force pass): the whole record in, three lanes out. */
  stepWithAccumulator: { read: BYTES_PER_PARTICLE, written: 3 * LANE_BYTES },
  /** integrateUniformAcceleration.wgsl: loads and stores three lanes; acceleration comes from the uniform. */
  uniformAcceleration: { read: 3 * LANE_BYTES, written: 3 * LANE_BYTES },
  /** integrateSoA.wgsl: the step's six attributes' own bytes, no spare slots. */
  soa: { read: SOA_BYTES_READ, written: SOA_BYTES_WRITTEN },
  /**
   * The step with the colliders fused in (integrate.wgsl + fusedColliders.wgsl,
   * the default without links or contacts): what `step` moves, the radius
   * coming with the acceleration lane the step reads anyway (a killed
   * particle would also write its radius; none is here).
   */
  stepPlane: { read: 3 * LANE_BYTES, written: 2 * LANE_BYTES },
  /**
   * The same under registry gravity with every radius +0 (ACCELERATION_LANE
   * false, checked by the case): the step's two lanes in and out, the
   * colliders' records from a uniform (a killed particle would also write its
   * radius; none is here).
   */
  stepPlaneWithoutAccelerationLane: { read: 2 * LANE_BYTES, written: 2 * LANE_BYTES },
  /**
   * The step then collide.wgsl as a pass of its own (with links or contacts,
   * or `fuseColliders: false`): position|inverseMass, velocity|damping and
   * acceleration|radius in again, position and velocity out again.
   */
  stepPlaneSeparate: { read: 6 * LANE_BYTES, written: 4 * LANE_BYTES },
  /** copy.wgsl and copyBufferToBuffer: one whole record in, one out. */
  copy: { read: BYTES_PER_PARTICLE, written: BYTES_PER_PARTICLE },
  /** scatter.wgsl adding forces: the uploaded lane and the force lane in, the force lane out. */
  scatterAdd: { read: 2 * LANE_BYTES, written: LANE_BYTES },
  /** forces.wgsl: position|inverseMass and velocity|damping and the force lane in, the force lane out. */
  forces: { read: 3 * LANE_BYTES, written: LANE_BYTES },
  /**
   * src/core/integrate.ts: reads the step's own attributes (the same six as
   * the SoA layout), writes position, velocity and force; spare slots and
   * attributes the step does not use are never touched.
   */
  cpu: { read: SOA_BYTES_READ, written: SOA_BYTES_WRITTEN },
} as const satisfies Record<string, ByteCount>;

/**
 * A frame of a system with emitters (src/gpu/lifecycle/lifecycle.ts), counted from the
 * words each pass's shader names (a scalar read from a lane counts 4 bytes,
 * not the lane), for the three kinds of particle a frame handles. Left out:
 * planEmit (one invocation, a few counters), the scan's
 * levels (8 bytes a word of 32 live), the per-rule atomics and the
 * uniforms. Bytes a live particle-step are then
 * `live + deaths / live * death + births / live * birth`.
 */
export const LIFECYCLE_BYTES = {
  /**
   * Every particle live at the frame's start: the step over every slot
   * with the ageing fused in (denseDispatch.wgsl + integrate.wgsl + liveAge.wgsl):
   * its `alive` 4 and the position, velocity and
   * acceleration|radius lanes 48 in, the first two 32 out (the force
   * accumulator skipped once a step has cleared it, as in the plain step's
   * `step`); the ageing reads age, lifetime and rule 12 (radius and
   * position.y are the record's) and writes age 4; countDeaths.wgsl and
   * compact.wgsl read its death bit and its event bit, a word each a 32 live
   * particles: 4 x 4 / 32 = 0.5; countDeaths.wgsl writes the scan's level-0
   * sums, 16 B a word: 0.5.
   */
  live: { read: 4 + 3 * LANE_BYTES + 12 + 0.5, written: 2 * LANE_BYTES + 4 + 0.5 },
  /** With the colliders fused into the step (a fountain), on top of `live`: the ageing reads the contact lane 4. */
  liveWithColliders: { read: 4, written: 0 },
  /**
   * A death, on top of `live`: alive 4 and its bit 4 out (liveAge.wgsl);
   * countDeaths.wgsl: its slot 4 and rule 4 in; compact.wgsl: its slot 4, rule
   * 4, record 64 and its word's scanned sums (levels 0 and 1) 32 in, its live
   * index 4, free-list slot 4 and the parked record 64 out (with payloads
   * also its death record, 32: the benchmark's pools have none); fill.wgsl:
   * the scanned sums before its tail position's word and before the
   * survivors' end, 2 x 32, the deaths' indices of those words it walks
   * (about two, 8), the index at its position 4, the hole's index 4 and the
   * tail's slot 4 in, the slot into the hole and its inverse-map entry 8 out.
   */
  death: {
    read: 4 + 4 + (4 + 4 + BYTES_PER_PARTICLE + 32) + (2 * 32 + 8 + 4 + 4 + 4),
    written: 8 + (4 + 4 + BYTES_PER_PARTICLE) + 8,
  },
  /**
   * A birth (emit.wgsl): its free-list slot 4 and life record 32 in; its slot
   * in the live list 4, the new particle 64 and life record 32 out; and
   * fill.wgsl: its free-list slot 4 and the high-water mark 4 in, its
   * inverse-map entry 4 out.
   */
  birth: { read: 4 + BYTES_PER_LIFE + 4 + 4, written: 4 + BYTES_PER_PARTICLE + BYTES_PER_LIFE + 4 },
  /**
   * With the colliders fused into the step (a fountain), a collision event (a
   * contact start), on top of `live`: liveAge.wgsl stores the contact lane 4
   * (and 4 more when the contact ends, counted here), `alive` 4 and both bit
   * words' atomics 8; countDeaths.wgsl reads its live index 4 and rule 4 (its
   * rule's hits are added once a word). Without payloads (a fountain has
   * none) compact.wgsl walks only the deaths. The live particles' lanes are
   * read with their records.
   */
  event: { read: 4 + 4, written: 8 + 4 + 8 },
  /** With the colliders fused, a death, on top of `death`: the event word's atomic, in the same branch, 4. */
  deathWithColliders: { read: 0, written: 4 },
} as const satisfies Record<string, ByteCount>;

/**
 * Bytes a live particle-step of a lifecycle frame with `births` and `deaths`
 * a step over `live` particles; `events`, collision events a step, where the
 * colliders are fused into the step (null: no colliders).
 */
export function lifecycleBytes(live: number, births: number, deaths: number, events: number | null = null): ByteCount {
  const { live: each, death, birth, event, deathWithColliders, liveWithColliders } = LIFECYCLE_BYTES;
  const perLive = (n: number) => (live > 0 ? n / live : 0);
  const collided =
    events === null
      ? { read: 0, written: 0 }
      : {
          read: liveWithColliders.read + perLive(events) * event.read + perLive(deaths) * deathWithColliders.read,
          written:
            liveWithColliders.written + perLive(events) * event.written + perLive(deaths) * deathWithColliders.written,
        };
  return {
    read: each.read + perLive(deaths) * death.read + perLive(births) * birth.read + collided.read,
    written: each.written + perLive(deaths) * death.written + perLive(births) * birth.written + collided.written,
  };
}

export function totalBytes(count: ByteCount): number {
  return count.read + count.written;
}

/** Particle-steps a second from the median time of one step over `particles`. */
export function particleStepsPerSecond(particles: number, msPerStep: number): number {
  return particles / (msPerStep / 1000);
}

export function gigabytesPerSecond(particleStepsPerSecond: number, bytesPerParticleStep: number): number {
  return (particleStepsPerSecond * bytesPerParticleStep) / 1e9;
}
