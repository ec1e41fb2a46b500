/**
 * The turbulence generator's field, defined once: a divergence-free sum of
 * random Fourier modes (Kraichnan 1970; Fung et al. 1992, "kinematic
 * simulation" of turbulence), each mode a plane wave whose amplitude is
 * perpendicular to its wave vector:
 *
 *   field(q) = Σ_m A_m wave(k_m · q + φ_m),   A_m · k_m = 0,
 *
 * so div field = Σ_m (A_m · k_m) wave'(...) = 0. It is a curl noise: each
 * mode is the curl of the vector potential (k_m × A_m) W(k_m · q + φ_m) / |k_m|²,
 * W' = wave (Bridson et al. 2007 take lattice noise for the potential; this
 * takes plane waves).
 *
 * `wave` is a periodic parabola (period 1, |wave| <= 1, C1), not a sine:
 * only + - * and floor, so the CPU twin rounds exactly as the shader does
 * and the GPU-CPU bound is the float32 arithmetic's, where WGSL's `cos`
 * is only specified to 2^-11.
 *
 * The modes are fixed (this table, compiled into the shader as constants:
 * on the software adapter every uniform load costs more than a mode's
 * arithmetic); a seed moves the field by a random offset, which gives each
 * of the incommensurate modes an unrelated phase. Directions cover a
 * hemisphere (a Fibonacci spiral: k and -k are the same wave), frequencies
 * span two octaves, 1/2 to 2 times the generator's `frequency`, and the
 * amplitudes follow Kolmogorov's k^(-5/3) energy spectrum, scaled so each
 * component's mean square over space is 1.
 *
 * Eight modes: on the software adapter each costs about 0.06 of a step at
 * 2^20 particles (`npm run bench:forces`, the typical effect fused into the
 * step: 8 modes 0.75-0.79 of the step, 12 modes 0.90-1.01, 16 modes
 * 1.21-1.29), and the forces issue asks the typical effect to cost no more
 * than the step. Stack generators (other seeds, other frequencies) for a
 * richer field.
 *
 * Mirrored by the generated WGSL (`wgslTurbulenceField`, with
 * shaders/forces/turbulence.wgsl) and by the CPU twin `turbulenceField`.
 */
import type { Rounding } from '../integrate';

export const TURBULENCE_MODES = 8;
/** Mean of wave² over a period: ∫ (4x - 4x²)² dx on [0, 1] = 8/15. */
export const WAVE_MEAN_SQUARE = 8 / 15;
/** Seeds shift the field by up to this much in each axis (units of q): 4 to 16 wavelengths of each mode, so every phase wraps several times. */
export const SEED_SHIFT = 8;

export interface FourierMode {
  /** Wave vector, cycles per unit of q (float32). */
  readonly k: readonly [number, number, number];
  /** Phase, cycles (float32). */
  readonly phase: number;
  /** Amplitude, perpendicular to k (float32). */
  readonly amplitude: readonly [number, number, number];
}

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

function basis(): FourierMode[] {
  const raw = Array.from({ length: TURBULENCE_MODES }, (_, m) => {
    // Fibonacci spiral over the upper hemisphere.
    const z = 1 - (m + 0.5) / TURBULENCE_MODES;
    const radius = Math.sqrt(1 - z * z);
    const direction = [radius * Math.cos(m * GOLDEN_ANGLE), radius * Math.sin(m * GOLDEN_ANGLE), z];
    // Frequencies log-spaced over [1/2, 2], visited in a stride coprime with the mode count
    // so that scale does not follow the spiral's latitude.
    const octave = ((m * 3) % TURBULENCE_MODES) / (TURBULENCE_MODES - 1);
    const frequency = 2 ** (2 * octave - 1);
    // An orthonormal pair perpendicular to the direction; the amplitude turns by the golden angle a mode.
    const helper = Math.abs(direction[2] as number) < 0.9 ? [0, 0, 1] : [1, 0, 0];
    const e1 = normalize(cross(direction, helper));
    const e2 = cross(direction, e1);
    const angle = m * GOLDEN_ANGLE * 1.5;
    const along = e1.map((c, i) => c * Math.cos(angle) + (e2[i] as number) * Math.sin(angle));
    // Log-spaced modes carry E(k) Δk ∝ k^(-5/3) k = k^(-2/3) of the energy: amplitude ∝ k^(-1/3).
    const size = frequency ** (-1 / 3);
    return {
      k: direction.map((c) => c * frequency),
      phase: (m * 0.7548776662466927) % 1, // plastic-number sequence: no two modes in phase at q = 0
      amplitude: along.map((c) => c * size),
    };
  });
  // Each component's mean square is Σ A_mc² 8/15; over the three, Σ |A_m|² 8/15 = 3.
  const energy = raw.reduce((s, mode) => s + mode.amplitude.reduce((t, c) => t + c * c, 0), 0);
  const scale = Math.sqrt(3 / WAVE_MEAN_SQUARE / energy);
  return raw.map((mode) => ({
    k: mode.k.map(Math.fround) as [number, number, number],
    phase: Math.fround(mode.phase),
    amplitude: mode.amplitude.map((c) => Math.fround(c * scale)) as [number, number, number],
  }));
}

