/**
 * Every shader the system composes (src/shaders/index.ts), as text and on the
 * adapter: each composition is snapshot as a .wgsl file under
 * test/__snapshots__/wgsl/ (as <name>.wgsl.snap: snapshots, not sources), so a change to generated WGSL shows in review as a
 * diff, and each is compiled with no error message; compute shaders are also
 * built into pipelines for every entry point and every set of override
 * constants their pass uses (each step variant, each contact mode, ...).
 *
 * The pieces many compositions share (the particle record and store, the
 * life and lifecycle records, the shared shader files: test/support/wgslPieces.ts)
 * are snapshot once each, under pieces/, and a composition's snapshot shows
 * each as a `// piece: <key>` line; those lines expand back to exactly the
 * code compiled. The store split in chunks is snapshot as pieces too, and a
 * few compositions on it are compiled.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ColliderComposition } from '../src/core/collisions/colliderComposition';
import type { ForceComposition } from '../src/core/forces/records';
import { ALL_VARIANTS, variantName } from '../src/core/variants';
import { stepConstants } from '../src/gpu/step/stepParams';
import { CONTACT_MODES } from '../src/gpu/collisions/contactPass';
import { GRID_PARAMS as RENDER_GRID_PARAMS } from '../src/render/gridPass';
import { LINE_PARAMS } from '../src/render/linePass';
import { ANCHORED_END, LINK_PARAMS, LINK_RECORD } from '../src/render/linkPass';
import { GROUP_LIFE } from '../src/render/groupTimeline';
import { DRAW_PARAMS } from '../src/render/particleLook';
import { DEPTH_SORT_PARAMS, SORT_DIGIT } from '../src/render/depthSort';
import { TRAIL_DRAW_PARAMS, TRAIL_HEAD, TRAIL_RECORD_PARAMS, TRAIL_STOP } from '../src/core/look/trails';
import { RENDER_PARTICLES_BINDING, shaders } from '../src/shaders';
import { withErrorScopes } from '../src/gpu/device/errors';
import { useDevice } from './support/gpu';
import {
  CHUNKING,
  ON_CHUNKS,
  OWN_CHUNK,
  RECORDS_ON_CHUNKS,
  expandPieces,
  marker,
  markPieces,
  markedKeys,
  pieceFile,
  pieces,
  storeKey,
} from './support/wgslPieces';

const gpu = useDevice();
const WORKGROUP_SIZE = 256;
const CAPACITY = 1024;
const sized = { WORKGROUP_SIZE };
const live = { WORKGROUP_SIZE, CAPACITY };
/** One generator of each target mode, and the costliest field (turbulence): a representative composition. */
const COMPOSITION: ForceComposition = [
  { type: 'gravity', target: 'all' },
  { type: 'drag', target: 'range' },
  { type: 'attractor', target: 'all' },
  { type: 'turbulence', target: 'mask' },
  { type: 'vortex', target: 'range' },
];
const stepVariants = ALL_VARIANTS.map((v) => ({ name: variantName(v), constants: stepConstants(v, WORKGROUP_SIZE) }));
// The collision-event bits after the death bits, a word per 32 slots (src/gpu/lifecycle/lifeBuffers.ts, eventBitsAt).
const EVENT_BITS_AT = CAPACITY / 32;
const liveStepVariants = stepVariants.map((v) => ({ ...v, constants: { ...v.constants, CAPACITY, EVENT_BITS_AT } }));
/** Every kind of collider with each flag: the colliders fused into the step (shaders/collisions/fusedColliders.wgsl). */
const COLLIDERS: ColliderComposition = [
  { kind: 'plane', inside: false, kill: false, bounce: false, friction: false, normal: [0, 1, 0] },
  { kind: 'plane', inside: false, kill: true, bounce: true, friction: false, normal: null },
  { kind: 'sphere', inside: false, kill: false, bounce: true, friction: false, normal: null },
  { kind: 'sphere', inside: true, kill: true, bounce: false, friction: true, normal: null },
  { kind: 'box', inside: false, kill: false, bounce: true, friction: true, normal: null },
  { kind: 'box', inside: true, kill: false, bounce: false, friction: true, normal: null },
];
/** The fused step's pipelines: each variant, with the colliders' skin. */
const fusedStepVariants = stepVariants.map((v) => ({ ...v, constants: { ...v.constants, SKIN: 1e-4 } }));

interface Pipeline {
  readonly name: string;
  readonly entryPoint?: string;
  readonly constants: Record<string, number>;
}

