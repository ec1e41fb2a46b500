/**
 * The one shader door: every shader the system compiles is composed here, by
 * plain concatenation, from (1) declarations generated from the schema (the
 * particle and life records, the lifecycle, collider, link and force
 * records, each pass's parameter block), (2) the shared pieces in shaders/
 * (the dispatch helper, PCG, the turbulence wave, the force generators) and
 * (3) the pass's own file. Every composition over the particles takes how
 * the store is split (`ParticleStoreChunks`: one binding, or chunks), which
 * src/gpu/shared/kernel.ts knows from the ParticleBuffer; the fused step takes the
 * bind groups its fused parts bind in. No WGSL text is ever edited.
 * test/shaders.test.ts snapshots every composition as text and compiles it
 * on the adapter.
 */
import { CONTACT_TRACKED, DEAD_RADIUS, wgslColliderConstants, wgslColliderStruct } from '../core/collisions/colliders';
import { RESTING_CLOSING_STEPS } from '../core/collisions/collide';
import { wgslWorldColliders, type ColliderComposition } from '../core/collisions/colliderComposition';
import { HEALTH, NON_FINITE_POLICIES } from '../core/nonFinite';
import { wgslLinkStruct } from '../core/collisions/links';
import { wgslLifecycleRecords } from '../core/emitters/gpuRecords';
import { wgslDrawConstants } from '../core/emitters/random';
import { wgslForceDeclarations, wgslRegisteredForces, type ForceComposition } from '../core/forces/records';
import { wgslTurbulenceField } from '../core/forces/turbulence';
import {
  NO_RULE,
  wgslLifeStruct,
  wgslParticleStore,
  wgslParticleStruct,
  type ParticleStoreBindings,
} from '../core/layout';
import { wgslLookRecords } from '../core/look/records';
import { wgslArgs } from './indirectArgs';
import {
  COLLIDE_PARAMS,
  CONTACT_PARAMS,
  COPY_PARAMS,
  GRID_PARAMS,
  SCAN_LEVEL,
  SCATTER_PARAMS,
  SPRING_LINK,
  SPRING_PARAMS,
  STEP_PARAMS,
  UNIFORM_STEP_PARAMS,
  SCAN_BLOCK,
} from './params';
import { sources as s } from './sources';

const compose = (...pieces: string[]) => pieces.join('\n');

/** Where the render passes bind the particle store's first chunk in their group 0 (after the uniform block). */
export const RENDER_PARTICLES_BINDING = 1;
/** The depth sort's: after its uniform block and digit. */
export const DEPTH_SORT_PARTICLES_BINDING = 2;

/**
 * How a composition's particle store is split: on one binding (no
 * `chunking`), every chunk bound, or (`ownChunk`) the one chunk a kernel run
 * chunk by chunk touches; `moreChunksAt` is where chunks past the first bind
 * (after a render pass's other storage buffers). The composition places the
 * first chunk itself.
 */
export type ParticleStoreChunks = Pick<ParticleStoreBindings, 'chunking' | 'ownChunk' | 'moreChunksAt'>;

/** A uniform block a render pass declares (printed from its schema). */
type Declared = { wgsl(): string };

/** A per-particle pass over every slot: the particle record, the dispatch helper, then the pass. */
function perParticle(store: ParticleStoreChunks, ...pass: string[]): string {
  return compose(wgslParticleStruct(), wgslParticleStore('read_write', store), s.dispatch, ...pass);
}

/**
 * The same pass over the live list of a system with emitters: the live-list
 * helper (shaders/lifecycle/liveDispatch.wgsl) in the dispatch helper's place, the pass
 * itself unchanged.
 */
function perLiveParticle(store: ParticleStoreChunks, ...pass: string[]): string {
  return compose(
    wgslParticleStruct(),
    wgslParticleStore('read_write', store),
    wgslLifecycleRecords(),
    s.liveDispatch,
    ...pass,
  );
}

