/**
 * The generator record, defined once: the WGSL struct and its per-type
 * parameter accessors are generated from these tables, and the host packs
 * records (and the CPU reference reads them) through the same tables.
 *
 * A record is 48 bytes: `kind, first, end, mask` (u32) and two float lanes
 * `a`, `b` (vec4f). Parameters the host can derive (1/(2 maxDepth),
 * softening², a unit axis, the stiff spring's per-dt coefficients, the
 * turbulence field's origin) are derived here in float64 and rounded to float32 once,
 * so the shader and the CPU reference start from the same float32 values.
 */
import type { ForceType, StoredGenerator } from './generators';
import { turbulenceOrigin } from './turbulence';
import { arrayOf, defineStruct } from '../schema';

/** Generators per system: the records live in one uniform block. */
export const MAX_FORCE_GENERATORS = 32;
/** `mask` of a generator whose target is a range, not an index list. */
export const NO_MASK = 0xffffffff;

/** Kind codes, in the order of FORCE_PARAMETERS. */
export const FORCE_KINDS = {
  gravity: 0,
  drag: 1,
  anchoredSpring: 2,
  anchoredBungee: 3,
  buoyancy: 4,
  stiffSpring: 5,
  attractor: 6,
  vortex: 7,
  wind: 8,
  turbulence: 9,
} as const satisfies Record<ForceType, number>;

/** Where a stored parameter lives: float lane a or b, first component, size. */
type Slot = readonly ['a' | 'b', 0 | 1 | 2 | 3, 1 | 3];

/** Each type's record parameters (what the shader reads), by slot. */
export const FORCE_SLOTS = {
  gravity: { g: ['a', 0, 3] },
  drag: { k1: ['a', 0, 1], k2: ['a', 1, 1] },
  anchoredSpring: { anchor: ['a', 0, 3], restLength: ['a', 3, 1], stiffness: ['b', 0, 1] },
  anchoredBungee: { anchor: ['a', 0, 3], restLength: ['a', 3, 1], stiffness: ['b', 0, 1] },
  // surfaceTop = waterHeight + maxDepth, inverseBand = 1/(2 maxDepth), fullForce = ρ V g.
  buoyancy: { surfaceTop: ['a', 0, 1], inverseBand: ['a', 1, 1], fullForce: ['a', 2, 1] },
  // accel = positionCoefficient * (x - anchor) + velocityCoefficient * v, for this dt.
  stiffSpring: { anchor: ['a', 0, 3], positionCoefficient: ['b', 0, 1], velocityCoefficient: ['b', 1, 1] },
  attractor: { position: ['a', 0, 3], strength: ['a', 3, 1], softening2: ['b', 0, 1] },
  vortex: { position: ['a', 0, 3], strength: ['a', 3, 1], axis: ['b', 0, 3], softening2: ['b', 3, 1] },
  wind: { force: ['a', 0, 3] },
  // q = position * frequency + origin, origin = offset * frequency + the seed's shift.
  turbulence: { origin: ['a', 0, 3], strength: ['a', 3, 1], frequency: ['b', 0, 1] },
} as const satisfies Record<ForceType, Record<string, Slot>>;

/** One generator's record: its kind and target, then two float lanes of parameters (FORCE_SLOTS says which). */
export const FORCE_RECORD = defineStruct('ForceRecord', {
  kind: 'u32',
  first: { type: 'u32', doc: 'the target range is [first, end)' },
  end: 'u32',
  mask: { type: 'u32', doc: 'first word of the target bitmask (bit i - first), or NO_MASK' },
  a: { type: 'vec4f', doc: 'parameters, see the accessors' },
  b: 'vec4f',
});

/** The uniform block of every generator for one dt. */
export const FORCE_TABLE = defineStruct('ForceTable', {
  count: { type: 'u32', doc: 'particles' },
  generatorCount: 'u32',
  records: arrayOf(FORCE_RECORD, MAX_FORCE_GENERATORS),
});