interface Composed {
  readonly name: string;
  readonly code: string;
  /** Compute pipelines to build from it; absent for render shaders (compiled as modules). */
  readonly pipelines?: readonly Pipeline[];
}

const ageModes = [0, 1].map((ALREADY_AGED) => ({
  name: `alreadyAged ${ALREADY_AGED}`,
  constants: { ...live, ALREADY_AGED },
}));

const one = (constants: Record<string, number>, entryPoint?: string): Pipeline[] => [
  { name: entryPoint ?? 'main', entryPoint, constants },
];

const COMPOSED: readonly Composed[] = [
  { name: 'integrate', code: shaders.integrate(), pipelines: stepVariants },
  {
    name: 'integrateFused',
    code: shaders.integrateFused({
      forces: { composition: COMPOSITION, group: 2 },
      colliders: { composition: COLLIDERS, group: 3 },
    }),
    pipelines: fusedStepVariants,
  },
  {
    name: 'integrateDense',
    code: shaders.integrateDense(),
    pipelines: liveStepVariants.map((v) => ({ ...v, constants: { ...v.constants, DENSE_SPAN: CAPACITY } })),
  },
  {
    // Forces and colliders both fused into the step of a system with emitters: the colliders' table in the
    // forces' group, after their two bindings (src/gpu/step/fusedPipelines.ts).
    name: 'integrateDenseFusedShared',
    code: shaders.integrateDenseFused({
      forces: { composition: COMPOSITION, group: 3 },
      colliders: { composition: COLLIDERS, group: 3, binding: 2 },
    }),
    pipelines: fusedStepVariants.map((v) => ({
      ...v,
      constants: { ...v.constants, CAPACITY, DENSE_SPAN: CAPACITY, EVENT_BITS_AT },
    })),
  },
  {
    name: 'integrateDenseFused',
    code: shaders.integrateDenseFused({ colliders: { composition: COLLIDERS, group: 3 } }),
    pipelines: fusedStepVariants.map((v) => ({
      ...v,
      constants: { ...v.constants, CAPACITY, DENSE_SPAN: CAPACITY, EVENT_BITS_AT },
    })),
  },
  { name: 'forces', code: shaders.forces(COMPOSITION), pipelines: one(sized) },
  { name: 'forcesLive', code: shaders.forcesLive(COMPOSITION), pipelines: one(live) },
  { name: 'forcesEmpty', code: shaders.forces([]), pipelines: one(sized) },
  { name: 'springs', code: shaders.springs(), pipelines: one(sized) },
  {
    name: 'scatter',
    code: shaders.scatter(),
    pipelines: [
      { name: 'write', constants: { WORKGROUP_SIZE, ADD: 0 } },
      { name: 'add', constants: { WORKGROUP_SIZE, ADD: 1 } },
    ],
  },
  {
    name: 'collide',
    code: shaders.collide(),
    pipelines: [
      { name: 'plain', constants: { WORKGROUP_SIZE, APPLY_DELTAS: 0 } },
      { name: 'apply deltas', constants: { WORKGROUP_SIZE, APPLY_DELTAS: 1 } },
    ],
  },
  {
    name: 'grid',
    code: shaders.grid(),
    pipelines: ['assign', 'scanChunks', 'scanChunkSums', 'addChunkSums', 'scatter', 'sortBuckets'].map(
      (entryPoint) => ({
        name: entryPoint,
        entryPoint,
        constants: sized,
      }),
    ),
  },
  {
    name: 'contacts',
    code: shaders.contacts(),
    pipelines: Object.entries(CONTACT_MODES).flatMap(([mode, MODE]) =>
      [0, 32].map((CANDIDATES) => ({
        name: `${mode}, ${CANDIDATES} candidates`,
        constants: { WORKGROUP_SIZE, MODE, CANDIDATES },
      })),
    ),
  },
  {
    name: 'age',
    code: shaders.age(),
    pipelines: ageModes,
  },
  {
    name: 'countDeaths',
    code: shaders.countDeaths(),
    pipelines: [0, 1].map((HAS_PAYLOADS) => ({
      name: `payloads ${HAS_PAYLOADS}`,
      constants: { CAPACITY, HAS_PAYLOADS },
    })),
  },
  {
    name: 'compact',
    code: shaders.compact(),
    pipelines: [0, 1].map((HAS_PAYLOADS) => ({
      name: `payloads ${HAS_PAYLOADS}`,
      constants: { WORKGROUP_SIZE, CAPACITY, HAS_PAYLOADS, BLOCK_OFFSETS_AT: 0, DEAD_INDEX_AT: CAPACITY / 32 },
    })),
  },
  { name: 'fill', code: shaders.fill(), pipelines: one({ ...live, DEAD_INDEX_AT: CAPACITY / 32 }) },
  { name: 'emit', code: shaders.emit(), pipelines: one(live) },
  {
    name: 'lifeScan',
    code: shaders.lifeScan(),
    pipelines: ['scanBlocks', 'addOffsets'].map((entryPoint) => ({ name: entryPoint, entryPoint, constants: {} })),
  },
  {
    name: 'lifePlan',
    code: shaders.lifePlan(),
    pipelines: one({ CAPACITY, SCAN_LEVELS: 2 }, 'scanTopAndPlanEmit'),
  },
  { name: 'renderParticles', code: shaders.renderParticles(DRAW_PARAMS, GROUP_LIFE) },
  { name: 'renderLiveParticles', code: shaders.renderLiveParticles(DRAW_PARAMS) },
  { name: 'renderSortedParticles', code: shaders.renderSortedParticles(DRAW_PARAMS, GROUP_LIFE) },
  { name: 'renderLiveSortedParticles', code: shaders.renderLiveSortedParticles(DRAW_PARAMS) },
  {
    name: 'renderDepthSort',
    code: shaders.renderDepthSort(DEPTH_SORT_PARAMS, SORT_DIGIT),
    pipelines: ['keysHistogram', 'histogram', 'scan', 'scatter'].map((entryPoint) => ({
      name: entryPoint,
      entryPoint,
      constants: entryPoint === 'scan' ? {} : { WORKGROUP_SIZE },
    })),
  },
  { name: 'renderGrid', code: shaders.renderGrid(RENDER_GRID_PARAMS) },
  { name: 'renderLines', code: shaders.renderLines(LINE_PARAMS) },
  { name: 'renderLinks', code: shaders.renderLinks(LINK_PARAMS, LINK_RECORD, ANCHORED_END) },
  {
    name: 'renderTrailsRecord',
    code: shaders.renderTrailsRecord(TRAIL_HEAD, TRAIL_RECORD_PARAMS),
    pipelines: [0, 1].map((life) => ({ name: `HAS_LIFE ${life}`, constants: { WORKGROUP_SIZE, HAS_LIFE: life } })),
  },
  { name: 'renderTrails', code: shaders.renderTrails(TRAIL_HEAD, TRAIL_STOP, TRAIL_DRAW_PARAMS) },
  { name: 'copy', code: shaders.copy(), pipelines: one(sized) },
  { name: 'benchIntegrateSoA', code: shaders.benchIntegrateSoA(), pipelines: stepVariants },
  {
    name: 'benchIntegrateUniformAcceleration',
    code: shaders.benchIntegrateUniformAcceleration(),
    pipelines: stepVariants,
  },
];