/**
 * The same pass as the step of a system with emitters walks it
 * (shaders/step/denseDispatch.wgsl): every slot in slot order, the slots that
 * are not live skipped. The life records come with it (it reads `alive`).
 */
function perDenseParticle(store: ParticleStoreChunks, ...pass: string[]): string {
  return compose(
    wgslParticleStruct(),
    wgslParticleStore('read_write', store),
    wgslLifecycleRecords(),
    s.denseDispatch,
    ...pass,
  );
}

/** The generators of one composition: the records' declarations, the turbulence field, the generators, then `registeredForces`. */
function fieldForces(composition: ForceComposition): string {
  return compose(
    wgslForceDeclarations(),
    s.turbulence,
    wgslTurbulenceField(),
    s.safeLength,
    s.forceGenerators,
    wgslRegisteredForces(composition),
  );
}

/**
 * The force table (a uniform ring slot) and the index-list targets' masks
 * (one bit a particle from `first`, per generator), in bind group `group`.
 */
function forceTableBindings(group: number): string {
  return compose(
    `@group(${group}) @binding(0) var<uniform> table: ForceTable;`,
    `@group(${group}) @binding(1) var<storage, read> masks: array<u32>;`,
  );
}

/**
 * shaders/forces/integrateForces.wgsl with its bindings in bind group `group`: the
 * group after the step's own (2 over every slot, 3 over the live list, whose
 * lists take group 2).
 */
function forcesInGroup(group: number): string {
  return compose(forceTableBindings(group), s.integrateForces);
}

/** The resolving constants of RESTING_CLOSING_STEPS (shaders/collisions/worldContact.wgsl reads them). */
const restingSteps = () =>
  compose(
    `const RESTING_CLOSING_STEPS_EXTRA: f32 = ${RESTING_CLOSING_STEPS.extra.toFixed(1)};`,
    `const RESTING_CLOSING_STEPS_MAX: f32 = ${RESTING_CLOSING_STEPS.max.toFixed(1)};`,
  );

/** The collider records, their kinds' contacts (shaders/collisions/colliderKinds.wgsl) and what those read: every kernel that collides. */
const colliderKinds = () =>
  compose(wgslColliderStruct(), wgslColliderConstants(), restingSteps(), s.worldContact, s.colliderKinds);

/**
 * The colliders of one composition fused into the step (shaders/collisions/fusedColliders.wgsl),
 * their table at `binding` (0 unless given) of bind group `group`, or shaders/collisions/noColliders.wgsl without.
 */
function worldColliders(colliders?: FusedIn<ColliderComposition>): string {
  if (!colliders) return s.noColliders;
  return compose(
    colliderKinds(),
    s.fusedColliders,
    `@group(${colliders.group}) @binding(${colliders.binding ?? 0}) var<uniform> colliders: array<Collider, COLLIDER_COUNT>;`,
    wgslWorldColliders(colliders.composition),
  );
}

/**
 * A composition fused into the step, and the bind group its bindings take
 * (from `binding` on: the colliders' table may share the forces' group,
 * src/gpu/step/fusedPipelines.ts).
 */
export interface FusedIn<Composition> {
  composition: Composition;
  group: number;
  binding?: number;
}

/** What the step has fused into it: field forces, colliders, either or both. */
export interface StepFusion {
  forces?: FusedIn<ForceComposition>;
  colliders?: FusedIn<ColliderComposition>;
}

/** The step's hooks for `fusion`: `fieldForces` and `worldColliders`. */
function stepHooks(fusion: StepFusion): string[] {
  const forces = fusion.forces
    ? [fieldForces(fusion.forces.composition), forcesInGroup(fusion.forces.group)]
    : [s.noFieldForces];
  return [...forces, worldColliders(fusion.colliders)];
}

/** The step's entry point alone (shaders/step/stepEntry.wgsl): a system without emitters. */
const stepAlone = () => compose(step(), s.stepEntry);