export const RECORD_WORDS = FORCE_RECORD.words;
export const RECORD_BYTES = FORCE_RECORD.size;
/** u32 words of a record as the host keeps them: kind, first, end, mask (the words before lane a). */
export const RECORD_INTS = FORCE_RECORD.wordOffsets.a;
/** float words of a record: a.xyzw, b.xyzw. */
export const RECORD_FLOATS = RECORD_WORDS - RECORD_INTS;
/** Where lanes a and b start among a record's RECORD_FLOATS floats. */
const LANE_A = FORCE_RECORD.wordOffsets.a - RECORD_INTS;
const LANE_B = FORCE_RECORD.wordOffsets.b - RECORD_INTS;

/** Where kind, first, end and mask sit among a record's RECORD_INTS words. */
export const RECORD_INT_AT = {
  kind: FORCE_RECORD.wordOffsets.kind,
  first: FORCE_RECORD.wordOffsets.first,
  end: FORCE_RECORD.wordOffsets.end,
  mask: FORCE_RECORD.wordOffsets.mask,
} as const;
/** The table's header (particle count, generator count, padding) before the records. */
export const TABLE_HEADER_BYTES = FORCE_TABLE.offsets.records;
export const TABLE_BYTES = FORCE_TABLE.size;

/** Index of a parameter's first float within a record's RECORD_FLOATS floats. */
export function slotIndex<T extends ForceType>(type: T, name: keyof (typeof FORCE_SLOTS)[T]): number {
  const [lane, component] = (FORCE_SLOTS[type] as Record<string, Slot>)[name as string] as Slot;
  return (lane === 'a' ? LANE_A : LANE_B) + component;
}

const SWIZZLE = 'xyzw';

/**
 * The WGSL declarations: constants, the record and table structs with their
 * byte offsets, and one accessor per parameter (`drag_k1(r)`), so the shader
 * names parameters, never slots.
 */
export function wgslForceDeclarations(): string {
  const accessors = Object.entries(FORCE_SLOTS).flatMap(([type, slots]) =>
    Object.entries(slots as Record<string, Slot>).map(([name, [lane, component, size]]) => {
      const swizzle = SWIZZLE.slice(component, component + size);
      return `fn ${type}_${name}(r: ForceRecord) -> ${size === 1 ? 'f32' : 'vec3f'} { return r.${lane}.${swizzle}; }`;
    }),
  );
  return [
    `const MAX_FORCE_GENERATORS: u32 = ${MAX_FORCE_GENERATORS}u;`,
    `const NO_MASK: u32 = ${NO_MASK}u;`,
    ...Object.entries(FORCE_KINDS).map(([type, kind]) => `const FORCE_${type.toUpperCase()}: u32 = ${kind}u;`),
    FORCE_RECORD.wgsl(),
    FORCE_TABLE.wgsl(),
    ...accessors,
  ].join('\n');
}

/** How a generator's target is tested: not at all, a range, or a range and a bitmask. */
export type TargetMode = 'all' | 'range' | 'mask';

/** What the generated shader code depends on: each generator's type and target mode, in order. */
export type ForceComposition = readonly { readonly type: ForceType; readonly target: TargetMode }[];

/** A composition as a short key, e.g. `gravity:all,drag:range`: the force pipeline's cache key. */
export function compositionKey(composition: ForceComposition): string {
  return composition.map((g) => `${g.type}:${g.target}`).join(',');
}

/**
 * `registeredForces` for one composition: the registry's generators as
 * straight-line calls in registry order, each behind its target test, each
 * reading its record at a constant index. Appended to shaders/forces/forces.wgsl.
 */
export function wgslRegisteredForces(composition: ForceComposition): string {
  const calls = composition.map(({ type, target }, k) => {
    const record = `table.records[${k}u]`;
    const call = `force += force_${type}(${record}, input);`;
    if (target === 'all') return `  ${call}`;
    return `  if (${target === 'range' ? 'inRange' : 'inMask'}(${record}, index)) { ${call} }`;
  });
  return [
    `// Generated from src/core/forces/records.ts for the composition ${compositionKey(composition) || '(empty)'}.`,
    'fn registeredForces(index: u32, input: ForceInput, accumulated: vec3f) -> vec3f {',
    '  var force = accumulated;',
    ...calls,
    '  return force;',
    '}',
  ].join('\n');
}

