/**
 * Trails: a ribbon behind each particle through its last `length` recorded
 * positions, kept on the GPU in a ring per slot (src/render/trailPass.ts,
 * shaders/render/trails.wgsl). This module is the pure part: the records and
 * uniform blocks (declared with the schema), the curves of width and colour
 * over the trail's normalised length (up to 8 stops each, linear between
 * stops), and the CPU reference of the ring update, line for line with the
 * record kernel, which the tests hold the GPU to.
 *
 * The curves are src/core/look/curves.ts's (the curves over life): a
 * scalar curve for the width and a gradient for the colour, evaluated over
 * the trail's normalised length instead of the particle's age.
 *
 * Why a generation in the ring's head: with emitters a slot is recycled, and
 * the new particle must not draw a ribbon through its predecessor's
 * positions. The life record's `generation` changes when a slot is reused;
 * the head keeps the generation its samples belong to, and a different one
 * empties the ring before the new position is written.
 */
import { arrayOf, defineStruct } from '../schema';
import { validator, type Validator } from '../validation';
import { FLOATS_PER_PARTICLE, OFFSET } from '../layout';
import { MAX_CURVE_STOPS, validateCurve, validateGradient, type ColorStop, type CurveStop } from './curves';

const check: Validator = validator();

/** Samples a trail may keep (the ring's length): at least 2 (one segment). */
export const MIN_TRAIL_LENGTH = 2;
/** The most samples a trail may keep. */
export const MAX_TRAIL_LENGTH = 256;

/**
 * Width and colour along a trail, over its normalised length u = k / (length - 1)
 * at the k-th newest sample (0: the newest, 1: the oldest a full ring keeps):
 * curves of src/core/look/curves.ts, 1 to 8 stops each, linear between stops
 * and constant outside them (evaluateCurve, evaluateGradient are the CPU
 * twins). The width multiplies TrailLook.width; colours are linear-light,
 * straight alpha, drawn unconverted, like the particles'.
 */
export interface TrailCurves {
  /** Width multiplier over the normalised length (>= 0; times TrailLook.width). */
  readonly width: readonly CurveStop[];
  /** Colour and alpha over the normalised length. */
  readonly color: readonly ColorStop[];
}

/** A ribbon that narrows to nothing and fades from opaque white to transparent. */
export const DEFAULT_TRAIL_CURVES: TrailCurves = {
  width: [
    { at: 0, value: 1 },
    { at: 1, value: 0 },
  ],
  color: [
    { at: 0, color: [1, 1, 1, 1] },
    { at: 1, color: [1, 1, 1, 0] },
  ],
};

/** TrailCurves checked (SparkworksInputError naming the stop); the colours' alpha filled in. */
export function validateTrailCurves(what: string, value: unknown): TrailCurves {
  const object = check.object(what, value, ['width', 'color']);
  return {
    width: validateCurve(`${what}.width`, object.width, 'must be a finite number >= 0', (x) => x >= 0),
    color: validateGradient(`${what}.color`, object.color),
  };
}

/** Refuses a trail length outside [2, 256] samples. */
export function checkTrailLength(length: number, what = 'trail length'): number {
  return check.integer(what, length, MIN_TRAIL_LENGTH, MAX_TRAIL_LENGTH);
}

// ---------------------------------------------------------------------------
// GPU records and blocks

/** A slot's ring: where the next sample goes, how many it holds, and whose they are. */
export const TRAIL_HEAD = defineStruct('TrailHead', {
  next: { type: 'u32', doc: 'the sample the next record writes, 0..length-1' },
  count: { type: 'u32', doc: 'samples held, 0..length' },
  generation: { type: 'u32', doc: "the life record's generation the samples belong to" },
  spare: 'u32',
});
/** Words a TrailHead. */
export const WORDS_PER_TRAIL_HEAD = TRAIL_HEAD.words;

/** The record kernel's uniform block. */
export const TRAIL_RECORD_PARAMS = defineStruct('TrailRecordParams', {
  count: { type: 'u32', doc: 'slots recorded: the first `count` particles' },
  length: { type: 'u32', doc: 'samples a ring' },
  rulesLow: { type: 'u32', doc: 'with life records: bit r set records spawn rules r < 32 (all set: every rule)' },
  rulesHigh: { type: 'u32', doc: 'bit r - 32 set records spawn rules 32 <= r < 64' },
});

/** Spawn rules a trail binding can pick (MAX_SPAWN_RULES): the two mask words' bits. */
export const TRAIL_RULE_BITS = 64;

/**
 * The record's rule mask, [rulesLow, rulesHigh]: every rule when `rules` is
 * null, else the rules listed (integers in [0, 64), refused otherwise).
 */
export function trailRuleMask(rules: readonly number[] | null, what = 'trail rules'): [number, number] {
  if (rules === null) return [0xffffffff, 0xffffffff];
  const mask: [number, number] = [0, 0];
  rules.forEach((rule, k) => {
    check.integer(`${what}[${k}]`, rule, 0, TRAIL_RULE_BITS - 1);
    mask[rule >> 5] = (mask[rule >> 5]! | (1 << (rule & 31))) >>> 0;
  });
  return mask;
}

/** Stop i of the width curve and stop i of the colour curve (unrelated but for their index). */
export const TRAIL_STOP = defineStruct('TrailStop', {
  color: { type: 'vec4f', doc: 'straight RGBA' },
  colorAt: 'f32',
  width: 'f32',
  widthAt: 'f32',
  spare: 'f32',
});

