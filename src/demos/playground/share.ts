/**
 * The playground's link: the editor's text compressed into the URL's hash
 * (lz-string's URI-safe alphabet), `#scene=<text>&name=<file name>`, or
 * `#example=<id>` for an unchanged example. Restored exactly: lz-string is
 * lossless over any UTF-16 string.
 */
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';

export interface SharedScene {
  /** The file name shown in messages (e.g. `bridge.json`). */
  name: string;
  text: string;
}

/** `#scene=...&name=...` for `shared`. */
export function shareHash(shared: SharedScene): string {
  return `#scene=${compressToEncodedURIComponent(shared.text)}&name=${encodeURIComponent(shared.name)}`;
}

/** What a hash holds: a shared text, an example's id, or nothing (or a text that does not decompress). */
export function readHash(hash: string): { shared: SharedScene } | { example: string } | null {
  const fields = new Map<string, string>();
  for (const part of hash.replace(/^#/, '').split('&')) {
    const equals = part.indexOf('=');
    if (equals > 0) fields.set(part.slice(0, equals), part.slice(equals + 1));
  }
  const scene = fields.get('scene');
  if (scene !== undefined) {
    // null or '' for a text that is not lz-string's (a link cut short).
    const text = decompressFromEncodedURIComponent(scene);
    if (!text) return null;
    return { shared: { text, name: safeName(fields.get('name')) } };
  }
  const example = fields.get('example');
  return example ? { example: decodeURIComponent(example) } : null;
}

function safeName(raw: string | undefined): string {
  try {
    const name = raw ? decodeURIComponent(raw) : '';
    return name && name.length < 200 ? name : 'scene.json';
  } catch {
    return 'scene.json';
  }
}
