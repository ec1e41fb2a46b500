/**
 * The one error raised for bad input, whatever the feature: every message
 * names the offending value and the limit it broke, and the operation that
 * raised it changed nothing.
 */
export class SparkworksInputError extends RangeError {
  /** `'SparkworksInputError'`. */
  override readonly name = 'SparkworksInputError';
  constructor(
    message: string,
    /** What was checked, e.g. `dt` or `particles[3].mass`. */
    readonly what: string,
    /** The value that was refused. */
    readonly value: unknown,
    /**
     * The rule alone (`must be finite and >= 0`), without the path and the
     * value, so a scene file can word its refusal its own way; empty where
     * the message is all there is.
     */
    readonly rule = '',
  ) {
    super(message);
  }
}

/** A refusal of a snapshot, a file or bytes from one: corrupt, truncated, of another version, or of another system. */
export function snapshotRefusal(message: string, what = 'snapshot', value: unknown = undefined): SparkworksInputError {
  return new SparkworksInputError(message, what, value);
}

/** @deprecated Every bad input raises {@link SparkworksInputError}; this is the same class under its old name. */
export const ForceInputError = SparkworksInputError;
/** @deprecated Use {@link SparkworksInputError}. */
export type ForceInputError = SparkworksInputError;
/** @deprecated Every bad input raises {@link SparkworksInputError}; this is the same class under its old name. */
export const CollisionInputError = SparkworksInputError;
/** @deprecated Use {@link SparkworksInputError}. */
export type CollisionInputError = SparkworksInputError;
/** @deprecated Every bad input raises {@link SparkworksInputError}; this is the same class under its old name. */
export const EmitterInputError = SparkworksInputError;
/** @deprecated Use {@link SparkworksInputError}. */
export type EmitterInputError = SparkworksInputError;
/** @deprecated Every bad input raises {@link SparkworksInputError}; this is the same class under its old name. */
export const LookInputError = SparkworksInputError;
/** @deprecated Use {@link SparkworksInputError}. */
export type LookInputError = SparkworksInputError;
/** @deprecated Every bad snapshot raises {@link SparkworksInputError}; this is the same class under its old name. */
export const SnapshotError = SparkworksInputError;
/** @deprecated Use {@link SparkworksInputError}. */
export type SnapshotError = SparkworksInputError;