const PIECES = pieces(COMPOSITION, COLLIDERS);
const MARKED = new Map(COMPOSED.map((c) => [c.name, markPieces(c.code, PIECES)]));

/**
 * A composition on the store split in chunks (src/gpu/shared/kernel.ts composes a kernel for its
 * ParticleBuffer's chunking): the text of composition `of`, with the chunked store in place of its `store`.
 */
interface Chunked extends Composed {
  readonly of: string;
  readonly store: string;
  readonly chunkedStore: string;
}

/**
 * `pipelines` for the last chunk, as src/gpu/shared/kernel.ts builds them for a kernel run chunk by chunk: OWN_CHUNK
 * set, and for one dispatched by its chunk's slots (perChunk true) those slots.
 */
const forLastChunk = (pipelines: readonly Pipeline[], bySlots: boolean) => {
  const k = CHUNKING.chunks - 1;
  const size = 2 ** CHUNKING.shift;
  const slots: Record<string, number> = bySlots ? { OWN_CHUNK_BASE: k * size, OWN_CHUNK_SIZE: size } : {};
  return pipelines.map((p) => ({ ...p, constants: { ...p.constants, OWN_CHUNK: k, ...slots } }));
};
const CHUNKED: readonly Chunked[] = [
  {
    // Springs join particles of any chunks: every chunk bound (src/gpu/shared/kernel.ts, perChunk false).
    name: 'springs, every chunk bound',
    of: 'springs',
    code: shaders.springs(ON_CHUNKS),
    pipelines: one(sized),
    store: storeKey('read_write'),
    chunkedStore: storeKey('read_write', ON_CHUNKS),
  },
  {
    // The step runs chunk by chunk, over its chunk's slots (perChunk true).
    name: 'integrate, its own chunk bound',
    of: 'integrate',
    code: shaders.integrate(OWN_CHUNK),
    pipelines: forLastChunk(stepVariants, true),
    store: storeKey('read_write'),
    chunkedStore: storeKey('read_write', OWN_CHUNK),
  },
  {
    // The ageing runs chunk by chunk over the live list, each run on the slots its chunk owns (perChunk 'owner').
    name: 'age, its own chunk bound',
    of: 'age',
    code: shaders.age(OWN_CHUNK),
    pipelines: forLastChunk(ageModes, false),
    store: storeKey('read_write'),
    chunkedStore: storeKey('read_write', OWN_CHUNK),
  },
  {
    // A draw binds every chunk, the first at its binding 1 and the others after its own storage buffers.
    name: 'renderParticles, every chunk bound',
    of: 'renderParticles',
    code: shaders.renderParticles(DRAW_PARAMS, GROUP_LIFE, RECORDS_ON_CHUNKS),
    store: storeKey('read', { binding: RENDER_PARTICLES_BINDING }),
    chunkedStore: storeKey('read', RECORDS_ON_CHUNKS),
  },
];

