/**
 * The gallery's scenes as the whole-system tests run them (snapshots,
 * chunking): every public/scenes file of the list, each a feature
 * (forces with pair springs, a collider, links, particle contacts, emitters,
 * fireworks), and a byte comparison that names the first difference.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { parseScene, type Scene } from '../../src/scene/scene';

export const GALLERY_SCENES = [
  'ballistic',
  'drag',
  'forces',
  'bouncing-ball',
  'bridge',
  'cradle',
  'emitters',
  'fireworks',
];

/** Long enough for fireworks to burst into payloads (fuses from 0.25 s) and emitters to recycle slots, at 1/60 s. */
export const GALLERY_STEPS = 90;

/** The gallery's scene; the emitters' 100,000-slot pool cut to 8,192 (its live count stays under 3,000) to keep SwiftShader quick. */
export function galleryScene(name: string): Scene {
  const parsed = parseScene(readFileSync(`public/scenes/${name}.json`, 'utf8'), `${name}.json`);
  return name === 'emitters' ? { ...parsed, capacity: 8192 } : parsed;
}

/** Bytes equal, naming the first byte that is not (toEqual on megabytes prints too much). */
export function expectSameBytes(actual: ArrayBufferView, expected: ArrayBufferView, what: string): void {
  const a = new Uint8Array(actual.buffer, actual.byteOffset, actual.byteLength);
  const b = new Uint8Array(expected.buffer, expected.byteOffset, expected.byteLength);
  expect(a.byteLength, `${what}: length`).toBe(b.byteLength);
  const first = a.findIndex((x, i) => x !== b[i]);
  expect(first, `${what}: first differing byte`).toBe(-1);
}