/** A registered generator as the packer sees it. */
export interface PackEntry {
  readonly generator: StoredGenerator;
  readonly first: number;
  readonly end: number;
  /** First word of its bitmask in the registry's mask array, or NO_MASK. */
  readonly maskWord: number;
}

/** The packed table for one dt: host-side, before conversion to bytes. */
export interface PackedForces {
  readonly dt: number;
  readonly generatorCount: number;
  /** RECORD_INTS per generator. */
  readonly ints: Uint32Array;
  /** RECORD_FLOATS per generator, as float64 (round to float32 to get what the GPU reads). */
  readonly params: Float64Array;
  /** The same parameters as float32. */
  readonly params32: Float32Array;
}

/**
 * Packs the registered generators for a step of `dt` (float32 already): the
 * stiff spring's coefficients depend on it, nothing else does.
 */
export function packForces(entries: readonly PackEntry[], dt: number): PackedForces {
  const ints = new Uint32Array(entries.length * RECORD_INTS);
  const params = new Float64Array(entries.length * RECORD_FLOATS);
  entries.forEach((entry, k) => {
    const g = entry.generator;
    const at = k * RECORD_INTS;
    ints[at + RECORD_INT_AT.kind] = FORCE_KINDS[g.type];
    ints[at + RECORD_INT_AT.first] = entry.first;
    ints[at + RECORD_INT_AT.end] = entry.end;
    ints[at + RECORD_INT_AT.mask] = entry.maskWord;
    const values = recordValues(g, dt);
    const slots = FORCE_SLOTS[g.type] as Record<string, Slot>;
    for (const [name, value] of Object.entries(values)) {
      const index = slotIndex(g.type, name as never);
      const size = (slots[name] as Slot)[2];
      const list = typeof value === 'number' ? [value] : value;
      for (let c = 0; c < size; c++) params[k * RECORD_FLOATS + index + c] = list[c] as number;
    }
  });
  return { dt, generatorCount: entries.length, ints, params, params32: Float32Array.from(params) };
}

/** The record parameters of one generator, derived in float64. */
function recordValues(g: StoredGenerator, dt: number): Record<string, number | readonly number[]> {
  switch (g.type) {
    case 'gravity':
      return { g: g.g };
    case 'drag':
      return { k1: g.k1, k2: g.k2 };
    case 'anchoredSpring':
    case 'anchoredBungee':
      return { anchor: g.anchor, restLength: g.restLength, stiffness: g.stiffness };
    case 'buoyancy':
      return {
        surfaceTop: g.waterHeight + g.maxDepth,
        inverseBand: 1 / (2 * g.maxDepth),
        fullForce: g.liquidDensity * g.volume * g.gravity,
      };
    case 'stiffSpring': {
      const [positionCoefficient, velocityCoefficient] = stiffSpringCoefficients(g.stiffness, g.damping, dt);
      return { anchor: g.anchor, positionCoefficient, velocityCoefficient };
    }
    case 'attractor':
      return { position: g.position, strength: g.strength, softening2: g.softening * g.softening };
    case 'vortex': {
      const [x, y, z] = g.axis;
      const length = Math.hypot(x, y, z);
      return {
        position: g.position,
        strength: g.strength,
        axis: [x / length, y / length, z / length],
        softening2: g.softening * g.softening,
      };
    }
    case 'wind':
      return { force: g.force };
    case 'turbulence':
      return {
        origin: turbulenceOrigin(g.offset, Math.fround(g.frequency), g.seed),
        strength: g.strength,
        frequency: g.frequency,
      };
  }
}

