/**
 * The CPU reference of the lifecycle passes: ageing (shaders/step/liveAge.wgsl,
 * fused into the GPU's step, and shaders/lifecycle/age.wgsl), the deaths' counts, scan
 * and compaction (shaders/lifecycle/countDeaths.wgsl, lifeScan.wgsl, compact.wgsl), the
 * emission plan (shaders/lifecycle/lifePlan.wgsl planEmit), the fill (shaders/lifecycle/fill.wgsl)
 * and the emission (shaders/lifecycle/emit.wgsl), over the same packed records, in the
 * same order. Slot and list assignment is integer arithmetic on prefix sums
 * and bit order, so the CPU and the GPU put the same particle in the same
 * slot and list position; only the float quantities (positions, velocities,
 * lifetimes) differ, within the accuracies WGSL allows.
 *
 * The particle state lives in the caller's packed array (the CPU system's
 * `state`); this class owns the lists, the life records and the counters.
 */
import { isFiniteState, noteNonFinite } from '../integrate';
import type { HealthRecord } from '../nonFinite';
import { CONTACT_TOUCHED_BEFORE, CONTACT_TOUCHED_NOW, CONTACT_TRACKED } from '../collisions/colliders';
import { CONTACT_LANE } from '../collisions/collide';
import type { Rounding } from '../integrate';
import { OFFSET, FLOATS_PER_PARTICLE, NO_RULE, type LifeRecords } from '../layout';
import type { FloatArray } from '../particles';
import type { EmitterSet } from './emitterSet';
import { planEmitterRequests, requestEmitter } from './emitterRequests';
import {
  COUNTER_HEADER_WORDS,
  DEATH,
  EMITTER_FRAME,
  EMITTER_STATE,
  FRAME_PARAMS,
  LIFE_COUNTERS,
  MAX_SPAWN_RULES,
  RECORD_DIED,
  RECORD_HIT,
  RECORD_RULE_MASK,
  RULE_STATS_WORDS,
} from './gpuRecords';
import { addCount, childrenOf, dies, hitChildrenOf } from './lifeDeath';
import { initialLifecycle, parkSlot } from './lifecycleSlots';
import { findParent, payloadRule } from './payloadChildren';
import type { PreparedSpawnRules } from './spawnRules';
import { streamKey } from './random';
import type { StructArray } from '../schema';
import { spawnLife, spawnParticle } from './sampling';
import { lifecycleStats, type LifecycleStats } from './stats';

export { addCount } from './lifeDeath';
export { checkPermanentRange, initialLifecycle, parkSlot } from './lifecycleSlots';

const { POSITION, VELOCITY } = OFFSET;

const TWO_TO_32 = 2 ** 32;

/** One emitted particle and what made it. */
export interface Emission {
  slot: number;
  /** The spawn rule sampled (table index). */
  rule: number;
  /** Its random key. */
  key: number;
  center: ArrayLike<number>;
  inheritFrom: ArrayLike<number>;
}

export class CpuLifecycle {
  readonly lists: Uint32Array<ArrayBuffer>;
  readonly freeList: Uint32Array<ArrayBuffer>;
  readonly life: LifeRecords;
  readonly counters: StructArray<typeof LIFE_COUNTERS.fields>;
  /** Births per spawn rule, then deaths, then collision events per spawn rule (table index). */
  readonly ruleStats = new Uint32Array(RULE_STATS_WORDS);
  /** One bit a live index, set when it dies this step (the GPU's death bits); all zero between steps. */
  private readonly deadBits: Uint32Array;
  /** One bit a live index, set when it has a collision event this step (the GPU's event bits); all zero between steps. */
  private readonly eventBits: Uint32Array;
  /** The live index of each death of the step, in order. */
  private readonly deadIndex: Uint32Array;
  /** Per word of deadBits: the deaths, children and records before it (the GPU's scan). */
  private readonly scanned: Uint32Array;
  private readonly deaths: StructArray<typeof DEATH.fields>;
  /** The counters' per-emitter states (a view of the same words). */
  private readonly emitterStates: StructArray<typeof EMITTER_STATE.fields>;
  /** Called for every particle emitted, with what made it (the tests derive each one's error bound from it). */
  onEmit: ((emission: Emission) => void) | null = null;

