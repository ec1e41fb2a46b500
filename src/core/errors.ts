/**
 * Errors raised for bad input. Every message names the offending value and the
 * limit it broke, and the operation that raised it changed nothing.
 */
export class SparkworksInputError extends RangeError {
  /** `'SparkworksInputError'`, for the subclasses too (tell those apart with `instanceof`). */
  override readonly name = 'SparkworksInputError';
  constructor(
    message: string,
    /** What was checked, e.g. `dt` or `particles[3].mass`. */
    readonly what: string,
    /** The value that was refused. */
    readonly value: unknown,
  ) {
    super(message);
  }
}