/** `c` compiles with no error message, and each of its pipelines builds. */
async function compiles(name: string, c: Composed): Promise<void> {
  const { device } = gpu.get();
  const module = device.createShaderModule({ label: `shaders.test(${name})`, code: c.code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error').map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
  expect(errors).toEqual([]);
  for (const pipeline of c.pipelines ?? []) {
    await withErrorScopes(
      device,
      `${name} (${pipeline.name})`,
      () => ({
        building: device.createComputePipelineAsync({
          label: `shaders.test(${name}, ${pipeline.name})`,
          layout: 'auto',
          compute: { module, entryPoint: pipeline.entryPoint ?? 'main', constants: pipeline.constants },
        }),
      }),
      ({ building }) => building,
    );
  }
}

describe('composed WGSL', () => {
  it('covers every composition the shader door exports', () => {
    // A new composition in src/shaders/index.ts must be added above (with its pipelines).
    const covered = new Set(COMPOSED.map((c) => c.name));
    const missing = Object.keys(shaders).filter((name) => !covered.has(name));
    expect(missing).toEqual([]);
  });

  it.each(COMPOSED.map((c): [string, Composed] => [c.name, c]))(
    '%s: the text is the reviewed snapshot, its shared pieces each a line',
    async (name, c) => {
      const marked = MARKED.get(name) as string;
      // The marker lines stand for exactly the pieces' text: what is compiled is what the snapshots show.
      expect(expandPieces(marked, PIECES)).toBe(c.code);
      await expect(marked).toMatchFileSnapshot(`./__snapshots__/wgsl/${name}.wgsl.snap`);
    },
  );

  it.each(PIECES.map((p) => [p.key, p] as const))('piece %s: the text is the reviewed snapshot', async (key, p) => {
    // A shader file's piece is that file.
    if (key.startsWith('shaders/')) expect(p.text).toBe(readFileSync(new URL(`../${key}`, import.meta.url), 'utf8'));
    await expect(p.text).toMatchFileSnapshot(`./__snapshots__/wgsl/${pieceFile(p)}`);
  });

  it('every piece stands in some composition (no snapshot of a piece nothing composes)', () => {
    const used = new Set([...MARKED.values(), ...CHUNKED.map((c) => markPieces(c.code, PIECES))].flatMap(markedKeys));
    expect(PIECES.map((p) => p.key).filter((key) => !used.has(key))).toEqual([]);
  });

  it.each(CHUNKED.map((c): [string, Chunked] => [c.name, c]))(
    '%s: the text is the unchunked one with the chunked store in its place',
    (_, c) => {
      const unchunked = MARKED.get(c.of) as string;
      const line = (key: string) => `\n${marker(key)}\n`;
      expect(unchunked).toContain(line(c.store));
      expect(markPieces(c.code, PIECES)).toBe(unchunked.replace(line(c.store), line(c.chunkedStore)));
    },
  );

  it.each([...COMPOSED, ...CHUNKED].map((c): [string, Composed] => [c.name, c]))(
    '%s: compiles on the adapter, and builds every pipeline its pass uses',
    (name, c) => compiles(name, c),
  );
});