/**
 * The stiff spring's acceleration for one step, as `A x0 + B v0` (x0 the
 * offset from the anchor, v0 the velocity): the acceleration that takes
 * `x0 + v0 dt + accel dt²` to x(dt), the damped oscillator's exact position
 * (Cyclone's ParticleFakeSpring). With Φ = exp(M dt), M = [[0, 1], [-k, -d]]:
 * A = (Φ11 - 1)/dt², B = (Φ12 - dt)/dt².
 *
 * Small (√k + d) dt: the series Σ_{n>=2} M^n dt^(n-2)/n!, whose terms shrink
 * like 1/n!, so nothing cancels. Otherwise the closed forms with
 * E = exp(-d dt/2), s = k - d²/4: underdamped (s > 0) cos and sin(γ dt)/γ,
 * γ = √s; critical (s = 0) 1 and dt; overdamped (s < 0) cosh and
 * sinh(β dt)/β, β = √-s, written with exponents <= 0 so nothing overflows.
 * Cyclone's version only has the first, and its γ is NaN when s < 0.
 */
export function stiffSpringCoefficients(k: number, d: number, dt: number): [number, number] {
  if ((Math.sqrt(k) + d) * dt <= 1) {
    // T_n = M^n dt^(n-2)/n!, from T_2 = M²/2; M² = [[-k, -d], [kd, d² - k]].
    let t11 = -k / 2;
    let t12 = -d / 2;
    let t21 = (k * d) / 2;
    let t22 = (d * d - k) / 2;
    let a = 0;
    let b = 0;
    for (let n = 2; n < 60; n++) {
      a += t11;
      b += t12;
      if (Math.abs(t11) <= 1e-18 * Math.abs(a) && Math.abs(t12) <= 1e-18 * Math.abs(b)) break;
      // T_(n+1) = T_n M dt/(n+1), M = [[0, 1], [-k, -d]].
      const scale = dt / (n + 1);
      [t11, t12, t21, t22] = [-k * t12 * scale, (t11 - d * t12) * scale, -k * t22 * scale, (t21 - d * t22) * scale];
    }
    return [a, b];
  }
  const half = d / 2;
  const s = k - half * half;
  let phi11: number;
  let phi12: number;
  if (s > 0) {
    const gamma = Math.sqrt(s);
    const e = Math.exp(-half * dt);
    const cos = Math.cos(gamma * dt);
    const sinOverGamma = Math.sin(gamma * dt) / gamma;
    phi11 = e * (cos + sinOverGamma * half);
    phi12 = e * sinOverGamma;
  } else if (s === 0) {
    const e = Math.exp(-half * dt);
    phi11 = e * (1 + dt * half);
    phi12 = e * dt;
  } else {
    const beta = Math.sqrt(-s);
    // β - d/2 = -k/(β + d/2), without the cancellation when k << d².
    const slow = Math.exp((-k / (beta + half)) * dt);
    const fast = Math.exp((-beta - half) * dt);
    const cosh = (slow + fast) / 2; // E cosh(β dt)
    const sinhOverBeta = (slow - fast) / (2 * beta); // E sinh(β dt)/β
    phi11 = cosh + sinhOverBeta * half;
    phi12 = sinhOverBeta;
  }
  return [(phi11 - 1) / (dt * dt), (phi12 - dt) / (dt * dt)];
}

/** The table as the GPU reads it: header, then MAX_FORCE_GENERATORS records (unused ones zero). */
export function encodeForceTable(packed: PackedForces, particleCount: number): Uint8Array<ArrayBuffer> {
  const table = FORCE_TABLE.value().set('count', particleCount).set('generatorCount', packed.generatorCount);
  const records = table.member('records', FORCE_RECORD);
  for (let k = 0; k < packed.generatorCount; k++) {
    const ints = packed.ints.subarray(k * RECORD_INTS, (k + 1) * RECORD_INTS);
    const floats = packed.params32.subarray(k * RECORD_FLOATS, (k + 1) * RECORD_FLOATS);
    records
      .set(k, 'kind', ints[RECORD_INT_AT.kind] as number)
      .set(k, 'first', ints[RECORD_INT_AT.first] as number)
      .set(k, 'end', ints[RECORD_INT_AT.end] as number)
      .set(k, 'mask', ints[RECORD_INT_AT.mask] as number)
      .set(k, 'a', floats.subarray(LANE_A, LANE_A + 4))
      .set(k, 'b', floats.subarray(LANE_B, LANE_B + 4));
  }
  return table.bytes;
}
