/**
 * Where a refusal's JSON path (`$.particles[1].mass`, `$["odd key"]`, as
 * parseScene names it) is in the JSON text: its segments, and the node of the
 * JSON syntax tree (@lezer/json) they lead to. A path that goes further than
 * the text (a required key left out) stops at the deepest node there is, so
 * the mark lands on the object that lacks it.
 *
 * Pure: the tree comes from the caller (the editor's, or @lezer/json's parser).
 */
import type { SyntaxNode, Tree } from '@lezer/common';

export type PathSegment = string | number;

/** The segments of a path as parseScene writes it; throws on anything else. */
export function parseJsonPath(path: string): PathSegment[] {
  if (!path.startsWith('$')) throw new SyntaxError(`not a JSON path: ${path}`);
  const segments: PathSegment[] = [];
  let at = 1;
  while (at < path.length) {
    const rest = path.slice(at);
    const name = /^\.([A-Za-z_$][\w$]*)/.exec(rest);
    const index = /^\[(\d+)\]/.exec(rest);
    const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    const match = name ?? index ?? quoted;
    if (!match) throw new SyntaxError(`not a JSON path: ${path} (at ${at})`);
    const token = match[1] as string;
    segments.push(name ? token : index ? Number(token) : (JSON.parse(token) as string));
    at += match[0].length;
  }
  return segments;
}

/** The JSON value a path leads to, or how far it got. */
export interface PathLocation {
  from: number;
  to: number;
  /** The whole path was found (false: `from`/`to` are the deepest node that exists on it). */
  exact: boolean;
}

/** The value node inside a Property, Array slot, or the text's top. */
function values(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (!['{', '}', '[', ']', ',', ':', '⚠', 'PropertyName'].includes(child.name)) out.push(child);
  }
  return out;
}

/** The text of a PropertyName node, unquoted (JSON escapes undone). */
function keyOf(node: SyntaxNode, text: string): string {
  const raw = text.slice(node.from, node.to);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.replace(/^"|"$/g, '');
  }
}

/**
 * The span of the value at `segments` in `text`, parsed as `tree`. For a key
 * that names an object's property, the last segment marks the whole
 * property (`"mass": -1`), so an unknown key is marked with its value.
 */
export function locateJsonPath(tree: Tree, text: string, segments: readonly PathSegment[]): PathLocation {
  const top = tree.topNode;
  let node: SyntaxNode | undefined = values(top)[0];
  if (!node) return { from: 0, to: text.length, exact: segments.length === 0 };
  let property: SyntaxNode | null = null;
  for (const segment of segments) {
    let next: SyntaxNode | undefined;
    let nextProperty: SyntaxNode | null = null;
    if (typeof segment === 'number' && node.name === 'Array') {
      next = values(node)[segment];
    } else if (typeof segment === 'string' && node.name === 'Object') {
      // The last property of that name, as JSON.parse keeps the last of duplicates.
      for (let child = node.firstChild; child; child = child.nextSibling) {
        if (child.name !== 'Property') continue;
        const name = child.getChild('PropertyName');
        if (name && keyOf(name, text) === segment) {
          nextProperty = child;
          next = values(child)[0] ?? name;
        }
      }
    }
    if (!next) {
      const shown = property ?? node;
      return { from: shown.from, to: shown.to, exact: false };
    }
    node = next;
    property = nextProperty;
  }
  const shown = property ?? node;
  return { from: shown.from, to: shown.to, exact: true };
}

/** Where a JSON.parse error happened, from its message (V8 says "at position N"), else the tree's first error node. */
export function syntaxErrorOffset(message: string, tree: Tree, length: number): number {
  const position = /at position (\d+)/.exec(message);
  if (position) return Math.min(Number(position[1]), length);
  let offset = -1;
  tree.iterate({
    enter(node) {
      if (offset >= 0) return false;
      if (node.type.isError) offset = node.from;
      return undefined;
    },
  });
  return offset >= 0 ? offset : length;
}
