/**
 * The refusals the validation tests look at: the SparkworksInputError a call
 * throws, failing the test if it returns or throws anything else.
 */
import { expect } from 'vitest';
import { SparkworksInputError } from '../../src/core/errors';
import { parseScene } from '../../src/scene/scene';

/** The SparkworksInputError `run` throws (failing if it returns or throws anything else). */
export function refusal(run: () => unknown): SparkworksInputError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SparkworksInputError);
    return error as SparkworksInputError;
  }
  throw new Error('expected a SparkworksInputError, nothing was thrown');
}

/** The refusal parseScene throws for `text` read as the file `file`. */
export function sceneRefusal(text: string, file: string): SparkworksInputError {
  return refusal(() => parseScene(text, file));
}