function cross(a: readonly number[], b: readonly number[]): number[] {
  const [ax, ay, az] = a as [number, number, number];
  const [bx, by, bz] = b as [number, number, number];
  return [ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx];
}

function normalize(a: number[]): number[] {
  const length = Math.hypot(...a);
  return a.map((c) => c / length);
}

export const FOURIER_MODES: readonly FourierMode[] = basis();

/**
 * Jarzynski and Olano's PCG hash ("Hash Functions for GPU Rendering", 2020),
 * u32 in, u32 out: draws the seed's shift on the host.
 */
export function pcgHash(input: number): number {
  const state = (Math.imul(input, 747796405) + 2891336453) >>> 0;
  const word = Math.imul(((state >>> ((state >>> 28) + 4)) ^ state) >>> 0, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

/** The seed's shift of the field, units of q: three draws in [0, SEED_SHIFT). */
export function seedShift(seed: number): [number, number, number] {
  let state = pcgHash(seed >>> 0);
  return [0, 1, 2].map(() => {
    state = pcgHash(state);
    return (state / 2 ** 32) * SEED_SHIFT;
  }) as [number, number, number];
}

/**
 * The field's origin in q for a generator, float64: q = position * frequency
 * + origin, origin = offset * frequency + the seed's shift (one rounding to
 * float32 later, when the record is packed).
 */
export function turbulenceOrigin(offset: readonly number[], frequency: number, seed: number): number[] {
  const shift = seedShift(seed);
  return [0, 1, 2].map((c) => (offset[c] as number) * frequency + (shift[c] as number));
}

/** The parabola `wave` of shaders/forces/turbulence.wgsl: x = 2 fract(t) - 1, x (4 - 4|x|). */
export function wave(t: number, round: Rounding): number {
  const x = round(2 * round(t - Math.floor(t)) - 1);
  return round(x * round(4 - 4 * Math.abs(x)));
}

/** `out` = field(q), the twin of the generated `turbulenceField`: modes in order, each as the shader writes it. */
export function turbulenceField(
  qx: number,
  qy: number,
  qz: number,
  round: Rounding,
  out: number[] | Float64Array,
): void {
  out[0] = out[1] = out[2] = 0;
  for (const { k, phase, amplitude } of FOURIER_MODES) {
    const projection = round(round(round(k[0] * qx) + round(k[1] * qy)) + round(k[2] * qz));
    const w = wave(round(projection + phase), round);
    for (let c = 0; c < 3; c++) out[c] = round((out[c] as number) + round((amplitude[c] as number) * w));
  }
}

/** A float32 value as a WGSL literal that parses back to the same float32 (9 significant digits round-trip). */
function literal(x: number): string {
  const text = x.toPrecision(9);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

const vector = (v: readonly number[]) => `vec3f(${v.map(literal).join(', ')})`;

/** `turbulenceField` in WGSL: one line a mode, the table's float32 values as constants. */
export function wgslTurbulenceField(): string {
  return [
    `// Generated from src/core/forces/turbulence.ts: ${TURBULENCE_MODES} Fourier modes, A_m · k_m = 0.`,
    'fn turbulenceField(q: vec3f) -> vec3f {',
    '  var field = vec3f(0.0);',
    ...FOURIER_MODES.map(
      ({ k, phase, amplitude }) => `  field += ${vector(amplitude)} * wave(dot(${vector(k)}, q) + ${literal(phase)});`,
    ),
    '  return field;',
    '}',
  ].join('\n');
}
