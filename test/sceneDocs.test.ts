/**
 * The scene keys' JSDoc comments (what TypeDoc and editors show) and their `.describe` texts (what the JSON Schema
 * and the playground's editor show) are written side by side in src/scene/sceneSchema.ts: TypeDoc cannot read a
 * runtime string, and a comment is not one. This test keeps the two copies the same.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const path = 'src/scene/sceneSchema.ts';
const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);

/**
 * The string of a `.describe('...')` ending the key's schema, if it ends with one, or the description the
 * schema's helpers give it (`checkedArray(error, description)`, `fromSimulate(what)`).
 */
function describeText(expression: ts.Expression): string | undefined {
  if (ts.isCallExpression(expression) && ts.isIdentifier(expression.expression)) {
    const [first, second] = expression.arguments;
    const literal = (node: ts.Expression | undefined) => (node && ts.isStringLiteralLike(node) ? node.text : undefined);
    if (expression.expression.text === 'checkedArray') return literal(second);
    if (expression.expression.text === 'fromSimulate') {
      const what = literal(first);
      return what === undefined ? undefined : `From \`simulate\`'s output: ${what}. Not read.`;
    }
  }
  if (!ts.isCallExpression(expression) || !ts.isPropertyAccessExpression(expression.expression)) return undefined;
  if (expression.expression.name.text !== 'describe') return undefined;
  const text = expression.arguments[0];
  return text && ts.isStringLiteralLike(text) ? text.text : undefined;
}

/** Every key of an object literal in sceneSchema.ts whose schema ends with `.describe(...)`, with its JSDoc comment. */
function describedKeys(): { key: string; described: string; comment: string | undefined }[] {
  const keys: { key: string; described: string; comment: string | undefined }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node)) {
      const described = describeText(node.initializer);
      if (described !== undefined) {
        const doc = ts.getJSDocCommentsAndTags(node).find(ts.isJSDoc);
        const comment = typeof doc?.comment === 'string' ? doc.comment : undefined;
        keys.push({ key: node.name.getText(source), described, comment });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return keys;
}

const oneLine = (text: string | undefined) => text?.replace(/\s+/g, ' ').trim();

describe('scene keys: JSDoc and .describe', () => {
  const keys = describedKeys();

  it('finds the described keys (particle fields, top-level keys, simulate output fields)', () => {
    expect(keys.map(({ key }) => key)).toEqual(
      expect.arrayContaining(['position', 'slot', '$schema', 'look', 'stats']),
    );
  });

  it.each(keys)('$key: its JSDoc comment is its .describe text', ({ described, comment }) => {
    expect(oneLine(comment)).toBe(oneLine(described));
  });
});