  constructor(
    readonly capacity: number,
    readonly permanent: number,
    readonly rules: PreparedSpawnRules,
    readonly emitters: EmitterSet,
    private readonly round: Rounding,
  ) {
    ({
      lists: this.lists,
      freeList: this.freeList,
      life: this.life,
      counters: this.counters,
    } = initialLifecycle(capacity, permanent));
    const words = Math.ceil(capacity / 32);
    this.deadBits = new Uint32Array(words);
    this.eventBits = new Uint32Array(words);
    this.deadIndex = new Uint32Array(capacity);
    this.scanned = new Uint32Array(3 * words);
    this.deaths = DEATH.array(rules.hasPayloads ? capacity : 1);
    this.emitterStates = this.counters.member(0, 'emitters', EMITTER_STATE);
  }

  /** Parks the free slots of a freshly initialised state. */
  initialize(state: FloatArray): void {
    for (let slot = this.permanent; slot < this.capacity; slot++) parkSlot(state, slot);
  }

  private get(field: keyof typeof LIFE_COUNTERS.fields): number {
    return this.counters.get(0, field);
  }
  private put(field: keyof typeof LIFE_COUNTERS.fields, value: number): void {
    this.counters.set(0, field, value >>> 0);
  }
  private add64(field: 'emitted' | 'killed' | 'shortfall', n: number): void {
    const at = this.counters.index(0, field);
    const low = ((this.counters.words[at] as number) + n) >>> 0;
    if (low < n) this.counters.words[at + 1] = ((this.counters.words[at + 1] as number) + 1) >>> 0;
    this.counters.words[at] = low;
  }

  /** The live slots, in live-list order. */
  liveSlots(): Uint32Array {
    const start = this.get('parity') * this.capacity;
    return this.lists.slice(start, start + this.get('live'));
  }

  /** The free list, bottom to top. */
  freeSlots(): Uint32Array {
    return this.freeList.slice(0, this.get('free'));
  }

  /** Before the step: the step count (which the GPU counts in planEmit). */
  beforeStep(): void {
    this.put('steps', this.get('steps') + 1);
  }

  /**
   * After the step and the collisions: age, count, scan and compact the
   * deaths, plan, fill, emit (the order the GPU records them; its step does
   * the ageing, judged again after the collisions when they run).
   */
  afterStep(state: FloatArray, dt: number, health: HealthRecord | null = null): void {
    const frame = this.emitters.frame(dt);
    this.age(state, frame.get(0, 'dt'));
    this.scanDeaths();
    this.compact(state);
    this.planEmit(frame);
    this.fill();
    this.emit(state, frame, health);
  }

  /** shaders/step/liveAge.wgsl (the GPU's step ages), shaders/lifecycle/age.wgsl (with the collision events) */
  private age(state: FloatArray, dt: number): void {
    const live = this.get('live');
    const list = this.get('parity') * this.capacity;
    for (let k = 0; k < live; k++) {
      const slot = this.lists[list + k] as number;
      const age = this.round(this.life.get(slot, 'age') + dt);
      this.life.set(slot, 'age', age);
      const base = slot * FLOATS_PER_PARTICLE;
      const contact = state[base + CONTACT_LANE] as number;
      if (contact >= CONTACT_TRACKED) {
        const touchedNow = ((contact - CONTACT_TRACKED) & CONTACT_TOUCHED_NOW) !== 0;
        if (contact === CONTACT_TRACKED + CONTACT_TOUCHED_NOW)
          this.eventBits[k >>> 5] = ((this.eventBits[k >>> 5] as number) | (1 << (k & 31))) >>> 0;
        state[base + CONTACT_LANE] = touchedNow ? CONTACT_TRACKED + CONTACT_TOUCHED_BEFORE : CONTACT_TRACKED;
      }
      if (dies(state, this.life, this.rules.table, slot, age)) {
        this.life.set(slot, 'alive', 0);
        this.deadBits[k >>> 5] = ((this.deadBits[k >>> 5] as number) | (1 << (k & 31))) >>> 0;
      }
    }
  }

