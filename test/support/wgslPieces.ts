/**
 * The shared pieces of the composed shaders (test/shaders.test.ts): the
 * declarations generated from the schema and the shader files that several
 * compositions include. Each piece is snapshot once, under
 * test/__snapshots__/wgsl/pieces/ (pieceFile), and a composition's
 * snapshot shows each whole-line occurrence of a piece's exact text as one
 * marker line, `// piece: <key>`: every line of every composition is still in
 * some snapshot, and a change to a shared piece shows once, in its own file.
 * Only the snapshots' text is handled here; the compositions compile
 * unchanged.
 */
import { wgslColliderConstants, wgslColliderStruct } from '../../src/core/collisions/colliders';
import { wgslWorldColliders, type ColliderComposition } from '../../src/core/collisions/colliderComposition';
import { wgslLifecycleRecords } from '../../src/core/emitters/gpuRecords';
import { wgslForceDeclarations, wgslRegisteredForces, type ForceComposition } from '../../src/core/forces/records';
import { wgslTurbulenceField } from '../../src/core/forces/turbulence';
import { wgslLifeStruct, wgslParticleStore, wgslParticleStruct, type ParticleChunking } from '../../src/core/layout';
import { wgslLookRecords } from '../../src/core/look/records';
import { GROUP_LIFE } from '../../src/render/groupTimeline';
import { DRAW_PARAMS } from '../../src/render/particleLook';
import { DEPTH_SORT_PARTICLES_BINDING, RENDER_PARTICLES_BINDING } from '../../src/shaders';
import { STEP_PARAMS } from '../../src/shaders/params';
import { sources } from '../../src/shaders/sources';

export interface Piece {
  /** Its marker's name: a shader file's path, or what generates it. */
  readonly key: string;
  readonly text: string;
}

/**
 * The shader files that two or more compositions include, by their path
 * under shaders/ (the key of src/shaders/sources.ts beside it).
 */
const SHARED_FILES: readonly (readonly [string, keyof typeof sources])[] = [
  ['shared/dispatch', 'dispatch'],
  ['shared/health', 'health'],
  ['shared/safeLength', 'safeLength'],
  ['shared/blockScan', 'blockScan'],
  ['shared/workgroupScan', 'workgroupScan'],
  ['step/integrate', 'integrate'],
  ['step/stepEntry', 'stepEntry'],
  ['step/denseDispatch', 'denseDispatch'],
  ['step/liveAge', 'liveAge'],
  ['forces/forces', 'forces'],
  ['forces/forceGenerators', 'forceGenerators'],
  ['forces/turbulence', 'turbulence'],
  ['forces/integrateForces', 'integrateForces'],
  ['forces/noFieldForces', 'noFieldForces'],
  ['collisions/colliderKinds', 'colliderKinds'],
  ['collisions/worldContact', 'worldContact'],
  ['collisions/fusedColliders', 'fusedColliders'],
  ['collisions/noColliders', 'noColliders'],
  ['collisions/contactLane', 'contactLane'],
  ['collisions/positionCopy', 'positionCopy'],
  ['collisions/gridHash', 'gridHash'],
  ['lifecycle/lifeDeath', 'lifeDeath'],
  ['lifecycle/scannedWords', 'scannedWords'],
  ['lifecycle/blockInput', 'blockInput'],
  ['render/color', 'renderColor'],
  ['render/particles', 'renderParticles'],
  ['render/records', 'renderRecords'],
  ['render/liveRecords', 'renderLiveRecords'],
  ['render/segment', 'renderSegment'],
  ['bench/stepMath', 'benchStepMath'],
];

/** The chunked store the chunked compositions of test/shaders.test.ts take: 4 chunks of 256 (its CAPACITY). */
export const CHUNKING: ParticleChunking = { chunks: 4, shift: 8 };
/** Where the records draw's chunks past the first bind (src/render/particlePass.ts: after its 2 storage buffers). */
export const RECORDS_MORE_CHUNKS_AT = RENDER_PARTICLES_BINDING + 2;

type StoreOptions = Parameters<typeof wgslParticleStore>[1];

/** The key of the particle store's piece declared with `options`: `particleStore.read.binding1.4chunks.moreAt3`. */
export function storeKey(access: 'read' | 'read_write', options: StoreOptions = {}): string {
  const { binding = 0, moreChunksAt, chunking = null, ownChunk = false } = options;
  return [
    `particleStore.${access}`,
    binding ? `.binding${binding}` : '',
    chunking ? `.${chunking.chunks}chunks` : '',
    chunking && ownChunk ? '.ownChunk' : '',
    chunking && moreChunksAt !== undefined ? `.moreAt${moreChunksAt}` : '',
  ].join('');
}