/**
 * The step of a system with emitters with the ageing fused in: shaders/step/liveAge.wgsl's
 * entry point calls the step's stepParticle first.
 */
const stepThenAge = () =>
  compose(wgslLifeStruct(), `const NO_RULE: u32 = ${NO_RULE}u;`, step(), s.lifeDeath, s.contactLane, s.liveAge);

/** The deaths' scan's block size (src/gpu/lifecycle/lifeBuffers.ts), for every kernel that sizes, runs or reads the scan. */
function scanBlock(): string {
  return `const SCAN_BLOCK: u32 = ${SCAN_BLOCK}u;`;
}

/** shaders/lifecycle/scannedWords.wgsl with the scan's block size: how the compaction and the fill read the deaths' scan. */
function scannedWords(): string {
  return compose(scanBlock(), s.scannedWords);
}

/** What every lifecycle kernel over the particles declares first. */
function lifeHeader(store: ParticleStoreChunks): string {
  return compose(
    wgslParticleStruct(),
    wgslParticleStore('read_write', store),
    wgslLifeStruct(),
    wgslLifecycleRecords(),
    `const NO_RULE: u32 = ${NO_RULE}u;`,
    `const DEAD_RADIUS: f32 = ${DEAD_RADIUS.toFixed(1)};`,
  );
}

/** shaders/shared/health.wgsl and its constants, from src/core/nonFinite.ts. */
const health = () =>
  compose(
    `const HEALTH_NON_FINITE: u32 = ${HEALTH.nonFinite}u;`,
    `const HEALTH_FIRST_INDEX: u32 = ${HEALTH.firstIndex}u;`,
    `const HEALTH_POLICY: u32 = ${HEALTH.policy}u;`,
    `const HEALTH_WORDS: u32 = ${HEALTH.words}u;`,
    `const HEALTH_POLICY_PARK: u32 = ${NON_FINITE_POLICIES.indexOf('park')}u;`,
    `const HEALTH_PARKED_RADIUS: f32 = ${DEAD_RADIUS.toFixed(1)};`,
    s.health,
  );

/** The step: shaders/step/integrate.wgsl reads StepParams and counts non-finite state (shaders/shared/health.wgsl). */
const step = () =>
  compose(STEP_PARAMS.wgsl(), health(), `const DEAD_RADIUS: f32 = ${DEAD_RADIUS.toFixed(1)};`, s.integrate);

/** A draw of particles by index (shaders/render/records.wgsl), in the order `order` gives (its lookOf). */
function recordsDraw(params: Declared, groupLife: Declared, order: string, store: ParticleStoreChunks): string {
  return compose(
    wgslParticleStruct(),
    wgslParticleStore('read', { ...store, binding: RENDER_PARTICLES_BINDING }),
    params.wgsl(),
    wgslLookRecords(),
    groupLife.wgsl(),
    s.renderColor,
    s.renderParticles,
    s.renderRecords,
    order,
  );
}

/** A draw of the live list (shaders/render/liveRecords.wgsl), its slots in the order `order` gives (its liveSlotOf). */
function liveDraw(params: Declared, order: string, store: ParticleStoreChunks): string {
  return compose(
    wgslParticleStruct(),
    wgslParticleStore('read', { ...store, binding: RENDER_PARTICLES_BINDING }),
    wgslLifeStruct(),
    wgslLifecycleRecords(),
    params.wgsl(),
    wgslLookRecords(),
    s.renderColor,
    s.renderParticles,
    s.renderLiveRecords,
    order,
  );
}