  /**
   * shaders/lifecycle/countDeaths.wgsl and lifeScan.wgsl: (deaths, children, records) a
   * word of death and event bits, their exclusive prefix sums (one pass here;
   * the blocks change nothing in integers), and the deaths and hits per rule.
   */
  private scanDeaths(): void {
    const words = Math.ceil(this.get('live') / 32);
    const list = this.get('parity') * this.capacity;
    let deaths = 0;
    let children = 0;
    let records = 0;
    for (let w = 0; w < words; w++) {
      this.scanned[3 * w] = deaths;
      this.scanned[3 * w + 1] = children;
      this.scanned[3 * w + 2] = records;
      const bits = this.deadBits[w] as number;
      const hits = this.eventBits[w] as number;
      let rest = (bits | hits) >>> 0;
      while (rest !== 0) {
        const bit = (rest & -rest) >>> 0;
        const k = w * 32 + (31 - Math.clz32(bit));
        rest = (rest & (rest - 1)) >>> 0;
        const died = (bits & bit) !== 0;
        const hit = (hits & bit) !== 0;
        const rule = this.life.get(this.lists[list + k] as number, 'rule');
        if (this.rules.hasPayloads) {
          if (died) children = addCount(children, childrenOf(this.rules.table, rule));
          if (hit) children = addCount(children, hitChildrenOf(this.rules.table, rule));
        }
        if (rule !== NO_RULE) {
          const diedAt = MAX_SPAWN_RULES + rule;
          const hitAt = 2 * MAX_SPAWN_RULES + rule;
          if (died) this.ruleStats[diedAt] = (this.ruleStats[diedAt] as number) + 1;
          if (hit) this.ruleStats[hitAt] = (this.ruleStats[hitAt] as number) + 1;
        }
        if (died) deaths += 1;
        records += 1;
      }
    }
    this.totalDeaths = deaths;
    this.totalChildren = children;
    this.totalRecords = records;
  }
  private totalDeaths = 0;
  private totalChildren = 0;
  private totalRecords = 0;

  /** shaders/lifecycle/compact.wgsl: the deaths and events only, word by word, bit by bit; the words cleared. */
  private compact(state: FloatArray): void {
    const words = Math.ceil(this.get('live') / 32);
    const list = this.get('parity') * this.capacity;
    const free = this.get('free');
    for (let w = 0; w < words; w++) {
      const deathBits = this.deadBits[w] as number;
      const hits = this.eventBits[w] as number;
      if ((deathBits | hits) === 0) continue;
      this.deadBits[w] = 0;
      this.eventBits[w] = 0;
      // Without payloads an event alone writes nothing here: only the deaths are walked.
      let bits = (this.rules.hasPayloads ? deathBits | hits : deathBits) >>> 0;
      let d = this.scanned[3 * w] as number;
      let childStart = this.scanned[3 * w + 1] as number;
      let r = this.scanned[3 * w + 2] as number;
      while (bits !== 0) {
        const bit = (bits & -bits) >>> 0;
        const k = w * 32 + (31 - Math.clz32(bit));
        bits = (bits & (bits - 1)) >>> 0;
        const died = (deathBits & bit) !== 0;
        const hit = (hits & bit) !== 0;
        const slot = this.lists[list + k] as number;
        const rule = this.life.get(slot, 'rule');
        const base = slot * FLOATS_PER_PARTICLE;
        if (this.rules.hasPayloads) {
          this.deaths
            .set(r, 'position', state.subarray(base + POSITION, base + POSITION + 3))
            .set(r, 'childStart', childStart)
            .set(r, 'velocity', state.subarray(base + VELOCITY, base + VELOCITY + 3))
            .set(r, 'rule', (rule | (died ? RECORD_DIED : 0) | (hit ? RECORD_HIT : 0)) >>> 0);
          if (died) childStart = addCount(childStart, childrenOf(this.rules.table, rule));
          if (hit) childStart = addCount(childStart, hitChildrenOf(this.rules.table, rule));
          r += 1;
        }
        if (died) {
          this.deadIndex[d] = k;
          this.freeList[free + d] = slot;
          parkSlot(state, slot);
          d += 1;
        }
      }
    }
  }

  /** shaders/lifecycle/fill.wgsl: survivors at [L - D, L) into the holes below L - D, in rank order. */
  private fill(): void {
    const deaths = this.get('deaths');
    const survivors = this.get('liveBase');
    const list = this.get('parity') * this.capacity;
    // Deaths with a live index below k: the scan's before k's word, then that word's own below k.
    const below = (k: number) => {
      let d = this.scanned[3 * (k >>> 5)] as number;
      while (d < deaths && (this.deadIndex[d] as number) < k) d++;
      return d;
    };
    const holes = below(survivors);
    for (let i = 0; i < deaths; i++) {
      const p = survivors + i;
      const before = below(p);
      if (before < deaths && this.deadIndex[before] === p) continue;
      const rank = i - (before - holes);
      this.lists[list + (this.deadIndex[rank] as number)] = this.lists[list + p] as number;
    }
  }