const store = (access: 'read' | 'read_write', options: StoreOptions = {}): Piece => ({
  key: storeKey(access, options),
  text: wgslParticleStore(access, options),
});

/** The chunked stores' options: every chunk bound, the one chunk a kernel run chunk by chunk touches, a draw's. */
export const ON_CHUNKS = { chunking: CHUNKING } as const;
export const OWN_CHUNK = { chunking: CHUNKING, ownChunk: true } as const;
export const RECORDS_ON_CHUNKS = {
  binding: RENDER_PARTICLES_BINDING,
  moreChunksAt: RECORDS_MORE_CHUNKS_AT,
  chunking: CHUNKING,
} as const;

/** Every piece, for the force and collider compositions the test composes with. */
export function pieces(forces: ForceComposition, colliders: ColliderComposition): readonly Piece[] {
  return [
    { key: 'particleStruct', text: wgslParticleStruct() },
    store('read_write'),
    store('read', { binding: RENDER_PARTICLES_BINDING }),
    store('read', { binding: DEPTH_SORT_PARTICLES_BINDING }),
    store('read_write', ON_CHUNKS),
    store('read_write', OWN_CHUNK),
    store('read', RECORDS_ON_CHUNKS),
    { key: 'lifeStruct', text: wgslLifeStruct() },
    { key: 'lifecycleRecords', text: wgslLifecycleRecords() },
    { key: 'forceDeclarations', text: wgslForceDeclarations() },
    { key: 'turbulenceField', text: wgslTurbulenceField() },
    { key: 'registeredForces.COMPOSITION', text: wgslRegisteredForces(forces) },
    { key: 'colliderStruct', text: wgslColliderStruct() },
    { key: 'colliderConstants', text: wgslColliderConstants() },
    { key: 'worldColliders.COLLIDERS', text: wgslWorldColliders(colliders) },
    { key: 'lookRecords', text: wgslLookRecords() },
    { key: 'StepParams', text: STEP_PARAMS.wgsl() },
    { key: 'DrawParams', text: DRAW_PARAMS.wgsl() },
    { key: 'GroupLife', text: GROUP_LIFE.wgsl() },
    ...SHARED_FILES.map(([path, name]) => ({ key: `shaders/${path}.wgsl`, text: sources[name] })),
  ];
}

const MARKER = '// piece: ';
/** The line that stands for piece `key` in a composition's snapshot. */
export const marker = (key: string) => MARKER + key;

/** Where a piece's snapshot lies, under test/__snapshots__/wgsl/. */
export const pieceFile = (piece: Piece) => `pieces/${piece.key.replace(/\.wgsl$/, '')}.wgsl.snap`;

/** A piece's text without its final newlines: what a marker line stands for. */
const body = (piece: Piece) => piece.text.replace(/\n+$/, '');

/**
 * `code` with each whole-line occurrence of a piece replaced by its marker
 * line, the longest pieces first (so a piece inside a longer one stays in it).
 */
export function markPieces(code: string, all: readonly Piece[]): string {
  const longestFirst = [...all].sort((a, b) => body(b).length - body(a).length);
  let marked = code;
  for (const piece of longestFirst) {
    const text = body(piece);
    let from = 0;
    for (let at = marked.indexOf(text); at >= 0; at = marked.indexOf(text, from)) {
      const end = at + text.length;
      const whole = (at === 0 || marked[at - 1] === '\n') && (end === marked.length || marked[end] === '\n');
      if (!whole) {
        from = at + 1;
        continue;
      }
      const line = marker(piece.key);
      marked = marked.slice(0, at) + line + marked.slice(end);
      from = at + line.length;
    }
  }
  return marked;
}

/** The keys of the pieces `marked` shows as markers, in order. */
export function markedKeys(marked: string): string[] {
  return marked
    .split('\n')
    .filter((line) => line.startsWith(MARKER))
    .map((line) => line.slice(MARKER.length));
}

/** `marked` with each marker line replaced by its piece: the composition again. */
export function expandPieces(marked: string, all: readonly Piece[]): string {
  const byKey = new Map(all.map((piece) => [piece.key, body(piece)]));
  return marked
    .split('\n')
    .map((line) => (line.startsWith(MARKER) ? (byKey.get(line.slice(MARKER.length)) ?? line) : line))
    .join('\n');
}