export const shaders = {
  // The step and the forces (src/gpu/step/integratePass.ts, liveIntegratePass.ts, forcesPass.ts, springsPass.ts, scatterPass.ts).
  integrate: (store: ParticleStoreChunks = {}) => perParticle(store, ...stepHooks({}), stepAlone()),
  /** The step with field forces, colliders (shaders/collisions/fusedColliders.wgsl) or both fused in. */
  integrateFused: (fusion: StepFusion, store: ParticleStoreChunks = {}) =>
    perParticle(store, ...stepHooks(fusion), stepAlone()),
  /** The step of a system with emitters (every slot in order, not-live ones skipped), the ageing fused in. */
  integrateDense: (store: ParticleStoreChunks = {}) => perDenseParticle(store, ...stepHooks({}), stepThenAge()),
  /** The same with forces, colliders or both fused in. */
  integrateDenseFused: (fusion: StepFusion, store: ParticleStoreChunks = {}) =>
    perDenseParticle(store, ...stepHooks(fusion), stepThenAge()),
  forces: (composition: ForceComposition, store: ParticleStoreChunks = {}) =>
    perParticle(store, fieldForces(composition), forceTableBindings(1), s.forces),
  forcesLive: (composition: ForceComposition, store: ParticleStoreChunks = {}) =>
    perLiveParticle(store, fieldForces(composition), forceTableBindings(1), s.forces),
  springs: (store: ParticleStoreChunks = {}) =>
    perParticle(store, SPRING_PARAMS.wgsl(), SPRING_LINK.wgsl(), s.safeLength, s.springs),
  scatter: (store: ParticleStoreChunks = {}) => perParticle(store, SCATTER_PARAMS.wgsl(), s.scatter),

  // Collisions (src/gpu/collisions/collidePass.ts, gridPass.ts, contactPass.ts).
  collide: (store: ParticleStoreChunks = {}) =>
    perParticle(
      store,
      colliderKinds(),
      COLLIDE_PARAMS.wgsl(),
      // The lifecycle records declare it too; this pass is composed without them.
      `const CONTACT_TRACKED: f32 = ${CONTACT_TRACKED.toFixed(1)};`,
      `const DEAD_RADIUS: f32 = ${DEAD_RADIUS.toFixed(1)};`,
      health(),
      s.positionCopy,
      s.contactLane,
      s.collide,
    ),
  grid: (store: ParticleStoreChunks = {}) =>
    perParticle(store, s.gridHash, GRID_PARAMS.wgsl(), s.workgroupScan, s.grid),
  contacts: (store: ParticleStoreChunks = {}) =>
    perParticle(store, wgslLinkStruct(), s.gridHash, CONTACT_PARAMS.wgsl(), s.safeLength, s.positionCopy, s.contacts),

  // The lifecycle (src/gpu/lifecycle/lifecycleKernels.ts, lifeScanPass.ts, lifePlanPass.ts).
  age: (store: ParticleStoreChunks = {}) => compose(lifeHeader(store), s.dispatch, s.lifeDeath, s.contactLane, s.age),
  countDeaths: (store: ParticleStoreChunks = {}) =>
    compose(lifeHeader(store), s.lifeDeath, scanBlock(), s.blockScan, s.countDeaths),
  compact: (store: ParticleStoreChunks = {}) =>
    compose(lifeHeader(store), s.dispatch, s.lifeDeath, scannedWords(), s.compact),
  fill: () => compose(wgslLifecycleRecords(), s.dispatch, scannedWords(), s.fill),
  emit: (store: ParticleStoreChunks = {}) =>
    compose(lifeHeader(store), s.dispatch, s.pcg, wgslDrawConstants(), s.spawn, health(), s.emit),
  lifeScan: () =>
    compose(wgslLifecycleRecords(), scanBlock(), s.blockScan, s.blockInput, SCAN_LEVEL.wgsl(), s.lifeScan),
  lifePlan: () => compose(wgslLifecycleRecords(), scanBlock(), s.blockScan, s.blockInput, wgslArgs(), s.lifePlan),

  // The renderer (src/render/*Pass.ts): each pass passes its own uniform block.
  /** Particles by index: a state or a history of it (shaders/render/records.wgsl). */
  renderParticles: (params: Declared, groupLife: Declared, store: ParticleStoreChunks = {}) =>
    recordsDraw(params, groupLife, s.renderRecordOrder, store),
  /** The live list of a system with emitters, coloured from the life records (shaders/render/liveRecords.wgsl). */
  renderLiveParticles: (params: Declared, store: ParticleStoreChunks = {}) =>
    liveDraw(params, s.renderLiveOrder, store),
  /** Particles by index through a depth sort's order (shaders/render/sortedRecords.wgsl). */
  renderSortedParticles: (params: Declared, groupLife: Declared, store: ParticleStoreChunks = {}) =>
    recordsDraw(params, groupLife, s.renderSortedRecords, store),
  /** The live list through a depth sort's order (shaders/render/liveSortedSlots.wgsl). */
  renderLiveSortedParticles: (params: Declared, store: ParticleStoreChunks = {}) =>
    liveDraw(params, s.renderLiveSortedSlots, store),
  /** The depth sort's keys, histogram, scan and scatter (shaders/render/depthSort.wgsl); `params`, `digit`: DepthSortParams, SortDigit. */
  renderDepthSort: (params: Declared, digit: Declared, store: ParticleStoreChunks = {}) =>
    compose(
      wgslParticleStruct(),
      wgslParticleStore('read', { ...store, binding: DEPTH_SORT_PARTICLES_BINDING }),
      wgslLifeStruct(),
      s.dispatch,
      params.wgsl(),
      digit.wgsl(),
      s.workgroupScan,
      s.renderDepthSort,
    ),
  renderGrid: (params: Declared) => compose(params.wgsl(), s.renderGrid),
  renderLines: (params: Declared) => compose(params.wgsl(), s.renderColor, s.renderSegment, s.renderLines),
  /** Links between particles or to fixed anchors, read from a storage buffer of Particle records (shaders/render/links.wgsl); `link`: its link record; `anchoredEnd`: `b` of an anchored link. */
  renderLinks: (params: Declared, link: Declared, anchoredEnd: number, store: ParticleStoreChunks = {}) =>
    compose(
      `const ANCHORED_END: u32 = ${anchoredEnd}u;`,
      wgslParticleStruct(),
      wgslParticleStore('read', { ...store, binding: RENDER_PARTICLES_BINDING }),
      link.wgsl(),
      params.wgsl(),
      s.renderColor,
      s.renderSegment,
      s.renderLinks,
    ),
  /** Trails, the record pass: each slot's position into its ring (shaders/render/trailsRecord.wgsl); `head`, `params`: TrailHead, TrailRecordParams. */
  renderTrailsRecord: (head: Declared, params: Declared, store: ParticleStoreChunks = {}) =>
    compose(
      wgslParticleStruct(),
      wgslParticleStore('read', { ...store, binding: RENDER_PARTICLES_BINDING }),
      wgslLifeStruct(),
      head.wgsl(),
      params.wgsl(),
      s.dispatch,
      s.renderTrailsRecord,
    ),
  /** Trails, the draw: a ribbon through each ring (shaders/render/trails.wgsl); `head`, `stop`, `params`: TrailHead, TrailStop, TrailDrawParams. */
  renderTrails: (head: Declared, stop: Declared, params: Declared) =>
    compose(wgslLifeStruct(), head.wgsl(), stop.wgsl(), params.wgsl(), s.renderColor, s.renderTrails),

  // The benchmark's own kernels (src/bench/): never used by the library's passes.
  copy: () => compose(s.dispatch, COPY_PARAMS.wgsl(), s.copy),
  benchIntegrateSoA: () => compose(s.dispatch, s.benchStepMath, STEP_PARAMS.wgsl(), s.benchIntegrateSoA),
  benchIntegrateUniformAcceleration: () =>
    compose(
      wgslParticleStruct(),
      s.dispatch,
      s.benchStepMath,
      UNIFORM_STEP_PARAMS.wgsl(),
      s.benchIntegrateUniformAcceleration,
    ),
} as const;

/** The PCG helpers alone (the CPU twin's test compiles them against its own stream). */
export const pcgSource = s.pcg;
