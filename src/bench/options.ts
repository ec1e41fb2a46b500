/** What a bench run is asked to do: the counts, the repeats, the length of a run, how to time it. */

/** 2^16 ... 2^24, as the issue asks; --quick stops at 2^20, the smallest count the bandwidth target names. */
export const FULL_SIZES = [16, 17, 18, 19, 20, 21, 22, 23, 24].map((e) => 2 ** e);
export const QUICK_SIZES = [16, 18, 20].map((e) => 2 ** e);
export const WORKGROUP_SIZES = [64, 128, 256] as const;
/** Runs of one step each that warm a case up before its timed runs. */
export const WARM_UP_RUNS = 2;

export interface BenchOptions {
  /** Particle counts. */
  sizes: number[];
  /** Timed runs a case, after the warm-up. */
  repeats: number;
  /** Wanted length of one run; the steps a run are chosen to fill it. */
  targetMs: number;
  /** Most steps one run records (one command buffer). */
  maxStepsPerRun: number;
  dt: number;
  /** Use timestamp queries when the device has them (else wall time). */
  timestamps: boolean;
  /**
   * Run the repeats in rounds over all cases of one count (case A, B, C, A,
   * B, C...) so that load from other processes falls on every case alike,
   * where their state fits `interleaveBudgetBytes` together; else case by case.
   */
  interleave: boolean;
  interleaveBudgetBytes: number;
}

export function quickOptions(): BenchOptions {
  return { ...fullOptions(), sizes: QUICK_SIZES, repeats: 7, targetMs: 60, maxStepsPerRun: 256 };
}

export function fullOptions(): BenchOptions {
  return {
    sizes: FULL_SIZES,
    repeats: 7,
    targetMs: 200,
    maxStepsPerRun: 1024,
    dt: 1 / 60,
    timestamps: true,
    interleave: true,
    interleaveBudgetBytes: 2 ** 31,
  };
}

/**
 * `16,18,20` or `16-24`: particle counts given as exponents of two, sorted and
 * without repeats; null when an exponent is not an integer in [0, 30].
 */
export function sizesFromExponents(text: string): number[] | null {
  const exponents = text.split(',').flatMap((part) => {
    const range = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(part);
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])];
      return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
    }
    return [part.trim() === '' ? Number.NaN : Number(part)];
  });
  if (exponents.some((e) => !Number.isInteger(e) || e < 0 || e > 30)) return null;
  return [...new Set(exponents)].sort((a, b) => a - b).map((e) => 2 ** e);
}

/**
 * The flags of the ratio scripts (scripts/bench-sort.ts,
 * scripts/bench-collisions.ts): `--name value` pairs read from `argv`, a
 * value that is not what the flag takes handed to `fail` with a message that
 * names the flag. No Node API here: the caller passes process.argv and how
 * it exits.
 */
export function scriptFlags(argv: readonly string[], fail: (message: string) => never) {
  const text = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    return at >= 0 ? (argv[at + 1] ?? '') : undefined;
  };
  const integer = (name: string, value: string, min: number, max: number): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
      fail(`${name} must be an integer ${max === Infinity ? `>= ${min}` : `in [${min}, ${max}]`}`);
    }
    return n;
  };
  return {
    /** `--sizes 18,20` (or `18-20`): exponents of two in [1, `most`] (default 24), as sizesFromExponents reads them. */
    exponents(name: string, fallback: readonly number[], most = 24): number[] {
      const given = text(name);
      if (given === undefined) return [...fallback];
      const counts = sizesFromExponents(given);
      if (!counts || counts.length === 0 || counts.some((c) => c < 2 || c > 2 ** most))
        fail(`${name} takes exponents of two in [1, ${most}], e.g. 18,20`);
      return counts.map((c) => Math.log2(c));
    },
    /** An integer in [min, max]; `fallback` when the flag is absent. */
    integer(name: string, fallback: number, min: number, max = Infinity): number {
      const given = text(name);
      return given === undefined ? fallback : integer(name, given, min, max);
    },
    /** An integer in [min, max], or undefined when the flag is absent. */
    optionalInteger(name: string, min: number, max = Infinity): number | undefined {
      const given = text(name);
      return given === undefined ? undefined : integer(name, given, min, max);
    },
  };
}
