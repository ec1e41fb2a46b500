/**
 * Every shader the system composes (src/shaders/index.ts), as text and on the
 * adapter: each composition is snapshot as a .wgsl file under
 * test/__snapshots__/wgsl/ (as <name>.wgsl.snap: snapshots, not sources), so a change to generated WGSL shows in review as a
 * diff, and each is compiled with no error message; compute shaders are also
 * built into pipelines for every entry point and every set of override
 * constants their pass uses (each step variant, each contact mode, ...).
 */
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
import { shaders } from '../src/shaders';
import { withErrorScopes } from '../src/gpu/device/errors';
import { useDevice } from './support/gpu';

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
    pipelines: [0, 1].map((RECHECK) => ({ name: `recheck ${RECHECK}`, constants: { ...live, RECHECK } })),
  },
  {
    name: 'deathWords',
    code: shaders.deathWords(),
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
      constants: { WORKGROUP_SIZE, CAPACITY, HAS_PAYLOADS, LEVEL1_AT: 0, DEAD_INDEX_AT: CAPACITY / 32 },
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

describe('composed WGSL', () => {
  it('covers every composition the shader door exports', () => {
    // A new composition in src/shaders/index.ts must be added above (with its pipelines).
    const covered = new Set(COMPOSED.map((c) => c.name));
    const missing = Object.keys(shaders).filter((name) => !covered.has(name));
    expect(missing).toEqual([]);
  });

  it.each(COMPOSED.map((c): [string, Composed] => [c.name, c]))(
    '%s: the text is the reviewed snapshot',
    async (name, c) => {
      await expect(c.code).toMatchFileSnapshot(`./__snapshots__/wgsl/${name}.wgsl.snap`);
    },
  );

  it.each(COMPOSED.map((c): [string, Composed] => [c.name, c]))(
    '%s: compiles on the adapter, and builds every pipeline its pass uses',
    async (name, c) => {
      const { device } = gpu.get();
      const module = device.createShaderModule({ label: `shaders.test(${name})`, code: c.code });
      const info = await module.getCompilationInfo();
      const errors = info.messages
        .filter((m) => m.type === 'error')
        .map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
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
    },
  );
});