/** The trail draw's uniform block. */
export const TRAIL_DRAW_PARAMS = defineStruct('TrailDrawParams', {
  viewProjection: 'mat4x4f',
  viewport: { type: 'vec4f', doc: 'width, height (device pixels), focal pixels, unused' },
  stops: arrayOf(TRAIL_STOP, MAX_CURVE_STOPS),
  width: { type: 'f32', doc: 'world units, times the width curve' },
  intensity: 'f32',
  count: { type: 'u32', doc: 'slots drawn' },
  length: { type: 'u32', doc: 'samples a ring' },
  widthStops: 'u32',
  colorStops: 'u32',
  spare0: 'u32',
  spare1: 'u32',
});

/** Writes `curves` into a TrailDrawParams value's stops and stop counts. */
export function packTrailCurves(
  params: ReturnType<typeof TRAIL_DRAW_PARAMS.value>,
  curves: TrailCurves,
): ReturnType<typeof TRAIL_DRAW_PARAMS.value> {
  const stops = params.member('stops', TRAIL_STOP);
  for (let i = 0; i < MAX_CURVE_STOPS; i++) {
    const w = curves.width[i];
    const c = curves.color[i];
    stops.set(i, 'widthAt', w?.at ?? 1).set(i, 'width', w?.value ?? 0);
    stops.set(i, 'colorAt', c?.at ?? 1).set(
      i,
      'color',
      [0, 1, 2, 3].map((k) => c?.color[k] ?? 1),
    );
  }
  return params.set('widthStops', curves.width.length).set('colorStops', curves.color.length);
}

// ---------------------------------------------------------------------------
// The CPU reference of the record kernel

/** What the record reads of a slot's life record (systems with emitters). */
export interface TrailLife {
  alive(slot: number): boolean;
  generation(slot: number): number;
  /** The spawn rule the slot's particle came from: read where the record trails some rules only (absent: rule 0). */
  rule?(slot: number): number;
}

/**
 * The rings on the host, as the GPU keeps them: `heads` (TrailHead words a
 * slot) and `samples` (`length` vec4 a slot, xyz the position, w 1).
 * `record` is shaders/render/trails.wgsl's `record` line for line.
 */
export class CpuTrailRings {
  /** WORDS_PER_TRAIL_HEAD words a slot: TrailHead (next, count, generation, spare). */
  readonly heads: Uint32Array;
  /** `length` samples a slot, 4 floats each: xyz a recorded position, w 1. */
  readonly samples: Float32Array;

  constructor(
    /** Slots with a ring. */
    readonly capacity: number,
    /** Samples a ring keeps, MIN_TRAIL_LENGTH..MAX_TRAIL_LENGTH (2..256). */
    readonly length: number,
  ) {
    checkTrailLength(length);
    this.heads = new Uint32Array(capacity * WORDS_PER_TRAIL_HEAD);
    this.samples = new Float32Array(capacity * length * 4);
  }

  /**
   * Records the first `count` slots of `particles` (packed Particle records);
   * `life`: with emitters; `rules`: with emitters, the spawn rules trailed
   * (null: every rule).
   */
  record(
    particles: Float32Array,
    count: number,
    life: TrailLife | null = null,
    rules: readonly number[] | null = null,
  ): void {
    const [rulesLow, rulesHigh] = trailRuleMask(rules);
    const { POSITION } = OFFSET;
    const H = WORDS_PER_TRAIL_HEAD;
    const next = TRAIL_HEAD.offsets.next / 4;
    const held = TRAIL_HEAD.offsets.count / 4;
    const gen = TRAIL_HEAD.offsets.generation / 4;
    for (let slot = 0; slot < count; slot++) {
      const h = slot * H;
      if (life) {
        // A free slot keeps no trail, nor one of a rule not trailed; a recycled one starts over.
        const rule = rules === null ? 0 : (life.rule?.(slot) ?? 0);
        const trailed = rule < TRAIL_RULE_BITS && (((rule < 32 ? rulesLow : rulesHigh) >>> (rule & 31)) & 1) === 1;
        if (!life.alive(slot) || !trailed) {
          this.heads[h + held] = 0;
          continue;
        }
        const generation = life.generation(slot);
        if (this.heads[h + gen] !== generation) {
          this.heads[h + next] = 0;
          this.heads[h + held] = 0;
          this.heads[h + gen] = generation;
        }
      }
      const at = (slot * this.length + (this.heads[h + next] as number)) * 4;
      const p = slot * FLOATS_PER_PARTICLE + POSITION;
      this.samples[at] = particles[p] as number;
      this.samples[at + 1] = particles[p + 1] as number;
      this.samples[at + 2] = particles[p + 2] as number;
      this.samples[at + 3] = 1;
      this.heads[h + next] = ((this.heads[h + next] as number) + 1) % this.length;
      this.heads[h + held] = Math.min((this.heads[h + held] as number) + 1, this.length);
    }
  }

  /** Slot `slot`'s samples, newest first, as [x, y, z] (from heads and samples, e.g. read back from the GPU). */
  static trail(heads: Uint32Array, samples: Float32Array, length: number, slot: number): number[][] {
    const h = slot * WORDS_PER_TRAIL_HEAD;
    const next = heads[h + TRAIL_HEAD.offsets.next / 4] as number;
    const count = heads[h + TRAIL_HEAD.offsets.count / 4] as number;
    const out: number[][] = [];
    for (let k = 0; k < count; k++) {
      const at = (slot * length + ((next + length - 1 - k) % length)) * 4;
      out.push([samples[at] as number, samples[at + 1] as number, samples[at + 2] as number]);
    }
    return out;
  }

  /** This ring's slot `slot`, newest first. */
  trail(slot: number): number[][] {
    return CpuTrailRings.trail(this.heads, this.samples, this.length, slot);
  }
}
