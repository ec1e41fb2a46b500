/**
 * The editor's check of its text: parseScene, as `simulate` runs it, and the
 * refusal's JSON path turned into a span of the text (jsonPath.ts) to mark.
 */
import type { Tree } from '@lezer/common';
import { SparkworksInputError } from '../../core/errors';
import { parseScene, type Scene } from '../../scene/scene';
import { locateJsonPath, parseJsonPath, syntaxErrorOffset, type PathSegment } from './jsonPath';

export type Checked =
  | { ok: true; scene: Scene }
  | {
      ok: false;
      /** parseScene's message, word for word: what `simulate <name>` prints. */
      message: string;
      /** The refusal's JSON path (`$.particles[1].mass`). */
      path: string;
      from: number;
      to: number;
    };

/** Checks `text` (named `name` in messages); `tree` is its JSON syntax tree. */
export function checkScene(text: string, name: string, tree: Tree): Checked {
  try {
    return { ok: true, scene: parseScene(text, name) };
  } catch (error) {
    if (!(error instanceof SparkworksInputError)) throw error;
    const path = error.what;
    if (path === '$' && /: not valid JSON \(/.test(error.message)) {
      const at = syntaxErrorOffset(error.message, tree, text.length);
      return { ok: false, message: error.message, path, from: at, to: Math.min(at + 1, text.length) };
    }
    let segments: PathSegment[];
    try {
      segments = parseJsonPath(path);
    } catch {
      segments = [];
    }
    const { from, to } = locateJsonPath(tree, text, segments);
    return { ok: false, message: error.message, path, from, to };
  }
}