  /** shaders/lifecycle/lifePlan.wgsl planEmit */
  private planEmit(frame: StructArray<typeof FRAME_PARAMS.fields>): void {
    const before = this.get('live');
    const deaths = before > 0 ? this.totalDeaths : 0;
    const childTotal = before > 0 ? this.totalChildren : 0;
    const survivors = before - deaths;
    this.put('deaths', deaths);
    this.put('records', before > 0 ? this.totalRecords : 0);
    this.add64('killed', deaths);
    const free = this.get('free') + deaths;

    const childRequests = Math.min(childTotal, this.capacity);
    let shortfall = childTotal - childRequests;
    this.put('childRequests', childRequests);
    this.put('childSequenceBase', this.get('childSequence'));
    this.put('childSequence', this.get('childSequence') + childTotal);

    const { hostRequests, shortfall: hostShortfall } = planEmitterRequests(frame, this.emitterStates, this.capacity);
    shortfall += hostShortfall;
    this.put('hostRequests', hostRequests);

    const requests = childRequests + hostRequests;
    const granted = Math.min(requests, free);
    shortfall += requests - granted;
    this.put('granted', granted);
    this.put('freeTop', free);
    this.put('liveBase', survivors);
    this.put('free', free - granted);
    this.put('live', survivors + granted);
    this.add64('emitted', granted);
    // The GPU adds in u32 pieces; the sum of a step's shortfall stays below 2^32.
    this.add64('shortfall', shortfall % TWO_TO_32);
  }

  /** shaders/lifecycle/emit.wgsl */
  private emit(state: FloatArray, frame: StructArray<typeof FRAME_PARAMS.fields>, health: HealthRecord | null): void {
    const granted = this.get('granted');
    const table = this.rules.table;
    const round = this.round;
    const states = this.emitterStates;
    const emitters = frame.member(0, 'emitters', EMITTER_FRAME);
    for (let j = 0; j < granted; j++) {
      const slot = this.freeList[this.get('freeTop') - 1 - j] as number;
      this.lists[this.get('parity') * this.capacity + this.get('liveBase') + j] = slot;
      let rule: number;
      let key: number;
      let center: ArrayLike<number>;
      let inheritFrom: ArrayLike<number>;
      if (j < this.get('childRequests')) {
        const d = findParent(this.deaths, this.get('records'), j);
        const flags = this.deaths.get(d, 'rule');
        const parent = (flags & RECORD_RULE_MASK) >>> 0;
        // Its death payload first (if it died), then its collision payload (if it hit).
        const deathChildren = (flags & RECORD_DIED) !== 0 ? childrenOf(table, parent) : 0;
        rule = payloadRule(table, parent, j - this.deaths.get(d, 'childStart'), deathChildren);
        key = streamKey(table.get(rule, 'seed'), (this.get('childSequenceBase') + j) >>> 0);
        const at = this.deaths.index(d, 'position');
        center = this.deaths.floats.subarray(at, at + 3);
        const v = this.deaths.index(d, 'velocity');
        inheritFrom = this.deaths.floats.subarray(v, v + 3);
      } else {
        const h = j - this.get('childRequests');
        const e = requestEmitter(states, frame.get(0, 'emitterCount'), h);
        rule = e;
        key = streamKey(table.get(e, 'seed'), (states.get(e, 'sequenceBase') + (h - states.get(e, 'start'))) >>> 0);
        const c = emitters.index(e, 'center');
        center = emitters.floats.subarray(c, c + 3);
        const v = emitters.index(e, 'velocity');
        inheritFrom = emitters.floats.subarray(v, v + 3);
      }
      // spawnParticle, spawnLifetime, spawnSize (each quantity has its own draw, so the order is free).
      const base = slot * FLOATS_PER_PARTICLE;
      spawnParticle(state, base, table, rule, center, inheritFrom, key, round);
      // Tracked for collision events (shaders/lifecycle/emit.wgsl): no contact yet.
      state[base + CONTACT_LANE] = CONTACT_TRACKED;
      const tag = spawnLife(this.life, slot, table, rule, key, round);
      this.ruleStats[tag] = (this.ruleStats[tag] as number) + 1;
      // Born NaN or infinite (an inherited velocity past float32's range): counted, and parked, as the step does.
      if (health && !isFiniteState(state, base)) noteNonFinite(state, base, slot, health);
      this.onEmit?.({ slot, rule, key, center: Array.from(center), inheritFrom: Array.from(inheritFrom) });
    }
  }

  /** The counters as the host reads them. */
  stats(): LifecycleStats {
    return lifecycleStats(this.counters.words.subarray(0, COUNTER_HEADER_WORDS), this.ruleStats, this.rules);
  }
}
