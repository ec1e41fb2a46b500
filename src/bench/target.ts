/**
 * One of the targets as the report states it (reported, never
 * asserted), in a module of its own so that every file judging targets can
 * build one without importing the others.
 */

export interface Target {
  target: string;
  /** null: not measured in this run. */
  met: boolean | null;
  figure: string;
  /** False where the issue scopes the target to another kind of adapter. */
  applies: boolean;
}

/** A target this run has no figure for. */
export function notMeasured(target: string): Target {
  return { target, met: null, figure: 'not measured', applies: true };
}
